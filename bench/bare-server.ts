// The baseline of bench/api-budget.ts: a bare Fastify 5 + postgres.js server
// that runs the product's SQL for two routes and nothing else — no tRPC, no
// OpenAPI adapter, no zod, no token verification, no ORM, no booking rules
// beyond what picks the statements. The statements are the product's own, as
// drizzle sends them (captured from the real server with postgres.js `debug`),
// in the product's order, unprepared like drizzle's unless BARE_PREPARE=1.
//
//   GET  /api/single_class?start_date&end_date — the anonymous week read of
//        listSchedule: the studio settings, the week's class ids, then the four
//        queries of loadSingleClassOutputs at once (classes with type and
//        location, places and seats, instructors, tags); same JSON as the product.
//   POST /api/class_reservations {single_class_id, customer_id} — the statements
//        of createReservation: the settings, then in one transaction the class
//        gate (shared advisory lock), the customer locked, the class read, the
//        duplicate check, the first count, the credits locked, one spent, the
//        waitlist row removed, the class locked, the final count, the insert.
//        The customer comes in the body: the bare server verifies nobody.
//
// Env: DATABASE_URL, PORT, HOST (127.0.0.1), BARE_POOL (10, the product's pool),
// BARE_PREPARE (0).
import Fastify from 'fastify';
import postgres from 'postgres';
import { studioDayRange, yearlessBirthdate } from '@estudio/core';
import { classesByDay, type Json } from '../server/src/legacy/shapes.ts';

const sql = postgres(process.env.DATABASE_URL ?? '', { max: Number(process.env.BARE_POOL ?? 10), onnotice: () => {} });
// Dates (birthdates) stay 'YYYY-MM-DD' strings, as drizzle's date columns give them.
sql.options.parsers[1082] = (value: string) => value;
const prepare = process.env.BARE_PREPARE === '1';
type Runner = postgres.Sql | postgres.TransactionSql;
/** Runs one statement as drizzle does (values, positional), prepared only when asked. */
const run = (db: Runner, text: string, params: postgres.ParameterOrJSON<never>[] = []) => db.unsafe(text, params, { prepare }).values();
const placeholders = (n: number, from = 1) => Array.from({ length: n }, (_, i) => `$${i + from}`).join(', ');

const SETTINGS = `select "key", "value" from "app_config"`;
const WEEK_IDS =
  `select "single_class_id" from "single_class" where ("single_class"."class_date" >= $1 and "single_class"."class_date" <= $2) ` +
  `order by "single_class"."class_date" asc, "single_class"."single_class_id" asc`;
const CLASS_COLUMNS =
  `"single_class"."single_class_id", "single_class"."class_date", "single_class"."duration_minutes", "single_class"."description", ` +
  `"single_class"."capacity", "single_class"."location_id", "single_class"."class_type_id", "single_class"."class_package_id", ` +
  `"single_class"."icon", "single_class"."cancelled_at", "single_class"."created_at", "single_class"."updated_at", ` +
  `"class_type"."class_type_id", "class_type"."name", "class_type"."description", "class_type"."icon", "class_type"."image", ` +
  `"class_type"."spot_map", "class_type"."class_category_id", "class_type"."available", "class_type"."order", ` +
  `"class_type"."created_at", "class_type"."updated_at"`;
const CLASSES = (n: number) =>
  `select ${CLASS_COLUMNS}, "location"."location_id", "location"."name", "location"."address", "location"."city", "location"."phone", ` +
  `"location"."maps_url", "location"."available", "location"."order", "location"."created_at", "location"."updated_at", "class_type"."color" ` +
  `from "single_class" inner join "class_type" on "class_type"."class_type_id" = "single_class"."class_type_id" ` +
  `inner join "location" on "location"."location_id" = "single_class"."location_id" where "single_class"."single_class_id" in (${placeholders(n)})`;
const COUNTS = (n: number) =>
  `select "single_class_id", (count(*) + count("guest"))::int, ` +
  `(select array_agg(s order by s) from unnest(array_agg("class_reservation"."spot") || array_agg("class_reservation"."guest_spot")) s where s is not null) ` +
  `from "class_reservation" where ("class_reservation"."single_class_id" in (${placeholders(n)}) and "class_reservation"."deleted_at" is null) ` +
  `group by "class_reservation"."single_class_id"`;
const INSTRUCTORS = (n: number) =>
  `select "single_class_instructor"."single_class_id", "instructor"."instructor_id", "instructor"."name", "instructor"."last_name", ` +
  `"instructor"."nick_name", "instructor"."birthdate", "file"."src", "file"."name", "file"."type" from "single_class_instructor" ` +
  `inner join "instructor" on "instructor"."instructor_id" = "single_class_instructor"."instructor_id" ` +
  `left join "file" on "file"."file_id" = "instructor"."file_id" where "single_class_instructor"."single_class_id" in (${placeholders(n)}) ` +
  `order by "instructor"."order" asc, "instructor"."instructor_id" asc`;
