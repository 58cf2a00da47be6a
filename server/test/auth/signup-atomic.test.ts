import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { accepted_page } from '@estudio/db/schema/content';
import { customer } from '@estudio/db/schema/customer';
import { auth_user } from '@estudio/db/schema/identity';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * Break 6, on the local identity provider (the Firebase one is in
 * firebase.emulator.test.ts): a sign-up is two calls, the identity and then
 * the customer. When the customer is refused (a phone another account has),
 * the identity stays and nothing else is written; the person finishes later
 * by signing in with it (the portal does so when the sign-up says the e-mail
 * exists, and shows the profile form when GET /customer answers
 * 'customer/not-found'). PGlite and, with TEST_DATABASE_URL, PostgreSQL.
 */
let server: TestServer;
let required: number[];
demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  const pages = await call(server.app, 'GET', '/api/pages');
  required = (pages.body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
}, 60_000);

const profile = (email: string, phone: string) => ({ name: 'Renata', last_name: 'Mitad', email, phone, birthdate: '1995-03-08', accepted_page_ids: required });

describe('a sign-up refused for a phone already registered', () => {
  it('keeps the identity, writes no customer, and lets the same person finish by signing in', async () => {
    const email = 'renata.mitad@correo.mx';
    const identity = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password: 'Renata2024!' } });
    expect(identity.status).toBe(200);
    // 5512340001 is the demo customer's phone.
    const refused = await call(server.app, 'POST', '/api/customer/signup', { token: identity.body.idToken, body: profile(email, '5512340001') });
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({ code: 'customer/phone-taken', message: 'Ya existe una cuenta con ese número de teléfono' });
    expect((await server.db.select({ n: count() }).from(customer).where(eq(customer.email, email)))[0]?.n).toBe(0);
    expect((await server.db.select({ n: count() }).from(auth_user).where(eq(auth_user.email, email)))[0]?.n).toBe(1);

    // Another day: signing up again says the e-mail exists; signing in with it works and shows the missing customer.
    const again = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password: 'Renata2024!' } });
    expect(again.body.code).toBe('auth/email-already-in-use');
    const signedIn = await call(server.app, 'POST', '/api/auth/login', { body: { email, password: 'Renata2024!' } });
    expect(signedIn.status).toBe(200);
    const missing = await call(server.app, 'GET', '/api/customer', { token: signedIn.body.idToken });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('customer/not-found');

    const finished = await call(server.app, 'POST', '/api/customer/signup', { token: signedIn.body.idToken, body: profile(email, '5599887766') });
    expect(finished.status).toBe(200);
    expect(finished.body.customer).toMatchObject({ email, phone: '5599887766', uid: identity.body.localId });
    const me = await call(server.app, 'GET', '/api/customer', { token: signedIn.body.idToken });
    expect(me.status).toBe(200);
    const [row] = await server.db.select({ customer_id: customer.customer_id }).from(customer).where(eq(customer.email, email));
    const accepted = await server.db.select({ n: count() }).from(accepted_page).where(eq(accepted_page.customer_id, row?.customer_id ?? -1));
    expect(accepted[0]?.n).toBe(required.length);

    // Now complete: a second customer for the same identity is refused.
    const twice = await call(server.app, 'POST', '/api/customer/signup', { token: signedIn.body.idToken, body: profile(email, '5599887700') });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('customer/already-exists');
  });

  it('someone who does not know the password cannot take over a half account', async () => {
    const email = 'mitad.ajena@correo.mx';
    const identity = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password: 'Propia2024!' } });
    expect((await call(server.app, 'POST', '/api/customer/signup', { token: identity.body.idToken, body: profile(email, '5512340001') })).status).toBe(409);
    const intruder = await call(server.app, 'POST', '/api/auth/login', { body: { email, password: 'Ajena2024!' } });
    expect(intruder.body.code).toBe('auth/wrong-password');
  });
});
