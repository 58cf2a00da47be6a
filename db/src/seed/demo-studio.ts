import { randomBytes } from 'node:crypto';
import { appConfigDefaults, studioPublishedKey } from '@estudio/core';
import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../create-db.ts';
import { hashPassword } from '../password.ts';
import * as s from '../schema/index.ts';
import { demoAccounts, demoPassword } from './accounts.ts';
import * as content from './content.ts';
import { createRandom, type Random } from './random.ts';
import { demoStudioSettings } from './demo-settings.ts';
import { seedCatalogue } from './catalogue.ts';
import { seedContent } from './pages-and-forms.ts';
import { seedDiscounts } from './discounts.ts';
import { seedProducts } from './products.ts';
import { packageKeys, seedPackages, type PackageKey } from './packages.ts';
import { seedVideos } from './videos.ts';
import { at, idAt, TZ } from './seed-days.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

const SEED = 20_190_615;

export interface SeedOptions {
  /** The instant the schedule and expiry dates are relative to (default: now). */
  now?: Date;
}

export interface SeedSummary {
  customers: number;
  singleClasses: number;
  reservations: number;
  packages: number;
  videos: number;
}

type NewCustomer = typeof s.customer.$inferInsert;
type NewReservation = typeof s.class_reservation.$inferInsert;


/** One credit row being planned: reservations draw from it before it is inserted. */
interface CreditPlan {
  customerIndex: number;
  purchaseIndex: number;
  classTypeIndex: number | null;
  remaining: number;
  validFrom: Dayjs;
  expires: Dayjs;
  unlimited: boolean;
}

interface PurchasePlan {
  customerIndex: number;
  pkg: PackageKey;
  createdAt: Dayjs;
  status: (typeof s.purchaseStatuses)[number];
  paymentMethod: 1 | 2;
  /** Number of charges already made (subscriptions renew monthly). */
  periods: number;
  expiration: Dayjs | null;
}

const reviewComments = [
  '¡Me encantó la clase! La música estuvo increíble.',
  'Excelente coach, muy atenta a la postura.',
  'Salí renovada, justo lo que necesitaba.',
  'Muy buena clase, aunque el salón estaba un poco caluroso.',
  'La mejor rodada de la semana.',
  'Ideal para empezar el día.',
] as const;

const guestNames = ['Laura Medina', 'Pablo Ríos', 'Tania Ortega', 'Óscar Peña', 'Lorena Vidal'] as const;

/** Weekly grid: [hour, class type index, location index]; index 0 is Sunday (dayjs). */
const weeklySlots: readonly (readonly [string, number, number])[][] = [
  [['10:00', 2, 1]],
  [['07:00', 2, 0], ['09:00', 0, 1], ['19:00', 3, 0]],
  [['07:00', 0, 0], ['09:00', 1, 1], ['19:00', 2, 0], ['20:00', 1, 0]],
  [['07:00', 2, 1], ['09:00', 0, 0], ['19:00', 3, 1]],
  [['07:00', 1, 0], ['09:00', 0, 1], ['19:00', 2, 0], ['20:00', 3, 0]],
  [['07:00', 2, 0], ['09:00', 1, 1], ['19:00', 0, 0]],
  [['09:00', 3, 0], ['11:00', 0, 1]],
];


/**
 * Seeds the demo studio "Estudio Demo" (CDMX): configuration, catalogue,
 * a schedule from last week to two weeks ahead of `now`, packages, videos,
 * pages, discounts, ~200 customers with purchases, credits and reservations,
 * and the demo accounts. Everything runs in one transaction with one insert
 * per table; the data is deterministic apart from the password salt.
 */
export async function seedDemoStudio(db: Db, options: SeedOptions = {}): Promise<SeedSummary> {
  // Hashed once: scrypt is deliberately slow and every seeded identity shares the password.
  const passwordHash = await hashPassword(demoPassword);
  return db.transaction((tx) => seedInTransaction(tx, passwordHash, options));
}

/** Seeds only an empty database (no app_config row and no customer). Returns whether it seeded. */
export async function seedIfEmpty(db: Db, options: SeedOptions = {}): Promise<boolean> {
  const [config] = await db.select({ key: s.app_config.key }).from(s.app_config).limit(1);
  const [someone] = await db.select({ id: s.customer.customer_id }).from(s.customer).limit(1);
  if (config || someone) return false;
  await seedDemoStudio(db, options);
  return true;
}

async function seedInTransaction(tx: Tx, passwordHash: string, options: SeedOptions): Promise<SeedSummary> {
  const rng = createRandom(SEED);
  const now = dayjs(options.now ?? new Date()).tz(TZ);
  const today = now.format('YYYY-MM-DD');
  const date = (offsetDays: number) => dayjs.utc(today).add(offsetDays, 'day').format('YYYY-MM-DD');
  const ago = (days: number, time = '12:00') => at(date(-days), time);
  const clock: SeedClock = { now, today, date, ago };

  // The demo studio is open to the public from the start (decision 129): a studio started without it is not, until its owner publishes it.
  const published = { [studioPublishedKey]: 'true' };
  await tx.insert(s.app_config).values(Object.entries({ ...appConfigDefaults, ...demoStudioSettings, ...published }).map(([key, value]) => ({ key, value })));

  const days = { date, ago };
  const { locations, categories, classTypes, instructors, classTags, videoTags } = await seedCatalogue(tx);
  const { packageRows, packageId, eventDate } = await seedPackages(tx, days, classTypes);
  const { requiredPageIds } = await seedContent(tx, days);
  const { videos } = await seedVideos(tx, days, { instructors, classTypes, categories, videoTags });
  const { discounts } = await seedDiscounts(tx, days, packageId);
  await seedProducts(tx);

  // The community, in the order the random sequence is drawn: every step after it depends on what it drew.
  const { customers, cid } = await seedCustomers(tx, rng, clock, passwordHash, requiredPageIds);
  const { classPlans, classIds } = await seedSchedule(tx, rng, clock, { locations, classTypes, instructors, classTags, eventDate, packageId });
  const bought = planPurchases(rng, clock, customers.length, packageRows);
  const bookings = planReservations(rng, clock, classPlans, bought, customers.length);
  const { creditIds } = await insertPurchases(tx, rng, clock, bought, { packageRows, packageId, classTypes, cid });
  await insertReservations(tx, rng, bookings.reservations, { classPlans, classIds, creditIds, cid });
  await seedWaitlistsAndPenalty(tx, rng, clock, classPlans, bookings, bought.purchases, { classIds, cid });
  await seedAccountExtras(tx, clock, bookings.community, { cid, videos, discounts });

  return {
    customers: customers.length,
    singleClasses: classPlans.length,
    reservations: bookings.reservations.length,
    packages: packageKeys.length,
    videos: videos.length,
  };
}