const TAGS = (n: number) =>
  `select "single_class_tag"."single_class_id", "tag"."tag_id", "tag"."name", "tag"."color" from "single_class_tag" ` +
  `inner join "tag" on "tag"."tag_id" = "single_class_tag"."tag_id" where "single_class_tag"."single_class_id" in (${placeholders(n)}) ` +
  `order by "tag"."name" asc`;

const GATE = `select pg_advisory_xact_lock_shared($1, $2)`;
const LOCK_CUSTOMER =
  `select "customer_id", "uid", "name", "last_name", "email", "phone", "instagram", "birthdate", "file_id", "signup_reason", ` +
  `"signup_reason_other", "role", "has_unlimited", "unlimited_membership_expiration", "unlimited_max_no_shows_for_penalty", "address_id", ` +
  `"stripe_customer_id", "paypal_payer_id", "created_at", "updated_at", "deleted_at" from "customer" ` +
  `where ("customer"."customer_id" = $1 and "customer"."deleted_at" is null) for update`;
const READ_CLASS =
  `select ${CLASS_COLUMNS} from "single_class" inner join "class_type" on "class_type"."class_type_id" = "single_class"."class_type_id" ` +
  `where "single_class"."single_class_id" = $1`;
const DUPLICATE =
  `select "class_reservation_id" from "class_reservation" where ("class_reservation"."single_class_id" = $1 and ` +
  `"class_reservation"."customer_id" = $2 and "class_reservation"."deleted_at" is null) limit $3`;
const OCCUPANCY =
  `select (count(*) + count("guest"))::int, false from "class_reservation" ` +
  `where ("class_reservation"."single_class_id" = $1 and "class_reservation"."deleted_at" is null)`;
const LOCK_CREDITS =
  `select "available_classes"."available_class_id", "available_classes"."customer_id", "available_classes"."purchase_id", ` +
  `"available_classes"."class_type_id", "available_classes"."available_classes", "available_classes"."expiration_date", ` +
  `"available_classes"."allowed_times", "available_classes"."cancels_used", "available_classes"."created_at", ` +
  `"available_classes"."updated_at", "available_classes"."deleted_at", "purchase"."class_package_id", "class_package"."is_special_event" ` +
  `from "available_classes" left join "purchase" on "purchase"."purchase_id" = "available_classes"."purchase_id" ` +
  `left join "class_package" on "class_package"."class_package_id" = "purchase"."class_package_id" ` +
  `where ("available_classes"."customer_id" = $1 and "available_classes"."deleted_at" is null and "available_classes"."available_classes" <> $2 ` +
  `and ("available_classes"."expiration_date" is null or "available_classes"."expiration_date" > $3)) for update of "available_classes"`;
const SPEND =
  `update "available_classes" set "available_classes" = "available_classes"."available_classes" - 1, "updated_at" = $1 ` +
  `where ("available_classes"."available_class_id" = $2 and "available_classes"."available_classes" > $3) returning "available_class_id"`;
const LEAVE_WAITLIST = `delete from "waitlist" where ("waitlist"."single_class_id" = $1 and "waitlist"."customer_id" = $2)`;
const LOCK_CLASS = `${READ_CLASS} for update of "single_class"`;
const RESERVATION_COLUMNS =
  `"class_reservation_id", "single_class_id", "customer_id", "available_class_id", "spot", "guest", "attend", "attended_at", "is_cash", ` +
  `"is_paid", "class_stars", "coach_stars", "comment", "rated_at", "credit_returned", "created_at", "updated_at", "deleted_at"`;
const INSERT =
  `insert into "class_reservation" (${RESERVATION_COLUMNS}) values (default, $1, $2, $3, $4, $5, default, default, default, default, ` +
  `default, default, default, default, default, default, default, default) returning ${RESERVATION_COLUMNS}`;
/** Arbitrary constant of the product's class gate (server/src/services/reservations/booking-locks.ts). */
const CLASS_GATE = 61_007;

type Row = unknown[];
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : v === null ? null : String(v));
const groupBy = (rows: Row[]) => {
  const map = new Map<number, Row[]>();
  for (const row of rows) {
    const key = row[0] as number;
    const list = map.get(key);
    if (list) list.push(row);
    else map.set(key, [row]);
  }
  return map;
};

