import { describe, expect, it } from 'vitest';
import { createFirebaseAuthClient } from '../src/session/firebase-auth-client.ts';

// Runs against the Firebase Auth emulator: `firebase emulators:exec --only auth "npx vitest run portal/test"`.
const emulator = process.env.FIREBASE_AUTH_EMULATOR_HOST;

describe.skipIf(!emulator)('Firebase sign-in through the Identity Toolkit REST API (emulator)', () => {
  const client = createFirebaseAuthClient({ apiKey: 'demo-key', authEmulatorHost: emulator });
  const email = `portal-${Date.now()}@estudio.demo`;

  it('signs up, signs in, refreshes and sends the recovery mail', async () => {
    const created = await client.signUp(email, 'Demo1234!');
    expect(created.email).toBe(email);
    expect(created.idToken).toBeTruthy();

    const signedIn = await client.signIn(email, 'Demo1234!');
    expect(signedIn.localId).toBe(created.localId);

    const refreshed = await client.refresh(signedIn.refreshToken);
    expect(refreshed.localId).toBe(created.localId);
    expect(Number(refreshed.expiresIn)).toBeGreaterThan(0);

    // Firebase mails its own link: the portal says it went by e-mail.
    await expect(client.sendPasswordReset(email)).resolves.toEqual({ delivery: 'email' });
  });

  it("answers with Firebase's codes and the spec's messages", async () => {
    await expect(client.signIn(email, 'otra-cosa')).rejects.toMatchObject({ code: 'auth/wrong-password', message: 'La contraseña es incorrecta. Por favor, intenta de nuevo' });
    await expect(client.signIn(`nadie-${Date.now()}@estudio.demo`, 'Demo1234!')).rejects.toMatchObject({ code: 'auth/user-not-found' });
    await expect(client.signUp(email, 'Demo1234!')).rejects.toMatchObject({ code: 'auth/email-already-in-use' });
    await expect(client.refresh('no-es-un-token')).rejects.toMatchObject({ code: 'auth/invalid-refresh-token' });
  });
});