/** The seed's clock: its now, today on the studio's calendar, and days relative to it. */
interface SeedClock {
  now: Dayjs;
  today: string;
  date: (offsetDays: number) => string;
  ago: (days: number, time?: string) => Dayjs;
}

type CustomerId = (index: number) => number;
type Catalogue = Awaited<ReturnType<typeof seedCatalogue>>;
type Packages = Awaited<ReturnType<typeof seedPackages>>;

/** The demo accounts' indexes among the customers (buildCustomers puts them first). */
const accountIndex = { cliente: 0, nuevo: 1, ilimitado: 2, recepcion: 3, admin: 4 } as const;
/** The generated community starts after the demo accounts. */
const generatedStart = 5;

interface ClassPlan {
  row: typeof s.single_class.$inferInsert;
  typeIndex: number;
  start: Dayjs;
  instructors: number[];
  tags: number[];
  target: number;
}

interface ReservationPlan {
  classIndex: number;
  customerIndex: number;
  credit: number | null;
  spot: number | null;
  guest: string | null;
  attend: boolean;
  isCash: boolean;
  classStars: number | null;
  coachStars: number | null;
  comment: string | null;
  deleted: Dayjs | null;
  /** Only for cancelled bookings: false when cancelled too late to get the credit back. */
  creditReturned?: boolean;
  createdAt: Dayjs;
}

/** Customers (the demo accounts first, then the generated community), their sign-ins, addresses and accepted pages. */
async function seedCustomers(tx: Tx, rng: Random, { ago }: SeedClock, passwordHash: string, requiredPageIds: readonly number[]) {
  // Customers: the demo accounts first, then the generated community.
  const customers = buildCustomers(rng, ago);
  const customerIds = (
    await tx
      .insert(s.customer)
      .values(customers.map((c) => c.row))
      .returning({ id: s.customer.customer_id })
  ).map((r) => r.id);
  const cid = (index: number) => customerIds[index] as number;
  await tx.insert(s.auth_user).values(
    customers.map((c) => ({
      uid: c.row.uid as string,
      email: c.row.email,
      password_hash: passwordHash,
      createdAt: c.row.createdAt,
    })),
  );
  const addressRows = customers.flatMap((c, i) => (c.address ? [{ ...c.address, customer_id: cid(i) }] : []));
  await tx.insert(s.address).values(addressRows);
  await tx.execute(
    sql`update ${s.customer} set address_id = a.address_id from ${s.address} a where a.customer_id = ${s.customer.customer_id}`,
  );
  await tx.insert(s.accepted_page).values(
    customers.flatMap((c, i) =>
      c.acceptedTerms ? requiredPageIds.map((page_id) => ({ page_id, customer_id: cid(i), createdAt: c.row.createdAt })) : [],
    ),
  );
  // The demo's customers said yes to the optional messages when they signed up (decision 120).
  await tx.insert(s.message_preference).values(
    customers.map((c, i) => ({
      customer_id: cid(i),
      email_enabled: true,
      whatsapp_enabled: true,
      optional_consent_at: c.row.createdAt,
      stop_token: randomBytes(24).toString('base64url'),
      calendar_token: randomBytes(24).toString('base64url'),
    })),
  );
  return { customers, cid };
}

