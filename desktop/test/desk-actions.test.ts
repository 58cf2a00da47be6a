import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { available_classes, class_reservation, customer, waitlist } from '@estudio/db';
import { startTestServer, type TestServer } from '../../server/test/support/helpers.ts';
import { createBookers, newClass } from '../../server/test/support/reservations-fixtures.ts';
import { testSecret } from '../../server/test/support/helpers.ts';
import { DeskService } from '../src/service/desk-service.ts';
import { createServerCall } from '../src/service/server-proxy.ts';
import { syncDeps } from '../src/service/sync-deps.ts';

/**
 * Through the desk service against the real server over
 * HTTP: a first-time walk-in registered online and at once in the replica,
 * or in the replica first when the server cannot be reached, the cancellation
 * preview of the studio's rules, and a class's waitlist in order.
 */
let server: TestServer;
let serverUrl: string;
const dirs: string[] = [];
const desks: DeskService[] = [];
let desk: DeskService;
let n = 0;

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

async function openDesk(options: ConstructorParameters<typeof DeskService>[2] = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'desk-actions-'));
  dirs.push(dataDir);
  const d = new DeskService({ dataDir, serverUrl }, syncDeps, options);
  desks.push(d);
  await d.start();
  await d.signIn('recepcion@estudio.demo', 'Demo1234!');
  await until('first sync', () => d.status().ready && d.status().online, 60_000);
  return d;
}

const inReplica = async (d: DeskService, table: 'customer' | 'class_reservation' | 'waitlist', id: number) => {
  const rows =
    table === 'customer'
      ? await d.db.select().from(customer).where(eq(customer.customer_id, id))
      : table === 'waitlist'
        ? await d.db.select().from(waitlist).where(eq(waitlist.waitlist_id, id))
        : await d.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, id));
  return rows.length > 0;
};

beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  desk = await openDesk();
}, 120_000);

