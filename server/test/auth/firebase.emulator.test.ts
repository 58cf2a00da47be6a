import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { call, startTestServer, type TestServer } from '../support/helpers.ts';

/**
 * The Firebase provider against the Firebase Auth emulator (firebase-tools,
 * offline). Runs only inside `firebase emulators:exec`, which sets
 * FIREBASE_AUTH_EMULATOR_HOST: see server/test/run-firebase-emulator.sh.
 */
const emulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
const projectId = 'demo-estudio';

async function emulatorSignUp(email: string, password: string): Promise<{ idToken: string; localId: string }> {
  const res = await fetch(`http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signUp?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  if (!res.ok) throw new Error(`emulator signUp failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { idToken: string; localId: string };
}

async function emulatorSignIn(email: string, password: string): Promise<{ idToken: string; localId: string }> {
  const res = await fetch(`http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, returnSecureToken: true }),
  });
  if (!res.ok) throw new Error(`emulator signIn failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { idToken: string; localId: string };
}

/** Firebase says the person holds the e-mail (as when they follow its verification link): the emulator's admin update. */
async function emulatorVerifyEmail(localId: string): Promise<void> {
  const res = await fetch(`http://${emulatorHost}/identitytoolkit.googleapis.com/v1/projects/${projectId}/accounts:update`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
    body: JSON.stringify({ localId, emailVerified: true }),
  });
  if (!res.ok) throw new Error(`emulator update failed: ${res.status} ${await res.text()}`);
}

/** The person follows the password link of the mail and chooses a password, on Firebase's page. */
async function emulatorResetPassword(oobCode: string, newPassword: string): Promise<void> {
  const res = await fetch(`http://${emulatorHost}/identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=any`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ oobCode, newPassword }),
  });
  if (!res.ok) throw new Error(`emulator resetPassword failed: ${res.status} ${await res.text()}`);
}

