import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { customer } from '@estudio/db/schema/customer';
import { class_reservation_penalty } from '@estudio/db/schema/reservations';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

let server: TestServer;
let cliente: string;
/** The seed's unlimited member who missed three classes in a row. */
let penalized: { customer_id: number; email: string; penalty_id: number };
demoStudio(['cliente'], (s) => ({ server, tokens: { cliente } } = s));
beforeAll(async () => {
  const [row] = await server.db
    .select({ customer_id: customer.customer_id, email: customer.email, penalty_id: class_reservation_penalty.class_reservation_penalty_id })
    .from(class_reservation_penalty)
    .innerJoin(customer, eq(customer.customer_id, class_reservation_penalty.customer_id))
    .limit(1);
  if (!row) throw new Error('the seed penalises one unlimited member');
  penalized = row;
}, 120_000);

describe('penalties', () => {
  it('the penalised member sees her penalty with its end date; Mariana has none', async () => {
    const token = (await login(server.app, penalized.email)).idToken;
    const res = await call(server.app, 'GET', '/api/class_reservation_penaltys', { token });
    expect(res.status).toBe(200);
    const [penalty] = res.body.class_reservation_penaltys as { class_reservation_penalty_id: number; no_shows: number; end_date: string }[];
    expect(penalty).toMatchObject({ class_reservation_penalty_id: penalized.penalty_id, customer_id: penalized.customer_id, no_shows: 3 });
    expect(Date.parse(penalty?.end_date ?? '')).toBeGreaterThan(Date.now());

    const one = await call(server.app, 'GET', `/api/class_reservation_penaltys/${penalized.penalty_id}`, { token });
    expect(one.status).toBe(200);
    expect(one.body.class_reservation_penalty.class_reservation_penalty_id).toBe(penalized.penalty_id);

    const hers = await call(server.app, 'GET', '/api/class_reservation_penaltys', { token: cliente });
    expect(hers.body).toEqual({ class_reservation_penaltys: [] });
  });

  it("hides another customer's penalty (404), even when asked by customer_id", async () => {
    const other = await call(server.app, 'GET', `/api/class_reservation_penaltys/${penalized.penalty_id}`, { token: cliente });
    expect(other.status).toBe(404);
    expect(other.body).toEqual({ code: 'penalty/not-found', message: 'No encontramos esta penalización.' });
    const filtered = await call(server.app, 'GET', `/api/class_reservation_penaltys?customer_id=${penalized.customer_id}`, { token: cliente });
    expect(filtered.body.class_reservation_penaltys).toEqual([]);
  });

  it('the front desk sees any customer’s penalties', async () => {
    const staff = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    const one = await call(server.app, 'GET', `/api/class_reservation_penaltys?customer_id=${penalized.customer_id}`, { token: staff });
    expect((one.body.class_reservation_penaltys as { customer_id: number }[]).map((p) => p.customer_id)).toEqual([penalized.customer_id]);
    const all = await call(server.app, 'GET', '/api/class_reservation_penaltys', { token: staff });
    expect((all.body.class_reservation_penaltys as unknown[]).length).toBeGreaterThanOrEqual(1);
    const byId = await call(server.app, 'GET', `/api/class_reservation_penaltys/${penalized.penalty_id}`, { token: staff });
    expect(byId.status).toBe(200);
  });

  it('a lifted penalty (deletedAt) is gone', async () => {
    await server.db.update(class_reservation_penalty).set({ deletedAt: new Date() }).where(eq(class_reservation_penalty.class_reservation_penalty_id, penalized.penalty_id));
    const token = (await login(server.app, penalized.email)).idToken;
    const res = await call(server.app, 'GET', '/api/class_reservation_penaltys', { token });
    expect(res.body.class_reservation_penaltys).toEqual([]);
  });
});