async function weekRead(startDate: string, endDate: string) {
  const settings = await run(sql, SETTINGS);
  const timezone = String(settings.find((r) => r[0] === 'timezone')?.[1] ?? '').trim() || 'America/Mexico_City';
  const { from, to } = studioDayRange(startDate, endDate, timezone);
  const ids = (await run(sql, WEEK_IDS, [from.toISOString(), to.toISOString()])).map((r) => r[0] as number);
  if (ids.length === 0) return { single_classes: [], classes: [] };
  const n = ids.length;
  const [classes, counts, instructors, tags] = await Promise.all([
    run(sql, CLASSES(n), ids),
    run(sql, COUNTS(n), ids),
    run(sql, INSTRUCTORS(n), ids),
    run(sql, TAGS(n), ids),
  ]);
  const classBy = new Map(classes.map((r) => [r[0] as number, r]));
  const countBy = new Map(counts.map((r) => [r[0] as number, r]));
  const instructorsBy = groupBy(instructors);
  const tagsBy = groupBy(tags);
  const single_classes = [];
  for (const id of ids) {
    const c = classBy.get(id);
    if (!c) continue;
    const count = countBy.get(id);
    single_classes.push({
      single_class_id: c[0],
      class_date: iso(c[1]),
      duration_minutes: c[2],
      description: c[3],
      capacity: c[4],
      location_id: c[5],
      class_type_id: c[6],
      class_package_id: c[7],
      icon: c[8],
      cancelledAt: iso(c[9]),
      reservation_count: Number(count?.[1] ?? 0),
      taken_spots: ((count?.[2] as number[] | null) ?? []).map(Number),
      class_type: { class_type_id: c[12], name: c[13], icon: c[15], description: c[14], spot_map: c[17], color: c[33] },
      location: { location_id: c[23], name: c[24], address: c[25] },
      class_instructors: (instructorsBy.get(id) ?? []).map((i) => ({
        instructor_id: i[1],
        name: i[2],
        last_name: i[3],
        nick_name: i[4],
        birthdate: yearlessBirthdate(i[5] as string | null),
        file: i[6] === null ? null : { src: i[6], name: i[7], type: i[8] },
      })),
      tags: (tagsBy.get(id) ?? []).map((t) => ({ tag_id: t[1], name: t[2], color: t[3] })),
      class_reservations: [],
      waitlist_id: null,
      package_access: c[7] === null,
    });
  }
  // The route's answer also carries the previous panel's days (decision 033).
  return { single_classes, classes: classesByDay(single_classes as Json[], timezone, { start_date: startDate, end_date: endDate }) };
}

class Refused extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

async function book(classId: number, customerId: number) {
  await run(sql, SETTINGS);
  const row = await sql.begin(async (tx) => {
    await run(tx, GATE, [CLASS_GATE, classId]);
    await run(tx, LOCK_CUSTOMER, [customerId]);
    const [c] = await run(tx, READ_CLASS, [classId]);
    if (!c) throw new Refused('class/not-found');
    await run(tx, DUPLICATE, [classId, customerId, 1]);
    await run(tx, OCCUPANCY, [classId]);
    const credits = await run(tx, LOCK_CREDITS, [customerId, 0, iso(c[1]) as string]);
    const credit = credits[0];
    if (!credit) throw new Refused('booking/no-credits');
    const spent = await run(tx, SPEND, [new Date().toISOString(), credit[0] as number, 0]);
    if (spent.length === 0) throw new Refused('booking/no-credits');
    await run(tx, LEAVE_WAITLIST, [classId, customerId]);
    const [locked] = await run(tx, LOCK_CLASS, [classId]);
    const [places] = await run(tx, OCCUPANCY, [classId]);
    if (Number(places?.[0] ?? 0) + 1 > Number(locked?.[4] ?? 0)) throw new Refused('booking/class-full');
    const [inserted] = await run(tx, INSERT, [classId, customerId, credit[0] as number, null, null]);
    return inserted as Row;
  });
  return {
    class_reservation: {
      class_reservation_id: row[0],
      single_class_id: row[1],
      customer_id: row[2],
      available_class_id: row[3],
      spot: row[4],
      guest: row[5],
      attend: row[6],
      is_cash: row[8],
      is_paid: row[9],
      class_stars: row[10],
      coach_stars: row[11],
      comment: row[12],
      credit_returned: row[14],
      createdAt: iso(row[15]),
      updatedAt: iso(row[16]),
      deletedAt: iso(row[17]),
    },
  };
}

const app = Fastify({ logger: false });
app.get('/api/health', async () => ({ ok: true }));
app.get<{ Querystring: { start_date: string; end_date: string } }>('/api/single_class', async (req) => weekRead(req.query.start_date, req.query.end_date));
app.post<{ Body: { single_class_id: number; customer_id: number } }>('/api/class_reservations', async (req, reply) => {
  try {
    return await book(req.body.single_class_id, req.body.customer_id);
  } catch (err) {
    if (err instanceof Refused) return reply.code(412).send({ code: err.code });
    throw err;
  }
});

const shutdown = async () => {
  await app.close();
  await sql.end({ timeout: 5 });
  process.exit(0);
};
process.once('SIGTERM', () => void shutdown());
process.once('SIGINT', () => void shutdown());
await app.listen({ port: Number(process.env.PORT ?? 3302), host: process.env.HOST ?? '127.0.0.1' });
