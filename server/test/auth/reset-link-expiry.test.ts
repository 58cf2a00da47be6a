import { randomBytes } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { auth_user, password_reset } from '@estudio/db/schema/identity';
import { hashToken } from '../../src/services/auth/tokens.ts';
import { call, demoPassword, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * An expired password link through the other door (customer-claim.test.ts
 * uses REST for an account registered at the desk): a customer of the portal
 * asks for a link, lets it lapse, and uses it over /trpc. It is refused, her
 * password and her sessions stay as they were, and the link stays unspent; a
 * link still inside its hour works. The link lives the configured hour.
 */
let server: TestServer;
const email = 'nuevo@estudio.demo';
let uid: string;

demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  const [user] = await server.db.select().from(auth_user).where(eq(auth_user.email, email));
  uid = user!.uid;
}, 120_000);

/** A link as the recovery e-mail carries it, with the expiry asked for (the e-mail's random code; only its hash is stored). */
async function linkExpiringAt(expiresAt: Date): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  await server.db.insert(password_reset).values({ uid, token_hash: hashToken(token), expires_at: expiresAt });
  return token;
}

/** The portal's call with the link's code: no session, over /trpc. */
const resetOverTrpc = (token: string, password: string) => call(server.app, 'POST', '/trpc/auth.resetPassword', { body: { token, password } });

describe('a password link past its hour', () => {
  it('recovery gives the link the configured hour', async () => {
    const asked = Date.now();
    expect((await call(server.app, 'POST', '/api/auth/recover', { body: { email } })).status).toBe(200);
    const [link] = await server.db.select().from(password_reset).where(eq(password_reset.uid, uid)).orderBy(desc(password_reset.password_reset_id)).limit(1);
    const lifetime = (link?.expires_at.getTime() ?? 0) - asked;
    expect(server.config.PASSWORD_RESET_TTL_MINUTES).toBe(60);
    expect(lifetime).toBeGreaterThan(59 * 60_000);
    expect(lifetime).toBeLessThanOrEqual(60 * 60_000 + 5_000);
  });

  it('used over /trpc a second after it lapsed: refused in Spanish; her password, her session and the link stay as they were', async () => {
    const session = await login(server.app, email);
    const token = await linkExpiringAt(new Date(Date.now() - 1_000));

    const res = await resetOverTrpc(token, 'Otra-Clave-2026!');
    expect(res.status).toBe(400);
    expect(res.body.error.data.domainCode).toBe('auth/invalid-action-code');

    // The old password still signs in, the new one does not, and her open session still answers.
    expect((await login(server.app, email, demoPassword)).idToken).toBeTruthy();
    expect((await call(server.app, 'POST', '/api/auth/login', { body: { email, password: 'Otra-Clave-2026!' } })).status).toBe(400);
    expect((await call(server.app, 'GET', '/api/users', { token: session.idToken })).status).toBe(200);
    const [row] = await server.db.select().from(password_reset).where(eq(password_reset.token_hash, hashToken(token)));
    expect(row?.usedAt).toBeNull();
  });

  it('a link with seconds left works over /trpc, once', async () => {
    const token = await linkExpiringAt(new Date(Date.now() + 10_000));
    const res = await resetOverTrpc(token, 'Otra-Clave-2026!');
    expect(res.status).toBe(200);
    expect((await login(server.app, email, 'Otra-Clave-2026!')).idToken).toBeTruthy();
    const again = await resetOverTrpc(token, 'Tercera-Clave-2026!');
    expect(again.body.error.data.domainCode).toBe('auth/invalid-action-code');
  });
});