/** The schedule from last week to two weeks ahead, on the studio's clock, with the special event; each class's target fill. */
async function seedSchedule(
  tx: Tx,
  rng: Random,
  { date }: SeedClock,
  { locations, classTypes, instructors, classTags, eventDate, packageId }: Pick<Catalogue, 'locations' | 'classTypes' | 'instructors' | 'classTags'> & Pick<Packages, 'eventDate' | 'packageId'>,
) {
  // Schedule: last week through the next two weeks, in Mexico City time.
  const classPlans: ClassPlan[] = [];
  const coachTurn = new Map<number, number>();
  for (let offset = -7; offset <= 13; offset++) {
    const day = date(offset);
    const weekday = dayjs.utc(day).day();
    for (const [time, typeIndex, locationIndex] of weeklySlots[weekday] ?? []) {
      const type = content.classTypes[typeIndex];
      if (!type) continue;
      const coaches = content.instructors.flatMap((c, i) => ((c.types as readonly number[]).includes(typeIndex) ? [i] : []));
      const turn = coachTurn.get(typeIndex) ?? 0;
      coachTurn.set(typeIndex, turn + 1);
      const coach = coaches[turn % coaches.length] ?? 0;
      const start = at(day, time);
      const n = classPlans.length;
      const tags: number[] = [];
      if (typeIndex === 0 && time === '09:00') tags.push(0);
      if (typeIndex === 2 && time === '19:00') tags.push(1);
      if (typeIndex === 3 && weekday === 6) tags.push(2);
      // Every sixth class sells out; the rest fill as real studios do: mornings and evenings busier.
      const full = n % 6 === 2;
      const busy = time === '07:00' || time === '19:00';
      const fraction = full ? 1 : busy ? 0.45 + rng.next() * 0.4 : 0.15 + rng.next() * 0.45;
      const target = Math.min(type.capacity, Math.round(type.capacity * fraction));
      classPlans.push({
        row: {
          class_date: start.toDate(),
          duration_minutes: type.duration,
          description: classDescription(typeIndex, time),
          capacity: type.capacity,
          location_id: idAt(locations, locationIndex),
          class_type_id: idAt(classTypes, typeIndex),
        },
        typeIndex,
        start,
        instructors: weekday === 6 && typeIndex === 0 ? [coach, 4] : [coach],
        tags,
        target,
      });
    }
  }
  classPlans.push({
    row: {
      class_date: eventDate.toDate(),
      duration_minutes: 90,
      description: 'Masterclass Sunset Yoga: práctica al atardecer con música en vivo. Solo con el acceso del evento especial.',
      capacity: 30,
      location_id: idAt(locations, 1),
      class_type_id: idAt(classTypes, 0),
      class_package_id: packageId.event,
      icon: 'sunset',
    },
    typeIndex: 0,
    start: eventDate,
    instructors: [0],
    tags: [2],
    target: 0,
  });
  const classIds = (
    await tx
      .insert(s.single_class)
      .values(classPlans.map((c) => c.row))
      .returning({ id: s.single_class.single_class_id })
  ).map((r) => r.id);
  await tx.insert(s.single_class_instructor).values(
    classPlans.flatMap((c, i) =>
      [...new Set(c.instructors)].map((k) => ({ single_class_id: classIds[i] as number, instructor_id: idAt(instructors, k) })),
    ),
  );
  await tx
    .insert(s.single_class_tag)
    .values(classPlans.flatMap((c, i) => c.tags.map((t) => ({ single_class_id: classIds[i] as number, tag_id: idAt(classTags, t) }))));
  return { classPlans, classIds };
}

/** What each customer bought and the credits it gave (inserted later, once the bookings have drawn on them). */
function planPurchases(rng: Random, { now, ago }: SeedClock, customerCount: number, packageRows: Packages['packageRows']) {
  // Purchases and credits
  const purchases: PurchasePlan[] = [];
  const credits: CreditPlan[] = [];
  const addPurchase = (plan: PurchasePlan, classTypeIndex: number | null = null) => {
    purchases.push(plan);
    const pkg = packageRows[plan.pkg];
    const amount = pkg.class_amount ?? 0;
    if (amount === 0) return;
    const periodStart = plan.createdAt.add(plan.periods - 1, 'month');
    credits.push({
      customerIndex: plan.customerIndex,
      purchaseIndex: purchases.length - 1,
      classTypeIndex,
      remaining: amount,
      validFrom: pkg.is_subscription ? periodStart : plan.createdAt,
      expires: plan.expiration ?? plan.createdAt.add(pkg.expiration_days ?? 30, 'day'),
      unlimited: amount === -1,
    });
  };
  addPurchase({
    customerIndex: accountIndex.cliente,
    pkg: 'ten',
    createdAt: ago(30, '08:12'),
    status: 'completed',
    paymentMethod: 1,
    periods: 1,
    expiration: ago(30, '08:12').add(60, 'day'),
  });
  const ilimitadoStart = ago(10, '18:40');
  addPurchase({
    customerIndex: accountIndex.ilimitado,
    pkg: 'unlimited',
    createdAt: ilimitadoStart,
    status: 'active',
    paymentMethod: 1,
    periods: 1,
    expiration: ilimitadoStart.add(1, 'month'),
  });
  for (let i = generatedStart; i < customerCount; i++) {
    const profile = (i - generatedStart) % 10;
    if (profile === 0) {
      const periods = rng.int(1, 4);
      const createdAt = ago(rng.int(8, 29) + (periods - 1) * 30, `${rng.int(7, 21)}:${rng.pick(['05', '20', '45'])}`);
      const cancelled = periods > 2 && rng.chance(0.2);
      addPurchase({
        customerIndex: i,
        pkg: 'unlimited',
        createdAt,
        status: cancelled ? 'cancelled' : 'active',
        paymentMethod: 1,
        periods,
        expiration: createdAt.add(periods, 'month'),
      });
    } else if (profile <= 6) {
      const pkg = rng.pick(['one', 'five', 'five', 'ten', 'ten'] as const);
      const createdAt = ago(pkg === 'one' ? rng.int(8, 25) : rng.int(8, 45), `${rng.int(7, 21)}:${rng.pick(['10', '30', '50'])}`);
      addPurchase({
        customerIndex: i,
        pkg,
        createdAt,
        status: 'completed',
        paymentMethod: rng.chance(0.8) ? 1 : 2,
        periods: 1,
        expiration: null,
      });
    } else if (profile === 7) {
      addPurchase({
        customerIndex: i,
        pkg: 'trial',
        createdAt: ago(rng.int(8, 14), '10:00'),
        status: 'completed',
        paymentMethod: 1,
        periods: 1,
        expiration: null,
      });
    }
    if ((i - generatedStart) % 25 === 3) {
      const createdAt = ago(rng.int(10, 60), '21:15');
      const periods = Math.floor(now.diff(createdAt, 'day') / 30) + 1;
      addPurchase({
        customerIndex: i,
        pkg: 'online',
        createdAt,
        status: 'active',
        paymentMethod: 1,
        periods,
        expiration: createdAt.add(periods, 'month'),
      });
    }
    if ((i - generatedStart) % 40 === 5) {
      addPurchase(
        { customerIndex: i, pkg: 'event', createdAt: ago(rng.int(1, 6), '13:00'), status: 'completed', paymentMethod: 1, periods: 1, expiration: null },
        0,
      );
    }
    if ((i - generatedStart) % 8 === 1) {
      addPurchase({
        customerIndex: i,
        pkg: 'signup',
        createdAt: ago(rng.int(46, 120), '11:00'),
        status: 'completed',
        paymentMethod: 2,
        periods: 1,
        expiration: null,
      });
    }
  }

  // The unlimited demo member also streams: an online membership in its second month.
  // Added after the community so the generated purchases keep their numbering.
  const onlineStart = ago(40, '07:30');
  addPurchase({
    customerIndex: accountIndex.ilimitado,
    pkg: 'online',
    createdAt: onlineStart,
    status: 'active',
    paymentMethod: 1,
    periods: 2,
    expiration: onlineStart.add(2, 'month'),
  });
  return { purchases, credits, ilimitadoStart };
}

