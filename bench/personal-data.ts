// A customer's copy of her data (Mexico's right of access), measured: GET /api/customer/my_data as JSON and as the
// ZIP of CSV files, for a customer with two years of history, beside GET /api/customer (her profile) in the same
// run, through the real app on a fresh seeded database. Prints the median time of each, their ratio to the profile,
// the file's size and the heap the server grew while making it.
//
//   npx tsx bench/personal-data.ts
//
// Uses TEST_DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres; empty: PGlite).
// Knobs: BENCH_YEARS (2), BENCH_RUNS (15).
import { eq, sql } from 'drizzle-orm';
import { createTestDb } from '@estudio/db/testing';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { single_class } from '@estudio/db/schema/schedule';
import { buildServer } from '../server/src/app.ts';
import { login, testConfig } from '../server/test/support/helpers.ts';

process.env.TEST_DATABASE_URL ??= 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const years = Number(process.env.BENCH_YEARS ?? 2);
const runs = Number(process.env.BENCH_RUNS ?? 15);

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const testDb = await createTestDb();
const { db } = testDb;
try {
  const [mariana] = await db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
  const [pkg] = await db.select().from(class_package).where(eq(class_package.title, '10 Clases'));
  const [template] = await db.select().from(single_class).limit(1);
  if (!mariana || !pkg || !template) throw new Error('the demo studio has its customer, a package and a class');
  const id = mariana.customer_id;
  const weeks = years * 52;
  // Two years as a regular: a 10-class package a month (with its credits and invoice), three classes a week
  // (each with its confirmation and reminder message), and her account changed now and then.
  await db.execute(sql`
    with made as (
      insert into purchase (customer_id, class_package_id, title, amount, total_payment, class_amount, status, provider, paid_at, created_at)
      select ${id}, ${pkg.class_package_id}, '10 Clases', 1350, 1350, 10, 'completed', 'cash',
             now() - (g * interval '1 month'), now() - (g * interval '1 month')
      from generate_series(1, ${years * 12}) g
      returning purchase_id, paid_at
    )
    insert into available_classes (customer_id, purchase_id, available_classes, expiration_date, created_at)
    select ${id}, purchase_id, 0, paid_at + interval '30 days', paid_at from made`);
  await db.execute(sql`
    with classes as (
      insert into single_class (class_date, duration_minutes, capacity, location_id, class_type_id)
      select now() - (w * interval '1 week') - (d * interval '2 days'), 50, 20, ${template.location_id}, ${template.class_type_id}
      from generate_series(1, ${weeks}) w, generate_series(0, 2) d
      returning single_class_id, class_date
    ), booked as (
      insert into class_reservation (single_class_id, customer_id, attend, attended_at, created_at)
      select single_class_id, ${id}, true, class_date, class_date - interval '2 days' from classes
      returning class_reservation_id, created_at
    )
    insert into outbox_message (channel, recipient, subject, body, status, kind, customer_id, created_at, sent_at)
    select 'email', 'cliente@estudio.demo', 'Tu reservación', 'Reservaste tu clase.', 'sent', k, ${id}, created_at, created_at
    from booked, (values ('booking-confirmation'), ('reminder')) as kinds(k)`);
  await db.execute(sql`
    insert into audit_log (customer_id, action, entity, entity_id, changes, created_at)
    select ${id}, 'update', 'customer', ${String(id)}, jsonb_build_object('phone', '55' || lpad(g::text, 8, '0')), now() - (g * interval '1 week')
    from generate_series(1, ${weeks}) g`);

  const app = await buildServer({ config: testConfig({ CLOCK: 'off' }), db });
  const { idToken } = await login(app, 'cliente@estudio.demo');
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${idToken}` } });
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.rawPayload.length;
  };
  const measure = async (url: string) => {
    await get(url); // warm
    const times: number[] = [];
    let bytes = 0;
    let grew = 0;
    for (let i = 0; i < runs; i++) {
      const heap = process.memoryUsage().heapUsed;
      const start = process.hrtime.bigint();
      bytes = await get(url);
      times.push(ms(start));
      grew = Math.max(grew, process.memoryUsage().heapUsed - heap);
    }
    return { p50: median(times), bytes, grew };
  };
  const counts = (await db.execute(sql`
    select (select count(*) from class_reservation where customer_id = ${id})::int as reservations,
           (select count(*) from purchase where customer_id = ${id})::int as purchases,
           (select count(*) from outbox_message where customer_id = ${id})::int as messages,
           (select count(*) from audit_log where entity = 'customer' and entity_id = ${String(id)})::int as changes`)) as unknown as
    | { rows: Record<string, number>[] }
    | Record<string, number>[];
  const row = Array.isArray(counts) ? counts[0] : counts.rows[0];
  console.log(`Her history (${years} years): ${JSON.stringify(row)}`);
  // Alternated, so load on the shared machine moves all three alike.
  const profile = await measure('/api/customer');
  const json = await measure('/api/customer/my_data?format=json');
  const csv = await measure('/api/customer/my_data?format=csv');
  const kb = (n: number) => `${(n / 1024).toFixed(0)} KiB`;
  console.log(`GET /api/customer (profile): p50 ${profile.p50.toFixed(1)} ms, ${kb(profile.bytes)}`);
  console.log(`my_data JSON: p50 ${json.p50.toFixed(1)} ms (${(json.p50 / profile.p50).toFixed(1)}× the profile), ${kb(json.bytes)}, heap grew ≤ ${kb(json.grew)}`);
  console.log(`my_data CSV (ZIP): p50 ${csv.p50.toFixed(1)} ms (${(csv.p50 / profile.p50).toFixed(1)}× the profile), ${kb(csv.bytes)}, heap grew ≤ ${kb(csv.grew)}`);
  await app.close();
} finally {
  await testDb.close();
}
