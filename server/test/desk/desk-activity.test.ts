import { beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { call, login, rowsOf, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { createBookers, customerId, newClass } from '../support/reservations-fixtures.ts';
import { minutesAheadToday, newClientId, trpcMutation } from '../support/sync-helpers.ts';

/**
 * The owner sees who did what at the desk (both drivers): every staff action a
 * desk pushes that changes a customer's bookings, attendance, credits or money
 * writes one activity row with who, from which desk, when it happened at the
 * desk and when it reached the server. The shift of the report: a walk-in, a
 * booking with a guest, one made offline, a waitlist place given, and six
 * check-ins; then the cash collected for a booking and a purchase.
 */
let server: TestServer;
let admin: string;
let staff: string;
let staffId: number;

demoStudio(['admin', 'recepcion'], (s) => ({ server, tokens: { admin, recepcion: staff } } = s));
beforeAll(async () => {
  staffId = await customerId(server.db, 'recepcion@estudio.demo');
}, 60_000);

interface Entry {
  kind: string;
  text: string;
  at: string;
  staff: { customer_id: number } | null;
  customer: { customer_id: number } | null;
  desk: { id: string; occurred_at: string } | null;
}

async function activityOf(customer: number): Promise<Entry[]> {
  const res = await call(server.app, 'GET', `/api/activity?customer_id=${customer}`, { token: admin });
  expect(res.status, res.raw).toBe(200);
  return res.body.entries as Entry[];
}

describe('a shift at the desk, in the activity log', () => {
  it('walk-ins, a guest, an offline booking, a waitlist place and six check-ins each leave one row with the desk and its time', async () => {
    const desk = newClientId();
    const people = await createBookers(server.db, server.config.AUTH_SECRET, 6, { credits: 3, prefix: `turno-${Date.now()}` });
    const today = await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 10 });
    const oneSeat = await newClass(server.db, { minutesAhead: 3 * 60, capacity: 1 });
    const [a, b, c, d, e, f] = people as [typeof people[0], typeof people[0], typeof people[0], typeof people[0], typeof people[0], typeof people[0]];
    const offlineAt = new Date(Date.now() - 3 * 3600_000).toISOString();
    let id = 0;
    const m = (name: string, args: Record<string, unknown>, at?: string) => ({ id: ++id, name, args, ...(at ? { at } : {}) });
    const walkIns = [
      m('walkIn', { customer_id: a.customer_id, single_class_id: today, spot: null, guest: null }),
      m('walkIn', { customer_id: b.customer_id, single_class_id: today, spot: null, guest: 'Lucía Prieto' }),
      m('walkIn', { customer_id: c.customer_id, single_class_id: today, spot: null, guest: null }, offlineAt),
      m('walkIn', { customer_id: d.customer_id, single_class_id: today, spot: null, guest: null }),
      m('walkIn', { customer_id: e.customer_id, single_class_id: today, spot: null, guest: null }),
      m('walkIn', { customer_id: f.customer_id, single_class_id: oneSeat, spot: null, guest: null }),
      m('joinWaitlist', { customer_id: a.customer_id, single_class_id: oneSeat }),
    ];
    const pushed = await trpcMutation(server.app, 'sync.push', { clientId: desk, mutations: walkIns }, staff);
    expect(pushed.status, pushed.raw).toBe(200);
    expect(pushed.body.result.data.results.map((r: { status: string }) => r.status)).toEqual(walkIns.map(() => 'applied'));

    // f cancels at the desk; the place goes to a from the waitlist.
    const rows = await rowsOf<{ id: number; customer_id: number; single_class_id: number }>(
      server.db,
      sql`select class_reservation_id as id, customer_id, single_class_id from class_reservation where single_class_id in (${today}, ${oneSeat}) and deleted_at is null order by class_reservation_id`,
    );
    const fBooking = rows.find((r) => r.customer_id === f.customer_id)!;
    const second = [
      m('cancelReservation', { class_reservation_id: fBooking.id, customer_id: f.customer_id, single_class_id: oneSeat, return_credit: true, reason: 'Se sintió mal' }),
      m('walkIn', { customer_id: a.customer_id, single_class_id: oneSeat, spot: null, guest: null }),
      ...rows.filter((r) => r.single_class_id === today).map((r) => m('checkIn', { class_reservation_id: r.id })),
    ];
    const again = await trpcMutation(server.app, 'sync.push', { clientId: desk, mutations: second }, staff);
    expect(again.body.result.data.results.map((r: { status: string }) => r.status)).toEqual(second.map(() => 'applied'));

    const ofA = await activityOf(a.customer_id);
    const promoted = ofA.find((x) => x.text.includes('le dio el lugar desde la lista de espera'));
    expect(promoted).toMatchObject({ kind: 'reservationChanged', staff: { customer_id: staffId }, desk: { id: desk.slice(0, 8) } });
    expect(ofA.filter((x) => x.kind === 'waitlistChanged')).toHaveLength(1);
    const ofB = await activityOf(b.customer_id);
    expect(ofB.find((x) => x.kind === 'reservationChanged')?.text).toContain('con su invitado Lucía Prieto');
    const ofC = await activityOf(c.customer_id);
    const offline = ofC.find((x) => x.kind === 'reservationChanged')!;
    expect(offline.desk?.occurred_at).toBe(offlineAt);
    expect(new Date(offline.at).getTime() - new Date(offline.desk!.occurred_at).getTime()).toBeGreaterThan(2.9 * 3600_000);

    const checkIns = (await Promise.all(people.slice(0, 5).map((p) => activityOf(p.customer_id)))).flat().filter((x) => x.kind === 'checkIn');
    // Five bookings in today's class (one with a guest): one row per first check-in.
    expect(checkIns).toHaveLength(5);
    for (const row of checkIns) expect(row).toMatchObject({ staff: { customer_id: staffId }, desk: { id: desk.slice(0, 8) } });

    // A repeated scan changes nothing and writes nothing.
    const repeat = await trpcMutation(server.app, 'sync.push', { clientId: desk, mutations: [m('checkIn', { class_reservation_id: rows[0]!.id })] }, staff);
    expect(repeat.body.result.data.results[0].status).toBe('applied');
    expect((await activityOf(a.customer_id)).filter((x) => x.kind === 'checkIn')).toHaveLength(1);
  });

  it('money collected at the desk says who took it and how', async () => {
    const desk = newClientId();
    const cliente = (await login(server.app, 'cliente@estudio.demo')).idToken;
    const mariana = await customerId(server.db, 'cliente@estudio.demo');
    const order = await call(server.app, 'POST', '/api/checkout', { token: cliente, body: { class_package_id: 3, payment_method: 2 } });
    expect(order.status, order.raw).toBe(200);
    const res = await trpcMutation(
      server.app,
      'sync.push',
      { clientId: desk, mutations: [{ id: 1, name: 'markPurchasePaid', args: { purchase_id: order.body.purchase_id, paid_with: 'transfer' } }] },
      staff,
    );
    expect(res.body.result.data.results[0].status).toBe('applied');
    const row = (await activityOf(mariana)).find((x) => x.kind === 'paymentCollected');
    expect(row?.text).toMatch(/^Andrea Torres \(recepcion@estudio\.demo\) cobró .+ a Mariana López \(\$[\d,]+\.\d\d por transferencia\)\.$/);
    expect(row?.desk?.id).toBe(desk.slice(0, 8));
  });
});