type PurchasePlans = ReturnType<typeof planPurchases>;

/** Bookings: the demo accounts' first, then the community fills each class; guests, cash and cancellations. */
function planReservations(rng: Random, { now, today }: SeedClock, classPlans: ClassPlan[], { purchases, credits, ilimitadoStart }: PurchasePlans, customerCount: number) {
  // Reservations: the demo accounts' first, then the community fills each class.
  const reservations: ReservationPlan[] = [];
  const takenSpots = classPlans.map(() => new Set<number>());
  const booked = classPlans.map(() => new Set<number>());
  const liveCount = classPlans.map(() => 0);
  const spotsOf = (classIndex: number): number[] => {
    const plan = classPlans[classIndex];
    const map = plan ? content.classTypes[plan.typeIndex]?.spot_map : null;
    if (!map || !plan) return [];
    const total = map.split(',').reduce((sum, n) => sum + Number(n), 0);
    return Array.from({ length: total }, (_, k) => k + 1).filter((k) => !takenSpots[classIndex]?.has(k));
  };
  const creditsByCustomer = new Map<number, number[]>();
  credits.forEach((c, k) => creditsByCustomer.set(c.customerIndex, [...(creditsByCustomer.get(c.customerIndex) ?? []), k]));
  const findCredit = (customerIndex: number, classIndex: number): number | null => {
    const plan = classPlans[classIndex];
    if (!plan) return null;
    let best: number | null = null;
    for (const k of creditsByCustomer.get(customerIndex) ?? []) {
      const c = credits[k] as CreditPlan;
      if (!c.unlimited && c.remaining <= 0) continue;
      if (c.classTypeIndex !== null && c.classTypeIndex !== plan.typeIndex) continue;
      if (plan.start.isBefore(c.validFrom) || plan.start.isAfter(c.expires)) continue;
      // Special, package-only classes take only the event's credit.
      if (plan.row.class_package_id && purchases[c.purchaseIndex]?.pkg !== 'event') continue;
      if (!plan.row.class_package_id && purchases[c.purchaseIndex]?.pkg === 'event') continue;
      const current = best === null ? undefined : credits[best];
      if (!current || c.expires.isBefore(current.expires)) best = k;
    }
    return best;
  };
  const book = (classIndex: number, customerIndex: number, extra: Partial<ReservationPlan> = {}): boolean => {
    const plan = classPlans[classIndex];
    if (!plan || booked[classIndex]?.has(customerIndex) || (liveCount[classIndex] ?? 0) >= (plan.row.capacity ?? 0)) return false;
    const credit = findCredit(customerIndex, classIndex);
    if (credit === null) return false;
    const c = credits[credit] as CreditPlan;
    if (!c.unlimited) c.remaining -= 1;
    const free = spotsOf(classIndex);
    const spot = extra.spot ?? (free.length ? rng.pick(free) : null);
    if (spot !== null) takenSpots[classIndex]?.add(spot);
    booked[classIndex]?.add(customerIndex);
    liveCount[classIndex] = (liveCount[classIndex] ?? 0) + 1;
    const past = plan.start.isBefore(now);
    const attend = past && rng.chance(0.88);
    const rated = attend && rng.chance(0.4);
    const wish = plan.start.subtract(rng.int(3, 120), 'hour');
    const bookedAt = wish.isBefore(c.validFrom) ? c.validFrom.add(1, 'minute') : wish;
    reservations.push({
      classIndex,
      customerIndex,
      credit,
      spot,
      guest: null,
      attend,
      isCash: false,
      classStars: rated ? rng.pick([4, 5, 5, 5, 3]) : null,
      coachStars: rated ? rng.pick([5, 5, 4]) : null,
      comment: rated && rng.chance(0.5) ? rng.pick(reviewComments) : null,
      deleted: null,
      createdAt: bookedAt.isAfter(now) ? now.subtract(1, 'hour') : bookedAt,
      ...extra,
    });
    return true;
  };
  const firstClass = (predicate: (c: ClassPlan, i: number) => boolean): number => {
    const index = classPlans.findIndex(predicate);
    if (index < 0) throw new Error('demo schedule has no class for a demo account');
    return index;
  };
  const notFull = (c: ClassPlan) => c.target < (c.row.capacity ?? 0);
  const clientePast = firstClass((c) => c.typeIndex === 0 && c.start.isBefore(now.subtract(2, 'day')) && notFull(c));
  book(clientePast, accountIndex.cliente, { attend: true, classStars: null, coachStars: null, comment: null });
  const clienteNext = firstClass((c) => c.typeIndex === 2 && c.start.isAfter(now.add(1, 'day')) && notFull(c));
  book(clienteNext, accountIndex.cliente, { spot: 5, attend: false });
  // The front desk's demo: she also comes to a class today, so her Código de Acceso scans at the desk.
  // Booked by the studio (no credit, so her ledger below stays as it is), on the first free seat, drawing
  // nothing from the random sequence so the rest of the demo data is unchanged.
  // Any class of today will do (on Sundays there is one): the community fill below counts her among its places.
  const clienteToday = classPlans.findIndex(
    (c, i) => c.start.format('YYYY-MM-DD') === today && !c.row.class_package_id && (liveCount[i] ?? 0) < (c.row.capacity ?? 0),
  );
  if (clienteToday >= 0) {
    const spot = spotsOf(clienteToday)[0] ?? null;
    if (spot !== null) takenSpots[clienteToday]?.add(spot);
    booked[clienteToday]?.add(accountIndex.cliente);
    liveCount[clienteToday] = (liveCount[clienteToday] ?? 0) + 1;
    reservations.push({
      classIndex: clienteToday,
      customerIndex: accountIndex.cliente,
      credit: null,
      spot,
      guest: null,
      attend: false,
      isCash: false,
      classStars: null,
      coachStars: null,
      comment: null,
      deleted: null,
      createdAt: now.subtract(1, 'day'),
    });
  }
  // Her ledger adds up: 10 classes bought, 2 booked, 3 cancelled too late to get
  // the credit back, 5 left.
  const clienteLate = classPlans
    .map((c, i) => ({ c, i }))
    .filter(({ c, i }) => c.start.isBefore(now.subtract(1, 'day')) && c.start.isAfter(now.subtract(7, 'day')) && notFull(c) && i !== clientePast && !c.row.class_package_id)
    .slice(0, 3);
  for (const { c, i } of clienteLate) {
    const before = reservations.length;
    if (!book(i, accountIndex.cliente, { spot: null, attend: false })) continue;
    const r = reservations[before] as ReservationPlan;
    r.deleted = c.start.subtract(2, 'hour');
    r.creditReturned = false;
    booked[i]?.delete(accountIndex.cliente);
    liveCount[i] = (liveCount[i] ?? 1) - 1;
  }
  const ilimitadoPast = firstClass((c) => c.typeIndex === 3 && c.start.isBefore(now.subtract(1, 'day')) && c.start.isAfter(ilimitadoStart) && notFull(c));
  book(ilimitadoPast, accountIndex.ilimitado, { attend: true, classStars: 5, coachStars: 5, comment: '¡Fer es la mejor!' });
  const ilimitadoNext = firstClass((c) => c.typeIndex === 1 && c.start.isAfter(now.add(1, 'day')) && notFull(c));
  book(ilimitadoNext, accountIndex.ilimitado, { attend: false });

  const community = Array.from({ length: customerCount - generatedStart }, (_, k) => k + generatedStart);
  classPlans.forEach((plan, classIndex) => {
    const wanted = plan.row.class_package_id ? Number.POSITIVE_INFINITY : plan.target;
    for (const customerIndex of rng.shuffle(community)) {
      if ((liveCount[classIndex] ?? 0) >= wanted) break;
      book(classIndex, customerIndex);
    }
  });
  // A few guests, cash bookings and cancellations, as the front desk sees every week.
  // A guest takes a place too, so one is added only where a place is left (the booking service would refuse
  // the rest); the name is drawn either way, so the random sequence and everything after it stay as they were.
  const guestsOf = classPlans.map(() => 0);
  reservations.forEach((r, k) => {
    if (r.customerIndex < generatedStart) return;
    const plan = classPlans[r.classIndex];
    if (k % 23 === 4) {
      const guest = rng.pick(guestNames);
      const placesTaken = (liveCount[r.classIndex] ?? 0) + (guestsOf[r.classIndex] ?? 0);
      if (r.deleted || placesTaken < (plan?.row.capacity ?? 0)) {
        r.guest = guest;
        if (!r.deleted) guestsOf[r.classIndex] = (guestsOf[r.classIndex] ?? 0) + 1;
      }
    }
    if (k % 41 === 7 && plan && plan.start.isAfter(now)) {
      // Paid at the desk in cash: no credit was used.
      r.isCash = true;
      const c = credits[r.credit ?? -1];
      if (c && !c.unlimited) c.remaining += 1;
      r.credit = null;
    }
  });
  classPlans.forEach((plan, classIndex) => {
    if (plan.target >= (plan.row.capacity ?? 0) || plan.row.class_package_id) return;
    if (classIndex % 4 !== 1) return;
    const customerIndex = community.find((i) => !booked[classIndex]?.has(i) && findCredit(i, classIndex) !== null);
    if (customerIndex === undefined) return;
    const before = reservations.length;
    if (book(classIndex, customerIndex)) {
      const r = reservations[before] as ReservationPlan;
      // Cancelled in time: the seat and the credit went back.
      r.deleted = r.createdAt.add(2, 'hour');
      r.attend = false;
      r.classStars = r.coachStars = null;
      r.comment = null;
      if (r.spot !== null) takenSpots[classIndex]?.delete(r.spot);
      booked[classIndex]?.delete(customerIndex);
      liveCount[classIndex] = (liveCount[classIndex] ?? 1) - 1;
      const c = credits[r.credit ?? -1];
      if (c && !c.unlimited) c.remaining += 1;
    }
  });
  return { reservations, liveCount, booked, community };
}