afterAll(async () => {
  for (const d of desks) await d.close();
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('a first-time walk-in at the desk', () => {
  it('lists the required documents, registers the customer online and has them in the replica at once', async () => {
    const docs = await desk.requiredDocuments();
    expect(docs.length).toBeGreaterThan(0);
    await expect(desk.createCustomer({ name: 'Ana', last_name: 'Sin Firmar', phone: '5511110001', email: 'ana.sinfirmar@prueba.mx', accepted_page_ids: [] })).rejects.toMatchObject({
      code: 'customer/documents-not-accepted',
      message: 'El cliente debe aceptar los documentos obligatorios del estudio.',
    });
    const { customer_id } = await desk.createCustomer({
      name: 'Ana',
      last_name: 'Mostrador',
      phone: '5511110002',
      email: 'ana.mostrador@prueba.mx',
      accepted_page_ids: docs.map((d) => d.page_id),
    });
    // No wait: createCustomer answers once the replica holds the customer.
    expect(await inReplica(desk, 'customer', customer_id)).toBe(true);
    expect((await desk.searchCustomers('0002')).map((h) => h.customer_id)).toContain(customer_id);
    await expect(
      desk.createCustomer({ name: 'Otra', last_name: 'Ana', phone: '5511110003', email: 'ANA.mostrador@prueba.mx', accepted_page_ids: docs.map((d) => d.page_id) }),
    ).rejects.toMatchObject({ code: 'customer/email-taken', message: 'Ya existe una cuenta con ese correo electrónico.' });
  });

  it('registers a walk-in in the replica when the server cannot be reached, sells to her, and follows her to the server\'s id', async () => {
    // The proxy's calls go to a closed port on loopback: what a desk sees with the internet down.
    const cut = await openDesk({ serverCall: createServerCall('http://127.0.0.1:9') });
    const docs = await cut.requiredDocuments();
    expect(docs.length).toBeGreaterThan(0);
    const registered = await cut.createCustomer({ name: 'Sin', last_name: 'Red', phone: '5511110004', email: 'sin.red@prueba.mx', accepted_page_ids: docs.map((d) => d.page_id) });
    expect(registered.offline).toBe(true);
    expect(registered.customer_id).toBeLessThan(0);
    expect((await cut.customerCard(registered.customer_id)).customer).toMatchObject({ name: 'Sin', last_name: 'Red' });
    expect((await cut.searchCustomers('sin red')).map((h) => h.customer_id)).toContain(registered.customer_id);
    const [pkg] = (await cut.accessOptions()).packages;
    const [cash] = (await cut.accessOptions()).paymentMethods.filter((m) => m.provider === 'cash');
    if (!pkg || !cash) throw new Error('no package or cash');
    await cut.mutate('sellAtDesk', {
      customer_id: registered.customer_id,
      packages: [{ class_package_id: pkg.class_package_id, package_days: null }],
      products: [],
      discount_code: null,
      payment_method_id: cash.payment_method_id,
      bill: false,
      terminal: null,
      cash_part: null,
    });
    await until('the server has her and her sale', async () => {
      const [row] = await server.db.select().from(customer).where(eq(customer.email, 'sin.red@prueba.mx'));
      return row !== undefined && (await cut.customerCard(registered.customer_id)).customer.customer_id === row.customer_id && (await cut.customerCard(row.customer_id)).purchases.length === 1;
    });
    expect(cut.status().adoptions).toEqual([]);
  });
});

describe('cancel preview and the waitlist, read from the replica', () => {
  it('says a late cancellation keeps the credit, and an early one gives it back', async () => {
    const [who] = await createBookers(server.db, testSecret, 1, { credits: 3, prefix: `desk-actions-${Date.now()}-${n++}` });
    if (!who) throw new Error('no booker');
    const late = await newClass(server.db, { minutesAhead: 60, capacity: 5 });
    const early = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 5 });
    const [a] = await server.db.insert(class_reservation).values({ single_class_id: late, customer_id: who.customer_id, available_class_id: who.available_class_id }).returning();
    const [b] = await server.db.insert(class_reservation).values({ single_class_id: early, customer_id: who.customer_id, available_class_id: who.available_class_id }).returning();
    if (!a || !b) throw new Error('no reservations');
    await until('the reservations reach the replica', async () => (await inReplica(desk, 'class_reservation', a.class_reservation_id)) && (await inReplica(desk, 'class_reservation', b.class_reservation_id)));
    expect(await desk.cancelPreview(a.class_reservation_id)).toMatchObject({ allowed: true, creditReturned: false, ruleText: expect.stringContaining('Faltan menos de 12 horas') });
    expect(await desk.cancelPreview(b.class_reservation_id)).toMatchObject({ allowed: true, creditReturned: true, ruleText: 'Cancela con tiempo: el crédito se le regresa.' });

    // Staff override with a reason: applied on the replica at once, on the server once.
    await desk.mutate('cancelReservation', { class_reservation_id: a.class_reservation_id, customer_id: who.customer_id, single_class_id: late, return_credit: true, reason: 'Lo autoriza la gerente' });
    await expect(desk.cancelPreview(a.class_reservation_id)).rejects.toMatchObject({ code: 'reservation/already-cancelled' });
    await until('the server has it', async () => {
      const [row] = await server.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, a.class_reservation_id));
      return row?.deletedAt !== null && row?.credit_returned === true;
    });
    const [credit] = await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, who.available_class_id));
    expect(credit).toMatchObject({ available_classes: 4, cancels_used: 0 });
  });

  it('lists a full class’s waitlist in the order people joined, with its free places', async () => {
    const people = await createBookers(server.db, testSecret, 3, { credits: 1, prefix: `desk-wait-${Date.now()}-${n++}` });
    const [first, second, third] = people;
    if (!first || !second || !third) throw new Error('no bookers');
    const full = await newClass(server.db, { minutesAhead: 120, capacity: 1 });
    const [r] = await server.db.insert(class_reservation).values({ single_class_id: full, customer_id: first.customer_id }).returning();
    if (!r) throw new Error('no reservation');
    const [waiting] = await server.db
      .insert(waitlist)
      .values({ single_class_id: full, customer_id: second.customer_id, createdAt: new Date(Date.now() - 60_000) })
      .returning();
    if (!waiting) throw new Error('no waitlist entry');
    // Two commits, which a busy machine may deliver in two pulls: wait for both.
    await until(
      'the reservation and the waiting customer reach the replica',
      async () => (await inReplica(desk, 'class_reservation', r.class_reservation_id)) && (await inReplica(desk, 'waitlist', waiting.waitlist_id)),
    );
    await desk.mutate('joinWaitlist', { customer_id: third.customer_id, single_class_id: full });
    const view = await desk.classWaitlist(full);
    expect(view).toMatchObject({ capacity: 1, taken: 1, free: 0 });
    expect(view.entries.map((e) => e.customer_id)).toEqual([second.customer_id, third.customer_id]);
    expect(view.entries.map((e) => e.has_credit)).toEqual([true, true]);
    expect((await desk.waitlistCounts())[full]).toBe(2);
    await until('the server has the new entry', async () => {
      const rows = await server.db.select().from(waitlist).where(and(eq(waitlist.single_class_id, full), eq(waitlist.customer_id, third.customer_id)));
      return rows.length === 1;
    });
    // A place frees on the server: the desk sees it, and promoting is the walk-in, which leaves the list.
    await server.db.update(class_reservation).set({ deletedAt: new Date() }).where(and(eq(class_reservation.class_reservation_id, r.class_reservation_id), isNull(class_reservation.deletedAt)));
    await until('the free place reaches the desk', async () => (await desk.classWaitlist(full)).free === 1);
    await desk.mutate('walkIn', { customer_id: second.customer_id, single_class_id: full, spot: null, guest: null });
    expect((await desk.classWaitlist(full)).entries.map((e) => e.customer_id)).toEqual([third.customer_id]);
    // Someone waiting whose classes are gone is flagged before staff give them a place the booking would refuse.
    await server.db.update(available_classes).set({ deletedAt: new Date() }).where(eq(available_classes.customer_id, third.customer_id));
    await until('the spent credits reach the desk', async () => (await desk.classWaitlist(full)).entries[0]?.has_credit === false);
  });
});
