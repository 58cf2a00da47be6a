import { and, eq, isNull } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { domainErrors } from '@estudio/core';
import { customer } from '@estudio/db/schema/customer';
import { class_reservation, class_reservation_penalty } from '@estudio/db/schema/reservations';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { newClass } from '../support/reservations-fixtures.ts';
import { newClientId, trpcMutation } from '../support/sync-helpers.ts';

/**
 * The penalty's refusal through the other doors (reservations.test.ts books
 * over REST after the no-shows create it): a penalty already on record
 * refuses the member over /trpc, and the front desk booking for her (over
 * REST and from a desk's queued walk-in); the moment it has ended she books.
 */
let server: TestServer;
let ilimitado: string;
let recepcion: string;
let ilimitadoId: number;

demoStudio(['ilimitado', 'recepcion'], (s) => ({ server, tokens: { ilimitado, recepcion } } = s));
beforeAll(async () => {
  const [row] = await server.db.select().from(customer).where(eq(customer.email, 'ilimitado@estudio.demo'));
  ilimitadoId = row!.customer_id;
}, 120_000);

const liveBookings = (singleClassId: number) =>
  server.db
    .select()
    .from(class_reservation)
    .where(and(eq(class_reservation.single_class_id, singleClassId), eq(class_reservation.customer_id, ilimitadoId), isNull(class_reservation.deletedAt)));

describe('an unlimited member with a penalty on record', () => {
  it('is refused over /trpc, by the front desk over REST and from a desk’s walk-in; once it has ended she books', async () => {
    const [penalty] = await server.db
      .insert(class_reservation_penalty)
      .values({ customer_id: ilimitadoId, start_date: new Date(Date.now() - 3_600_000), end_date: new Date(Date.now() + 2 * 86_400_000), no_shows: 3, reason: 'Tres faltas' })
      .returning();
    const klass = await newClass(server.db, { minutesAhead: 48 * 60, capacity: 10, classType: 'Yoga' });

    const own = await trpcMutation(server.app, 'reservations.create', { single_class_id: klass }, ilimitado);
    expect(own.status).toBe(412);
    expect(own.body.error.data.domainCode).toBe('booking/penalized');
    expect(own.body.error.message).toBe(domainErrors['booking/penalized'].message);

    const byStaff = await call(server.app, 'POST', '/api/class_reservations', { token: recepcion, body: { single_class_id: klass, customer_id: ilimitadoId } });
    expect(byStaff.status).toBe(412);
    expect(byStaff.body.code).toBe('booking/penalized');

    const pushed = await trpcMutation(
      server.app,
      'sync.push',
      { clientId: newClientId(), mutations: [{ id: 1, name: 'walkIn', args: { customer_id: ilimitadoId, single_class_id: klass, spot: null, guest: null } }] },
      recepcion,
    );
    expect(pushed.status).toBe(200);
    expect(pushed.body.result.data.results).toEqual([{ id: 1, status: 'rejected', code: 'booking/penalized', message: expect.any(String) }]);
    expect(await liveBookings(klass)).toEqual([]);

    // Ended a second ago: booking resumes, over the same door.
    await server.db.update(class_reservation_penalty).set({ end_date: new Date(Date.now() - 1_000) }).where(eq(class_reservation_penalty.class_reservation_penalty_id, penalty!.class_reservation_penalty_id));
    const after = await trpcMutation(server.app, 'reservations.create', { single_class_id: klass }, ilimitado);
    expect(after.status).toBe(200);
    expect(await liveBookings(klass)).toHaveLength(1);
  });

  it('a penalty not started yet does not refuse her', async () => {
    await server.db
      .update(class_reservation_penalty)
      .set({ start_date: new Date(Date.now() + 86_400_000), end_date: new Date(Date.now() + 3 * 86_400_000) })
      .where(eq(class_reservation_penalty.customer_id, ilimitadoId));
    const klass = await newClass(server.db, { minutesAhead: 50 * 60, capacity: 10, classType: 'Yoga' });
    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: recepcion, body: { single_class_id: klass, customer_id: ilimitadoId } });
    expect(booked.status).toBe(200);
  });
});