describe.runIf(emulatorHost)('Firebase identity provider (Auth emulator)', () => {
  let server: TestServer;
  let app: FastifyInstance;
  beforeAll(async () => {
    server = await startTestServer({ AUTH_PROVIDER: 'firebase', FIREBASE_PROJECT_ID: projectId, FIREBASE_AUTH_EMULATOR_HOST: emulatorHost ?? '' });
    app = server.app;
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  it('tells the portal to sign in with Firebase', async () => {
    const res = await call(app, 'GET', '/api/appconfig');
    const entry = (res.body.config as { key: string; value: string }[]).find((e) => e.key === 'firebaseConfig');
    expect(JSON.parse(entry?.value ?? '{}')).toMatchObject({ provider: 'firebase', projectId });
  });

  it('a Firebase user signs up as a customer and reads their account', async () => {
    const email = `firebase.${Date.now()}@correo.mx`;
    const user = await emulatorSignUp(email, 'Secreta1');

    const before = await call(app, 'GET', '/api/customer', { token: user.idToken });
    expect(before.status).toBe(404);
    expect(before.body.code).toBe('customer/not-found');

    const pages = await call(app, 'GET', '/api/pages');
    const required = (pages.body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
    const signup = await call(app, 'POST', '/api/customer/signup', {
      token: user.idToken,
      body: { name: 'Fernanda', last_name: 'Cruz', phone: '5566778899', email, uid: user.localId, accepted_page_ids: required },
    });
    expect(signup.status).toBe(200);
    expect(signup.body.customer).toMatchObject({ uid: user.localId, email, name: 'Fernanda' });

    const me = await call(app, 'GET', '/api/customer', { token: user.idToken });
    expect(me.status).toBe(200);
    expect(me.body.customer).toMatchObject({ uid: user.localId, email });

    const again = await call(app, 'POST', '/api/customer/signup', {
      token: user.idToken,
      body: { name: 'Fernanda', last_name: 'Cruz', phone: '5566778800', email, accepted_page_ids: required },
    });
    expect(again.status).toBe(409);
  });

  it('a sign-up refused for its phone leaves the Firebase identity, which finishes by signing in again', async () => {
    const email = `firebase.mitad.${Date.now()}@correo.mx`;
    const user = await emulatorSignUp(email, 'Renata2024!');
    const pages = await call(app, 'GET', '/api/pages');
    const required = (pages.body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
    const profile = (phone: string) => ({ name: 'Renata', last_name: 'Mitad', phone, email, accepted_page_ids: required });

    // 5512340001 is the demo customer's phone.
    const refused = await call(app, 'POST', '/api/customer/signup', { token: user.idToken, body: profile('5512340001') });
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('customer/phone-taken');

    // Another day: Firebase says the e-mail exists, so the portal signs in with the same password instead.
    await expect(emulatorSignUp(email, 'Renata2024!')).rejects.toThrow(/EMAIL_EXISTS/);
    const signedIn = await emulatorSignIn(email, 'Renata2024!');
    expect(signedIn.localId).toBe(user.localId);
    const missing = await call(app, 'GET', '/api/customer', { token: signedIn.idToken });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('customer/not-found');

    const finished = await call(app, 'POST', '/api/customer/signup', { token: signedIn.idToken, body: profile('5599881122') });
    expect(finished.status).toBe(200);
    expect(finished.body.customer).toMatchObject({ uid: user.localId, email, phone: '5599881122' });
    expect((await call(app, 'GET', '/api/customer', { token: signedIn.idToken })).status).toBe(200);
  });

  it('rejects a garbage token and leaves password sign-in to the browser', async () => {
    const bad = await call(app, 'GET', '/api/customer', { token: 'no.es.token' });
    expect(bad.status).toBe(401);
    expect(bad.body.code).toBe('auth/invalid-id-token');

    const local = await call(app, 'POST', '/api/auth/login', { body: { email: 'cliente@estudio.demo', password: 'Demo1234!' } });
    expect(local.status).toBe(400);
    expect(local.body.code).toBe('auth/operation-not-allowed');
  });

  describe('a studio that moves to Firebase keeps its people (decision 095)', () => {
    const lastMailTo = async (email: string) =>
      (await server.db.select().from(outbox_message).where(and(eq(outbox_message.recipient, email), eq(outbox_message.channel, 'email'))).orderBy(desc(outbox_message.outbox_message_id)).limit(1))[0];
    const oobCodeOf = (body: string | undefined) => /oobCode=([\w-]+)/.exec(body ?? '')?.[1];
    const accountOf = async (email: string) => (await server.db.select().from(customer).where(eq(customer.email, email)))[0]!;
    let adminToken = '';

    it('the owner signs in with Firebase: not linked while the e-mail is unverified, linked at the first call once it is, audited', async () => {
      const seeded = await accountOf('admin@estudio.demo');
      const user = await emulatorSignUp('admin@estudio.demo', 'Dueña2026!');
      const unverified = await call(app, 'GET', '/api/customer', { token: user.idToken });
      expect(unverified.status).toBe(404);
      expect(unverified.body.code).toBe('customer/not-found');
      expect((await accountOf('admin@estudio.demo')).uid).toBe(seeded.uid);

      await emulatorVerifyEmail(user.localId);
      adminToken = (await emulatorSignIn('admin@estudio.demo', 'Dueña2026!')).idToken;
      // The previous panel's first call, with its bare token: the same account, as Administrador.
      const panel = await app.inject({ method: 'GET', url: '/api/users', headers: { authorization: adminToken } });
      expect(panel.statusCode).toBe(200);
      expect(panel.json().user).toMatchObject({ uid: user.localId, customer_id: seeded.customer_id, role: 'admin', customer: { name: seeded.name } });
      expect((await accountOf('admin@estudio.demo')).uid).toBe(user.localId);
      const [audit] = await server.db
        .select()
        .from(audit_log)
        .where(and(eq(audit_log.action, 'identity.link'), eq(audit_log.entity_id, String(seeded.customer_id))));
      expect(audit).toMatchObject({ customer_id: seeded.customer_id, changes: { uid: { from: seeded.uid, to: user.localId }, provider: 'firebase' } });
    });

    it("the panel's reset link for a customer registered at the desk: she gets a Firebase identity, linked, and the mail to create her password", async () => {
      const created = await app.inject({
        method: 'POST',
        url: '/api/customer',
        headers: { authorization: adminToken },
        payload: { customer_id: 'nuevo', name: 'Sofía', last_name: 'Mostrador', email: 'sofia.mostrador@correo.mx', phone: '5566001122' },
      });
      expect(created.statusCode, created.body).toBe(200);
      expect((await accountOf('sofia.mostrador@correo.mx')).uid).toBeNull();

      const reset = await app.inject({ method: 'POST', url: '/api/customer/resetPasswordLink', headers: { authorization: adminToken }, payload: { email: 'sofia.mostrador@correo.mx' } });
      expect(reset.statusCode, reset.body).toBe(200);
      // No password link in staff's hands (the recovery page, with her e-mail); this studio sends no e-mail, so the panel is told the mail waits in Mensajes.
      expect(reset.json()).toMatchObject({ sent: false });
      expect(reset.json().link).toMatch(/\/recuperar\?email=sofia\.mostrador%40correo\.mx$/);
      const uid = (await accountOf('sofia.mostrador@correo.mx')).uid;
      expect(uid).toEqual(expect.any(String));
      const mail = await lastMailTo('sofia.mostrador@correo.mx');
      expect(mail?.subject).toMatch(/^Crea tu contraseña de /);
      const code = oobCodeOf(mail?.body);
      expect(code).toBeDefined();

      // She follows the link, chooses her password with Firebase and signs in: her account, with what the desk recorded.
      await emulatorResetPassword(code!, 'Sofia2026!');
      const signedIn = await emulatorSignIn('sofia.mostrador@correo.mx', 'Sofia2026!');
      expect(signedIn.localId).toBe(uid);
      const me = await call(app, 'GET', '/api/customer', { token: signedIn.idToken });
      expect(me.status).toBe(200);
      expect(me.body.customer).toMatchObject({ email: 'sofia.mostrador@correo.mx', name: 'Sofía', uid });
    });

    it('a customer whose Firebase identity is not verified yet recovers her password: the reset verifies the e-mail and her account is linked', async () => {
      const seeded = await accountOf('ilimitado@estudio.demo');
      const user = await emulatorSignUp('ilimitado@estudio.demo', 'Primera2026!');
      expect((await call(app, 'GET', '/api/customer', { token: user.idToken })).status).toBe(404);

      const recover = await call(app, 'POST', '/api/auth/recover', { body: { email: 'ilimitado@estudio.demo' } });
      expect(recover.status, recover.raw).toBe(200);
      const mail = await lastMailTo('ilimitado@estudio.demo');
      expect(mail?.subject).toMatch(/^Restablece tu contraseña de /);
      await emulatorResetPassword(oobCodeOf(mail?.body)!, 'Nueva2026!');

      const signedIn = await emulatorSignIn('ilimitado@estudio.demo', 'Nueva2026!');
      const me = await call(app, 'GET', '/api/customer', { token: signedIn.idToken });
      expect(me.status).toBe(200);
      expect(me.body.customer).toMatchObject({ customer_id: seeded.customer_id, uid: user.localId });
    });

    it('an address with no account writes nothing and answers the same', async () => {
      const before = await server.db.select().from(outbox_message);
      const recover = await call(app, 'POST', '/api/auth/recover', { body: { email: 'nadie.aqui@correo.mx' } });
      expect(recover.status).toBe(200);
      expect(await server.db.select().from(outbox_message)).toHaveLength(before.length);
    });
  });
});
