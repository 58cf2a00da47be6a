import dayjs from 'dayjs';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  accepted_page,
  address,
  auth_user,
  available_classes,
  class_package,
  class_reservation,
  class_type,
  customer,
  demoAccounts,
  discount,
  instructor,
  invoice,
  isCheckViolation,
  isUniqueViolation,
  location,
  page,
  payment_method,
  purchase,
  single_class,
  video,
  waitlist,
} from '../src/index.ts';
import { verifyPassword } from '../src/password.ts';
import { createTestDb, type TestDb } from '../src/testing.ts';

let t: TestDb;
// Generous: without the global setup, the first test file builds the cached database itself.
beforeAll(async () => {
  t = await createTestDb();
}, 120_000);
afterAll(() => t?.close());

async function account(email: string) {
  const [row] = await t.db.select().from(customer).where(eq(customer.email, email));
  if (!row) throw new Error(`missing ${email}`);
  return row;
}

async function liveCredits(customerId: number) {
  return t.db
    .select()
    .from(available_classes)
    .where(and(eq(available_classes.customer_id, customerId), isNull(available_classes.deletedAt)));
}

describe('demo seed', () => {
  it('creates the catalogue of Estudio Demo', async () => {
    expect(await t.db.$count(location)).toBe(2);
    expect((await t.db.select({ name: class_type.name }).from(class_type)).map((r) => r.name)).toEqual([
      'Yoga',
      'Pilates Reformer',
      'Indoor Cycling',
      'Barre',
    ]);
    const [cycling] = await t.db.select().from(class_type).where(eq(class_type.name, 'Indoor Cycling'));
    expect(cycling?.spot_map).toBe('4,6,6');
    expect(await t.db.$count(instructor)).toBe(5);
    expect(await t.db.$count(class_package)).toBe(8);
    expect(await t.db.$count(video)).toBe(20);
    expect(await t.db.$count(payment_method)).toBe(3);
    const [card] = await t.db.select().from(payment_method).where(eq(payment_method.payment_method_id, 1));
    expect(card?.name).toBe('Tarjeta');
    const [terms] = await t.db.select().from(page).where(eq(page.slug, 'terminos-y-condiciones'));
    expect(terms?.required).toBe(true);
    expect(terms?.content).toContain('Términos y condiciones');
  });

  it('schedules about 60 classes from last week to two weeks ahead', async () => {
    const classes = await t.db.select({ class_date: single_class.class_date }).from(single_class);
    expect(classes.length).toBeGreaterThanOrEqual(55);
    expect(classes.length).toBeLessThanOrEqual(65);
    const dates = classes.map((c) => c.class_date.getTime());
    const now = Date.now();
    expect(Math.min(...dates)).toBeLessThan(dayjs(now).subtract(5, 'day').valueOf());
    expect(Math.max(...dates)).toBeGreaterThan(dayjs(now).add(12, 'day').valueOf());
  });

  it('has about 200 customers with unique e-mails and 10-digit phones', async () => {
    const rows = await t.db.select({ email: customer.email, phone: customer.phone }).from(customer);
    expect(rows.length).toBeGreaterThanOrEqual(195);
    expect(new Set(rows.map((r) => r.email)).size).toBe(rows.length);
    for (const r of rows) if (r.phone !== null) expect(r.phone).toMatch(/^\d{10}$/);
    expect(await t.db.$count(auth_user)).toBe(rows.length);
  });

  it('fills some classes to capacity, and every filled seat is unique', async () => {
    const counts = await t.db
      .select({
        id: single_class.single_class_id,
        capacity: single_class.capacity,
        live: sql<number>`count(${class_reservation.class_reservation_id})::int`,
      })
      .from(single_class)
      .leftJoin(
        class_reservation,
        and(eq(class_reservation.single_class_id, single_class.single_class_id), isNull(class_reservation.deletedAt)),
      )
      .groupBy(single_class.single_class_id);
    const full = counts.filter((c) => c.live === c.capacity);
    expect(full.length).toBeGreaterThanOrEqual(3);
    for (const c of counts) expect(c.live).toBeLessThanOrEqual(c.capacity);
    expect(counts.filter((c) => c.live > 0 && c.live < c.capacity).length).toBeGreaterThan(30);
    expect(await t.db.$count(waitlist)).toBeGreaterThan(0);
  });

  it('gives the demo accounts their roles, credits and reservations', async () => {
    const cliente = await account(demoAccounts.cliente.email);
    expect(cliente).toMatchObject({ name: 'Mariana', last_name: 'López', role: 'customer' });
    expect(cliente.phone).toMatch(/^\d{10}$/);
    expect(cliente.birthdate).not.toBeNull();
    expect(cliente.instagram).not.toBeNull();
    expect(cliente.address_id).not.toBeNull();
    const [home] = await t.db.select().from(address).where(eq(address.address_id, cliente.address_id ?? 0));
    expect(home?.city).toBe('Ciudad de México');
    const credits = await liveCredits(cliente.customer_id);
    expect(credits).toHaveLength(1);
    expect(credits[0]?.available_classes).toBe(5);
    const daysLeft = dayjs(credits[0]?.expiration_date).diff(dayjs(), 'day', true);
    expect(daysLeft).toBeGreaterThan(28);
    expect(daysLeft).toBeLessThan(31);
    const purchases = await t.db.select().from(purchase).where(eq(purchase.customer_id, cliente.customer_id));
    expect(purchases.map((p) => p.title)).toEqual(['10 Clases']);
    expect(await t.db.$count(invoice, eq(invoice.customer_id, cliente.customer_id))).toBe(1);
    const history = await t.db
      .select({ attend: class_reservation.attend, class_date: single_class.class_date, deletedAt: class_reservation.deletedAt, credit_returned: class_reservation.credit_returned, available_class_id: class_reservation.available_class_id })
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .where(eq(class_reservation.customer_id, cliente.customer_id));
    // 10 bought = 2 live bookings + 3 late cancellations that kept the credit + 5 left.
    const lateCancellations = history.filter((r) => r.deletedAt && r.credit_returned === false);
    expect(lateCancellations).toHaveLength(3);
    const reservations = history.filter((r) => !r.deletedAt && r.available_class_id !== null);
    expect(reservations).toHaveLength(2);
    // And a class today booked by the studio (no credit), for the front desk's check-in.
    const studioBooked = history.filter((r) => !r.deletedAt && r.available_class_id === null);
    expect(studioBooked).toHaveLength(1);
    expect(dayjs(studioBooked[0]?.class_date).tz('America/Mexico_City').format('YYYY-MM-DD')).toBe(dayjs().tz('America/Mexico_City').format('YYYY-MM-DD'));
    expect(reservations.filter((r) => r.class_date < new Date() && r.attend)).toHaveLength(1);
    expect(reservations.filter((r) => r.class_date > new Date() && !r.attend)).toHaveLength(1);
    const requiredPages = await t.db.$count(page, eq(page.required, true));
    expect(await t.db.$count(accepted_page, eq(accepted_page.customer_id, cliente.customer_id))).toBe(requiredPages);

    const nuevo = await account(demoAccounts.nuevo.email);
    expect(nuevo.phone).toBeNull();
    expect(nuevo.birthdate).toBeNull();
    expect(await liveCredits(nuevo.customer_id)).toHaveLength(0);
    expect(await t.db.$count(accepted_page, eq(accepted_page.customer_id, nuevo.customer_id))).toBe(0);

    const ilimitado = await account(demoAccounts.ilimitado.email);
    expect(ilimitado.has_unlimited).toBe(true);
    const expiresIn = dayjs(ilimitado.unlimited_membership_expiration).diff(dayjs(), 'day', true);
    expect(expiresIn).toBeGreaterThan(17);
    expect(expiresIn).toBeLessThan(23);
    const unlimited = await liveCredits(ilimitado.customer_id);
    expect(unlimited.map((c) => c.available_classes)).toEqual([-1]);
    const subscriptions = await t.db.select().from(purchase).where(eq(purchase.customer_id, ilimitado.customer_id)).orderBy(purchase.purchase_id);
    expect(subscriptions.map((p) => p.title)).toEqual(['Ilimitado Mensual', 'Online Mensual']);
    for (const subscription of subscriptions) {
      expect(subscription).toMatchObject({ status: 'active', subscription_period: 'month', subscription_interval: 1 });
      expect(subscription.subscription_id).toBeTruthy();
    }
    // The online membership (videos) runs past today.
    expect(subscriptions[1]?.expiration_date?.getTime()).toBeGreaterThan(Date.now());

    expect((await account(demoAccounts.recepcion.email)).role).toBe('staff');
    expect((await account(demoAccounts.admin.email)).role).toBe('admin');
  });

  it('stores one password hash that verifies Demo1234! for every demo identity', async () => {
    const hashes = new Set<string>();
    for (const a of Object.values(demoAccounts)) {
      const [identity] = await t.db.select().from(auth_user).where(eq(auth_user.email, a.email));
      expect(identity).toBeDefined();
      expect((await account(a.email)).uid).toBe(identity?.uid);
      hashes.add(identity?.password_hash ?? '');
    }
    expect(hashes.size).toBe(1);
    const [hash] = [...hashes];
    expect(await verifyPassword(demoAccounts.cliente.password, hash ?? '')).toBe(true);
    expect(await verifyPassword('demo1234!', hash ?? '')).toBe(false);
  });

  it('has the promised discount codes, one of them exhausted', async () => {
    const codes = await t.db.select().from(discount);
    const byCode = Object.fromEntries(codes.map((d) => [d.code, d]));
    expect(byCode.BIENVENIDA10).toMatchObject({ is_percent: true, amount: '10.00' });
    expect(byCode.VERANO200).toMatchObject({ is_percent: false, amount: '200.00' });
    expect(codes.some((d) => d.first_invoice_only)).toBe(true);
    expect(codes.some((d) => d.max_uses !== null && d.uses >= d.max_uses)).toBe(true);
  });

  it('loads a class with its type, location, coaches and reservations in one relational query', async () => {
    const cls = await t.db.query.single_class.findFirst({
      where: (c, { eq: equals }) => equals(c.class_type_id, 3),
      with: {
        class_type: true,
        location: true,
        class_instructors: { with: { instructor: { with: { file: true } } } },
        class_reservations: true,
      },
    });
    expect(cls?.class_type.name).toBe('Indoor Cycling');
    expect(cls?.location.address).toContain('Ciudad de México');
    expect(cls?.class_instructors[0]?.instructor.file?.src).toMatch(/^\/demo\/coaches\//);
    expect(cls?.class_reservations.length).toBeGreaterThan(0);
  });

  it('finds videos with Spanish full-text search', async () => {
    const found = await t.db
      .select({ name: video.name })
      .from(video)
      .where(sql`${video.search} @@ plainto_tsquery('spanish', 'respiración')`);
    expect(found.map((v) => v.name)).toContain('Respiración para la ansiedad');
  });
});

describe('database invariants', () => {
  it('rejects a second live reservation on a taken seat, and frees it on cancel', async () => {
    const [taken] = await t.db
      .select()
      .from(class_reservation)
      .where(and(sql`${class_reservation.spot} is not null`, isNull(class_reservation.deletedAt)))
      .limit(1);
    expect(taken).toBeDefined();
    const nuevo = await account(demoAccounts.nuevo.email);
    const again = { single_class_id: taken?.single_class_id ?? 0, customer_id: nuevo.customer_id, spot: taken?.spot ?? 0 };
    const err = await t.db.insert(class_reservation).values(again).catch((e: unknown) => e);
    expect(isUniqueViolation(err, 'class_reservation_spot_key')).toBe(true);

    await t.db.transaction(async (tx) => {
      await tx
        .update(class_reservation)
        .set({ deletedAt: new Date() })
        .where(eq(class_reservation.class_reservation_id, taken?.class_reservation_id ?? 0));
      const [row] = await tx.insert(class_reservation).values(again).returning();
      expect(row?.spot).toBe(taken?.spot);
      tx.rollback();
    }).catch((e: unknown) => {
      if (!(e instanceof Error) || !/rollback/i.test(e.message)) throw e;
    });
  });

  it('rejects a duplicate waitlist entry', async () => {
    const [entry] = await t.db.select().from(waitlist).limit(1);
    const err = await t.db
      .insert(waitlist)
      .values({ single_class_id: entry?.single_class_id ?? 0, customer_id: entry?.customer_id ?? 0 })
      .catch((e: unknown) => e);
    expect(isUniqueViolation(err, 'waitlist_class_customer_key')).toBe(true);
  });

  it('checks stars, capacity and credits', async () => {
    const [r] = await t.db.select().from(class_reservation).limit(1);
    const stars = await t.db
      .update(class_reservation)
      .set({ class_stars: 6 })
      .where(eq(class_reservation.class_reservation_id, r?.class_reservation_id ?? 0))
      .catch((e: unknown) => e);
    expect(isCheckViolation(stars, 'class_reservation_class_stars_check')).toBe(true);

    const capacity = await t.db
      .update(single_class)
      .set({ capacity: -1 })
      .where(eq(single_class.single_class_id, r?.single_class_id ?? 0))
      .catch((e: unknown) => e);
    expect(isCheckViolation(capacity, 'single_class_capacity_check')).toBe(true);

    const credit = await t.db
      .update(available_classes)
      .set({ available_classes: -2 })
      .catch((e: unknown) => e);
    expect(isCheckViolation(credit, 'available_classes_amount_check')).toBe(true);
  });
});