type ReservationPlans = ReturnType<typeof planReservations>;

/** Purchases, their invoices and credits (with what the bookings left of them); unlimited members' expiry. */
async function insertPurchases(
  tx: Tx,
  rng: Random,
  { now }: SeedClock,
  { purchases, credits }: PurchasePlans,
  { packageRows, packageId, classTypes, cid }: Pick<Packages, 'packageRows' | 'packageId'> & Pick<Catalogue, 'classTypes'> & { cid: CustomerId },
) {
  // Insert purchases, invoices, credits, then the reservations that point at them.
  const purchaseIds = (
    await tx
      .insert(s.purchase)
      .values(
        purchases.map((p, k) => {
          const pkg = packageRows[p.pkg];
          const total = p.pkg === 'online' && p.periods === 1 && pkg.free_trial_length ? '0.00' : (pkg.sale_price ?? pkg.price);
          return {
            customer_id: cid(p.customerIndex),
            class_package_id: packageId[p.pkg],
            payment_method_id: p.paymentMethod,
            title: pkg.title,
            amount: pkg.price,
            total_payment: total,
            class_amount: pkg.class_amount ?? 0,
            expiration_days: pkg.expiration_days ?? null,
            status: p.status,
            subscription_id: pkg.is_subscription ? `sub_demo_${String(k + 1).padStart(4, '0')}` : null,
            subscription_interval: pkg.subscription_interval ?? null,
            subscription_period: pkg.subscription_period ?? null,
            free_trial_length: pkg.free_trial_length ?? null,
            provider: p.paymentMethod === 2 ? 'cash' : 'sandbox',
            provider_payment_id: p.paymentMethod === 2 ? null : `pi_demo_${String(k + 1).padStart(5, '0')}`,
            expiration_date: (p.expiration ?? (pkg.expiration_days ? p.createdAt.add(pkg.expiration_days, 'day') : null))?.toDate() ?? null,
            cancel_reason: p.status === 'cancelled' ? 'Me mudé de ciudad' : null,
            cancelledAt: p.status === 'cancelled' ? now.subtract(rng.int(1, 7), 'day').toDate() : null,
            // Every demo purchase was paid when it was made (its first invoice).
            paidAt: p.createdAt.toDate(),
            createdAt: p.createdAt.toDate(),
            updatedAt: p.createdAt.toDate(),
          };
        }),
      )
      .returning({ id: s.purchase.purchase_id })
  ).map((r) => r.id);
  await tx.insert(s.invoice).values(
    purchases.flatMap((p, k) => {
      const pkg = packageRows[p.pkg];
      return Array.from({ length: p.periods }, (_, period) => {
        const start = p.createdAt.add(period, 'month');
        const trial = p.pkg === 'online' && period === 0 && pkg.free_trial_length;
        return {
          purchase_id: purchaseIds[k] as number,
          customer_id: cid(p.customerIndex),
          total_payment: trial ? '0.00' : (pkg.sale_price ?? pkg.price),
          status: 'completed' as const,
          period_start: pkg.is_subscription ? start.toDate() : null,
          period_end: pkg.is_subscription ? start.add(1, 'month').toDate() : null,
          paidAt: start.toDate(),
          createdAt: start.toDate(),
          updatedAt: start.toDate(),
        };
      });
    }),
  );
  const creditIds = (
    await tx
      .insert(s.available_classes)
      .values(
        credits.map((c) => ({
          customer_id: cid(c.customerIndex),
          purchase_id: purchaseIds[c.purchaseIndex] as number,
          class_type_id: c.classTypeIndex === null ? null : idAt(classTypes, c.classTypeIndex),
          available_classes: c.unlimited ? -1 : c.remaining,
          expiration_date: c.expires.toDate(),
          createdAt: c.validFrom.toDate(),
          updatedAt: c.validFrom.toDate(),
        })),
      )
      .returning({ id: s.available_classes.available_class_id })
  ).map((r) => r.id);
  // Unlimited members' expiry is the end of their current paid period.
  await tx.execute(sql`update ${s.customer} set unlimited_membership_expiration = u.expires
    from (select customer_id, max(expiration_date) as expires from ${s.available_classes}
          where available_classes = -1 group by customer_id) u
    where u.customer_id = ${s.customer.customer_id} and ${s.customer.has_unlimited}`);
  return { creditIds };
}

