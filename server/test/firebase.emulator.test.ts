import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { call, startTestServer, type TestServer } from './helpers.ts';

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

  it('a sign-up refused for its phone leaves the Firebase identity, which finishes by signing in again (issue 15)', async () => {
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
});
