import { describe, expect, it } from 'vitest';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * Dates far from now (year 9999, year 0) are refused as bad input with a
 * Spanish 400 that names the field for people, never answered with a 500
 *. One shared date schema in core holds the bounds.
 */

let server: TestServer;
let admin: string;
let cliente: string;
demoStudio(['admin', 'cliente'], (s) => ({ server, tokens: { admin, cliente } } = s));

describe('dates out of range', () => {
  it('the public schedule refuses a range in year 9999 with a 400', async () => {
    const res = await call(server.app, 'GET', '/api/single_class?start_date=9999-12-01&end_date=9999-12-31');
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/fecha/i);
  });

  it('a birthdate 0000-01-01 on the profile is a 400 naming the birthdate, and the profile keeps its value', async () => {
    const before = (await call(server.app, 'GET', '/api/customer', { token: cliente })).body.customer.birthdate;
    const res = await call(server.app, 'PUT', '/api/customer', { token: cliente, body: { birthdate: '0000-01-01' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/fecha de nacimiento/i);
    const after = (await call(server.app, 'GET', '/api/customer', { token: cliente })).body.customer.birthdate;
    expect(after).toBe(before);
  });

  it('an admin class in year 9999 is a 400 naming the class date', async () => {
    const res = await call(server.app, 'POST', '/api/single_class', {
      token: admin,
      body: { date: '9999-06-01', time: '08:00', duration_minutes: 60, capacity: 10, location_id: 1, class_type_id: 1 },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/fecha/i);
  });

  it('credits granted until late on 9999-12-31 in Mexico (year 10000 in UTC) are a 400, nothing granted', async () => {
    const me = (await call(server.app, 'GET', '/api/customer', { token: cliente })).body.customer.customer_id as number;
    const before = (await call(server.app, 'GET', '/api/available_classes/date/all', { token: cliente })).body;
    const res = await call(server.app, 'POST', '/api/available_classes', {
      token: admin,
      body: { customer_id: me, available_classes: 3, expiration_date: '9999-12-31T23:59:59-06:00' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/fecha de vencimiento/i);
    expect((await call(server.app, 'GET', '/api/available_classes/date/all', { token: cliente })).body).toEqual(before);
  });
});