async function insertReservations(
  tx: Tx,
  rng: Random,
  reservations: ReservationPlan[],
  { classPlans, classIds, creditIds, cid }: { classPlans: ClassPlan[]; classIds: number[]; creditIds: number[]; cid: CustomerId },
) {
  const reservationRows: NewReservation[] = reservations.map((r) => {
    const plan = classPlans[r.classIndex] as ClassPlan;
    return {
      single_class_id: classIds[r.classIndex] as number,
      customer_id: cid(r.customerIndex),
      available_class_id: r.isCash || r.credit === null ? null : (creditIds[r.credit] ?? null),
      spot: r.spot,
      guest: r.guest,
      attend: r.attend,
      attendedAt: r.attend ? plan.start.subtract(rng.int(2, 12), 'minute').toDate() : null,
      is_cash: r.isCash,
      is_paid: !r.isCash,
      class_stars: r.classStars,
      coach_stars: r.coachStars,
      comment: r.comment,
      ratedAt: r.classStars ? plan.start.add(rng.int(2, 30), 'hour').toDate() : null,
      credit_returned: r.deleted ? (r.creditReturned ?? true) : null,
      createdAt: r.createdAt.toDate(),
      updatedAt: (r.deleted ?? r.createdAt).toDate(),
      deletedAt: r.deleted?.toDate() ?? null,
    };
  });
  await tx.insert(s.class_reservation).values(reservationRows);
}

/** Waitlists on the upcoming full classes, and an unlimited member who missed three classes in a row. */
async function seedWaitlistsAndPenalty(
  tx: Tx,
  rng: Random,
  { now }: SeedClock,
  classPlans: ClassPlan[],
  { liveCount, booked, community }: ReservationPlans,
  purchases: PurchasePlan[],
  { classIds, cid }: { classIds: number[]; cid: CustomerId },
) {
  // Waitlists on the upcoming full classes.
  const waitlistRows: (typeof s.waitlist.$inferInsert)[] = [];
  classPlans.forEach((plan, classIndex) => {
    if (!plan.start.isAfter(now) || (liveCount[classIndex] ?? 0) < (plan.row.capacity ?? 0)) return;
    const waiting = rng.shuffle(community).filter((i) => !booked[classIndex]?.has(i)).slice(0, 2 + (classIndex % 2));
    for (const customerIndex of waiting) {
      waitlistRows.push({
        single_class_id: classIds[classIndex] as number,
        customer_id: cid(customerIndex),
        createdAt: now.subtract(rng.int(1, 48), 'hour').toDate(),
      });
    }
  });
  if (waitlistRows.length) await tx.insert(s.waitlist).values(waitlistRows);

  // An unlimited member who missed three classes in a row.
  const penalized = community.find((i) => (i - generatedStart) % 10 === 0 && purchases.some((p) => p.customerIndex === i && p.status === 'active'));
  if (penalized !== undefined) {
    await tx.insert(s.class_reservation_penalty).values({
      customer_id: cid(penalized),
      start_date: now.subtract(1, 'day').toDate(),
      end_date: now.add(2, 'day').toDate(),
      no_shows: 3,
      reason: 'Tres inasistencias consecutivas con membresía ilimitada',
    });
  }
}

/** Video activity, the first-class answers, saved cards, a used-up code's redemptions and a welcome e-mail. */
async function seedAccountExtras(
  tx: Tx,
  { now, ago }: SeedClock,
  community: number[],
  { cid, videos, discounts }: { cid: CustomerId; videos: Awaited<ReturnType<typeof seedVideos>>['videos']; discounts: Awaited<ReturnType<typeof seedDiscounts>>['discounts'] },
) {
  // Video activity of the demo client and the community.
  await tx.insert(s.favorite).values([
    { customer_id: cid(accountIndex.cliente), video_id: idAt(videos, 0) },
    { customer_id: cid(accountIndex.cliente), video_id: idAt(videos, 9) },
    { customer_id: cid(accountIndex.cliente), video_id: idAt(videos, 12) },
    { customer_id: cid(accountIndex.ilimitado), video_id: idAt(videos, 16) },
    ...community.slice(0, 30).map((i) => ({ customer_id: cid(i), video_id: idAt(videos, i % videos.length) })),
  ]);
  await tx.insert(s.playback).values([
    { customer_id: cid(accountIndex.cliente), video_id: idAt(videos, 0), completed: true, completedAt: ago(6).toDate(), progress: 2700, stars: 5 },
    { customer_id: cid(accountIndex.cliente), video_id: idAt(videos, 1), completed: true, completedAt: ago(4).toDate(), progress: 1200 },
    { customer_id: cid(accountIndex.cliente), video_id: idAt(videos, 9), completed: false, progress: 600 },
    ...community.slice(10, 50).map((i) => ({
      customer_id: cid(i),
      video_id: idAt(videos, (i * 7) % videos.length),
      completed: i % 3 !== 0,
      completedAt: i % 3 !== 0 ? ago(i % 20).toDate() : null,
      progress: 300 + (i % 10) * 120,
      stars: i % 4 === 0 ? 4 + (i % 2) : null,
    })),
  ]);

  // The demo accounts answered "Antes de tu primera clase" when they first booked (Mariana with her consent to the
  // health note); the community did not, so a community member is asked before booking from the portal.
  const consented = ago(30, '08:20').toDate();
  await tx.insert(s.customer_field_value).values([
    { customer_id: cid(accountIndex.cliente), key: 'emergency_contact', value: 'Jorge López (esposo) 55 1234 0099', updatedAt: consented },
    { customer_id: cid(accountIndex.cliente), key: 'health_notes', value: 'Lesión antigua de rodilla derecha: evito saltos.', consented_at: consented, updatedAt: consented },
    ...[accountIndex.ilimitado, accountIndex.recepcion, accountIndex.admin].flatMap((i) => [
      { customer_id: cid(i), key: 'emergency_contact', value: null, updatedAt: consented },
      { customer_id: cid(i), key: 'health_notes', value: null, updatedAt: consented },
    ]),
  ]);

  // What the desk knows about two regulars: an alert shown at every scan, a health note (hers and her coach's to read)
  // and a preference. Not on the demo accounts: their scans stay as the walkthroughs describe them.
  await tx.insert(s.customer_note).values([
    { customer_id: cid(community[3]!), kind: 'alert', body: 'Debe $150 de una clase suelta del sábado: cobrar antes de pasar.', created_by: cid(accountIndex.recepcion), createdAt: ago(3, '09:10').toDate() },
    { customer_id: cid(community[5]!), kind: 'health', body: 'Embarazo de 5 meses: sin abdominales boca abajo.', created_by: cid(accountIndex.admin), createdAt: ago(12, '18:40').toDate() },
    { customer_id: cid(community[5]!), kind: 'note', body: 'Prefiere el lugar junto a la ventana.', created_by: cid(accountIndex.recepcion), createdAt: ago(20, '07:05').toDate() },
  ]);

  await tx.insert(s.payment_source).values([
    { customer_id: cid(accountIndex.cliente), provider: 'sandbox', source_id: 'pm_demo_visa_4242', card_type: 'visa', last_digits: '4242', exp_month: 12, exp_year: now.year() + 3, is_default: true },
    { customer_id: cid(accountIndex.ilimitado), provider: 'sandbox', source_id: 'pm_demo_mc_4444', card_type: 'mastercard', last_digits: '4444', exp_month: 8, exp_year: now.year() + 2, is_default: true },
  ]);
  // The exhausted code's 25 redemptions.
  await tx.insert(s.discount_use).values(
    community.slice(0, 25).map((i) => ({ discount_id: idAt(discounts, 3), customer_id: cid(i), createdAt: ago(60 + (i % 5)).toDate() })),
  );
  await tx.insert(s.outbox_message).values({
    channel: 'email',
    recipient: demoAccounts.cliente.email,
    subject: '¡Bienvenida a Estudio Demo!',
    body: 'Hola Mariana, gracias por unirte a Estudio Demo. Ya puedes reservar tus clases desde tu cuenta.',
    status: 'sent',
    attempts: 1,
    createdAt: ago(30, '08:13').toDate(),
    sentAt: ago(30, '08:14').toDate(),
  });
}

/** The demo accounts and ~200 generated customers with Mexican names, unique e-mails and phones. */
function buildCustomers(rng: Random, ago: (days: number, time?: string) => Dayjs) {
  interface SeedCustomer {
    row: NewCustomer & { createdAt: Date };
    address: Omit<typeof s.address.$inferInsert, 'customer_id'> | null;
    acceptedTerms: boolean;
  }
  const out: SeedCustomer[] = [];
  const usedPhones = new Set<string>();
  const usedEmails = new Set<string>();
  const uid = () => rng.alnum(28);
  const phone = () => {
    for (;;) {
      const candidate = `${rng.pick(['55', '56', '55', '33', '81'])}${String(rng.int(0, 99_999_999)).padStart(8, '0')}`;
      if (!usedPhones.has(candidate)) {
        usedPhones.add(candidate);
        return candidate;
      }
    }
  };
  const cdmx = { city: 'Ciudad de México', state: 'CDMX', country: 'México' };

  const a = demoAccounts;
  out.push(
    {
      row: {
        uid: uid(),
        name: a.cliente.name,
        last_name: a.cliente.last_name,
        email: a.cliente.email,
        phone: '5512340001',
        instagram: '@marianalopez.fit',
        birthdate: '1992-04-18',
        signup_reason: 'Instagram',
        role: 'customer',
        createdAt: ago(45).toDate(),
      },
      address: { street: 'Calle Colima', number: '145', interior_number: '3', neighborhood: 'Roma Norte', zip_code: '06700', ...cdmx },
      acceptedTerms: true,
    },
    {
      row: {
        uid: uid(),
        name: a.nuevo.name,
        last_name: a.nuevo.last_name,
        email: a.nuevo.email,
        role: 'customer',
        createdAt: ago(1, '20:30').toDate(),
      },
      address: null,
      acceptedTerms: false,
    },
    {
      row: {
        uid: uid(),
        name: a.ilimitado.name,
        last_name: a.ilimitado.last_name,
        email: a.ilimitado.email,
        phone: '5512340002',
        instagram: '@sofiaramirez',
        birthdate: '1988-09-02',
        signup_reason: 'Recomendación de un amigo',
        role: 'customer',
        has_unlimited: true,
        unlimited_membership_expiration: ago(10, '18:40').add(1, 'month').toDate(),
        unlimited_max_no_shows_for_penalty: 3,
        createdAt: ago(200).toDate(),
      },
      address: { street: 'Av. México', number: '55', neighborhood: 'Condesa', zip_code: '06140', ...cdmx },
      acceptedTerms: true,
    },
    {
      row: {
        uid: uid(),
        name: a.recepcion.name,
        last_name: a.recepcion.last_name,
        email: a.recepcion.email,
        phone: '5512340003',
        birthdate: '1996-02-11',
        role: 'staff',
        createdAt: ago(400).toDate(),
      },
      address: null,
      acceptedTerms: true,
    },
    {
      row: {
        uid: uid(),
        name: a.admin.name,
        last_name: a.admin.last_name,
        email: a.admin.email,
        phone: '5512340004',
        birthdate: '1985-06-27',
        role: 'admin',
        createdAt: ago(700).toDate(),
      },
      address: null,
      acceptedTerms: true,
    },
  );
  for (const account of out) {
    usedEmails.add(account.row.email);
    if (account.row.phone) usedPhones.add(account.row.phone);
  }

  for (let i = 0; i < 200; i++) {
    const female = rng.chance(0.72);
    const name = female ? rng.pick(content.firstNamesFemale) : rng.pick(content.firstNamesMale);
    const first = rng.pick(content.lastNames);
    let second = rng.pick(content.lastNames);
    if (second === first) second = rng.pick(content.lastNames);
    const base = `${slug(name.split(' ')[0] ?? name)}.${slug(first)}`;
    let email = `${base}@correo.demo`;
    for (let n = 2; usedEmails.has(email); n++) email = `${base}${n}@correo.demo`;
    usedEmails.add(email);
    const complete = rng.chance(0.92);
    const reason = rng.pick(content.signupReasons);
    const profile = i % 10;
    const unlimited = profile === 0;
    const hood = rng.pick(content.neighborhoods);
    const createdAt = ago(rng.int(130, 700), `${rng.int(7, 22)}:${rng.pick(['00', '15', '30', '45'])}`);
    out.push({
      row: {
        uid: uid(),
        name,
        last_name: `${first} ${second}`,
        email,
        phone: phone(),
        instagram: rng.chance(0.55) ? `@${slug(name.split(' ')[0] ?? name)}${slug(first)}${rng.int(1, 99)}` : null,
        birthdate: complete ? `${rng.int(1970, 2004)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}` : null,
        signup_reason: reason,
        signup_reason_other: reason === 'Otro' ? rng.pick(content.otherSignupReasons) : null,
        role: 'customer',
        has_unlimited: unlimited,
        unlimited_max_no_shows_for_penalty: unlimited ? 3 : null,
        createdAt: createdAt.toDate(),
        updatedAt: createdAt.toDate(),
      },
      address: rng.chance(0.35)
        ? {
            street: hood.street,
            number: String(rng.int(1, 320)),
            interior_number: rng.chance(0.5) ? String(rng.int(1, 12)) : null,
            neighborhood: hood.neighborhood,
            zip_code: hood.zip_code,
            ...cdmx,
          }
        : null,
      acceptedTerms: rng.chance(0.93),
    });
  }
  return out;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

function classDescription(typeIndex: number, time: string): string {
  const early = time < '10:00';
  switch (typeIndex) {
    case 0:
      return early ? 'Vinyasa suave para empezar el día con energía.' : 'Vinyasa flow con cierre de relajación.';
    case 1:
      return 'Reformer en grupo reducido: core, postura y control.';
    case 2:
      return early ? 'Rodada mañanera de intervalos.' : 'Rodada nocturna con luces y la mejor playlist.';
    default:
      return 'Barre: tonifica piernas, glúteos y abdomen en la barra.';
  }
}
