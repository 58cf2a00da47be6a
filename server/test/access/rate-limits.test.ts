import { eq, like, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { trpcMaxBatchSize } from '@estudio/core';
import { auth_user } from '@estudio/db/schema/identity';
import { class_package } from '@estudio/db/schema/packages';
import { limitedProcedures } from '../../src/services/rate-limit/limited-procedures.ts';
import { createCallLimits } from '../../src/services/rate-limit/call-limits.ts';
import { createHashingSlots } from '../../src/services/rate-limit/hashing-slots.ts';
import type { RateLimitStore } from '../../src/services/rate-limit/store.ts';
import { call, demoPassword, login, testConfig, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { accessOf, allProcedures } from '../support/router-walk.ts';

/**
 * Break 3 and the guessable discount codes: limits count procedure
 * calls, not HTTP requests. One batched tRPC request of many calls is as many
 * calls against the per-address limit and against the account lockout; a
 * batch has a maximum size; a discount code cannot be guessed faster than
 * the per-customer limit. The same file runs on PGlite and on PostgreSQL
 * (TEST_DATABASE_URL); the two-process, 200-way and Redis proofs are in
 * rate-limits.postgres.test.ts.
 */

const rateLimited = { code: 'rate-limited', message: 'Demasiados intentos. Espera un momento e inténtalo de nuevo.' };
const locked = 'auth/too-many-requests';

let server: TestServer;
demoStudio([], (s) => ({ server } = s));

interface BatchItem {
  result?: { data: unknown };
  error?: { message: string; data: { domainCode: string; httpStatus: number } };
}

/** One batched tRPC request: `calls` procedure calls in one HTTP request, from `address` (queries go as GET, mutations as POST). */
async function batch(app: FastifyInstance, address: string, calls: { path: string; input: unknown }[], token?: string, method: 'GET' | 'POST' = 'POST') {
  const payload = Object.fromEntries(calls.map((c, i) => [String(i), c.input]));
  const url = `/trpc/${calls.map((c) => c.path).join(',')}?batch=1${method === 'GET' ? `&input=${encodeURIComponent(JSON.stringify(payload))}` : ''}`;
  const res = await app.inject({
    method,
    url,
    remoteAddress: address,
    ...(method === 'POST' ? { payload } : {}),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const body = res.json() as BatchItem[] | BatchItem;
  return { status: res.statusCode, items: Array.isArray(body) ? body : [body], headers: res.headers };
}

/** Domain code of each answer of a batch ('ok' for a result). */
const codesOf = (items: BatchItem[]) => items.map((i) => (i.result ? 'ok' : (i.error?.data.domainCode ?? '?')));
const tally = (codes: string[]) => codes.reduce<Record<string, number>>((acc, c) => ({ ...acc, [c]: (acc[c] ?? 0) + 1 }), {});

describe('the table of limited procedures', () => {
  it('names procedures that exist', () => {
    const paths = new Set(allProcedures.map((p) => p.path));
    for (const name of Object.keys(limitedProcedures)) expect(paths.has(name), name).toBe(true);
  });
});

describe('a batch counts each call against the per-address limit', () => {
  it('40 password guesses in one request: 5 are checked, 35 answer the Spanish 429', async () => {
    const limited = await server.withConfig({ AUTH_RATE_LIMIT_MAX: '5', LOGIN_FAILURE_MAX: '1000' });
    const guesses = Array.from({ length: 40 }, (_, i) => ({ path: 'auth.login', input: { email: 'cliente@estudio.demo', password: `Incorrecta${i}` } }));
    const res = await batch(limited, '10.15.0.1', guesses);
    expect(tally(codesOf(res.items))).toEqual({ 'auth/wrong-password': 5, 'rate-limited': 35 });
    expect(res.items.find((i) => i.error?.data.domainCode === 'rate-limited')?.error).toMatchObject({ message: rateLimited.message, data: { httpStatus: 429 } });

    // The address is spent for REST too, the right password included; another address is not.
    const rest = await limited.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.15.0.1', payload: { email: 'cliente@estudio.demo', password: demoPassword } });
    expect(rest.statusCode).toBe(429);
    expect(rest.json()).toEqual(rateLimited);
    expect(rest.headers['retry-after']).toMatch(/^\d+$/);
    const other = await limited.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: '10.15.0.2', payload: { email: 'cliente@estudio.demo', password: demoPassword } });
    expect(other.statusCode).toBe(200);
  });

  it('30 sign-ups in one request against a limit of 4: 4 accounts, 26 refusals', async () => {
    const limited = await server.withConfig({ AUTH_RATE_LIMIT_MAX: '4' });
    const signups = Array.from({ length: 30 }, (_, i) => ({ path: 'auth.signup', input: { email: `lote.${i}@correo.mx`, password: 'Correcta1' } }));
    const res = await batch(limited, '10.15.1.1', signups);
    expect(tally(codesOf(res.items))).toEqual({ ok: 4, 'rate-limited': 26 });
    const created = await server.db.select({ n: sql<number>`count(*)::int` }).from(auth_user).where(like(auth_user.email, 'lote.%@correo.mx'));
    expect(created[0]?.n).toBe(4);
  });

  it('refresh keeps its own, four times larger bucket: a spent sign-in bucket does not stop it', async () => {
    const limited = await server.withConfig({ AUTH_RATE_LIMIT_MAX: '2' });
    const address = '10.15.2.1';
    const guesses = Array.from({ length: 3 }, () => ({ path: 'auth.login', input: { email: 'cliente@estudio.demo', password: 'Incorrecta1' } }));
    expect(tally(codesOf((await batch(limited, address, guesses)).items))).toEqual({ 'auth/wrong-password': 2, 'rate-limited': 1 });
    const refreshes = Array.from({ length: 9 }, () => ({ path: 'auth.refresh', input: { refreshToken: 'no-vale' } }));
    expect(tally(codesOf((await batch(limited, address, refreshes)).items))).toEqual({ 'auth/invalid-refresh-token': 8, 'rate-limited': 1 });
  });
});

describe('a batch cannot outrun the account lockout', () => {
  it('40 wrong guesses in one request: 3 are checked, the account locks, and the right password is not found', async () => {
    const strict = await server.withConfig({ AUTH_RATE_LIMIT_MAX: '1000', LOGIN_FAILURE_MAX: '3' });
    const email = 'lote.bloqueo@correo.mx';
    expect((await call(strict, 'POST', '/api/auth/signup', { body: { email, password: 'Correcta1' } })).status).toBe(200);
    const calls = Array.from({ length: 40 }, (_, i) => ({ path: 'auth.login', input: { email, password: `Incorrecta${i}` } }));
    const res = await batch(strict, '10.15.3.1', calls);
    expect(tally(codesOf(res.items))).toEqual({ 'auth/wrong-password': 3, [locked]: 37 });
    // Locked afterwards, for the right password too.
    const after = await call(strict, 'POST', '/api/auth/login', { body: { email, password: 'Correcta1' } });
    expect(after.status).toBe(429);
    expect(after.body.code).toBe(locked);
  });
});

describe('a spent window is answered from memory', () => {
  it('after the limit, refused calls cost no store round trip until the window ends', async () => {
    let storeHits = 0;
    const counts = new Map<string, number>();
    const store: RateLimitStore = {
      hit: async (key) => {
        storeHits += 1;
        counts.set(key, (counts.get(key) ?? 0) + 1);
        return { hits: counts.get(key) ?? 0, resetInMs: 60_000 };
      },
      close: async () => {},
    };
    const limits = createCallLimits(testConfig({ AUTH_RATE_LIMIT_MAX: '3' }), server.db, store);
    const answers = [];
    for (let i = 0; i < 20; i++) answers.push(await limits.take('signin', '203.0.113.7'));
    expect(answers.slice(0, 3)).toEqual([null, null, null]);
    expect(answers.slice(3).every((seconds) => seconds !== null && seconds >= 59 && seconds <= 60)).toBe(true);
    // Three within the limit, the fourth learns the window is spent; the other sixteen never reach the store.
    expect(storeHits).toBe(4);
    // Another address is counted on its own.
    expect(await limits.take('signin', '203.0.113.8')).toBeNull();
    expect(storeHits).toBe(5);
  });
});

describe('batch size', () => {
  it(`a batch of ${trpcMaxBatchSize} calls is answered; one more is refused whole with a Spanish 400`, async () => {
    const ok = await batch(server.app, '10.15.4.1', Array.from({ length: trpcMaxBatchSize }, () => ({ path: 'appconfig.get', input: undefined })), undefined, 'GET');
    expect(ok.status).toBe(200);
    expect(ok.items).toHaveLength(trpcMaxBatchSize);

    for (const method of ['GET', 'POST'] as const) {
      const paths = Array.from({ length: trpcMaxBatchSize + 1 }, () => 'appconfig.get').join(',');
      const res = await server.app.inject({ method, url: `/trpc/${paths}?batch=1`, remoteAddress: '10.15.4.1', ...(method === 'POST' ? { payload: {} } : {}) });
      expect(res.statusCode, method).toBe(400);
      const body = res.json() as BatchItem[];
      expect(body[0]?.error).toMatchObject({
        message: 'La solicitud agrupa demasiadas operaciones. Envíalas en varias solicitudes.',
        data: { domainCode: 'batch-too-large', httpStatus: 400 },
      });
    }
  });
});

describe('discount codes cannot be guessed', () => {
  let pkgId = 0;
  let token = '';
  beforeAll(async () => {
    const [pkg] = await server.db.select().from(class_package).where(eq(class_package.title, '5 Clases'));
    pkgId = pkg?.class_package_id ?? 0;
    token = (await login(server.app, 'nuevo@estudio.demo')).idToken;
  });

  it('per customer: 25 guesses over REST and a batch, 6 answered, the rest 429, whatever the address', async () => {
    const limited = await server.withConfig({ DISCOUNT_RATE_LIMIT_MAX: '6' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await limited.inject({
        method: 'GET',
        url: `/api/discounts/code/ADIVINA${i}?class_package_id=${pkgId}`,
        remoteAddress: `10.15.5.${i + 1}`,
        headers: { authorization: `Bearer ${token}` },
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([404, 404, 404, 404, 404]);
    const guesses = Array.from({ length: 20 }, (_, i) => ({ path: 'discounts.validate', input: { code: `LOTE${i}`, class_package_id: pkgId } }));
    const res = await batch(limited, '10.15.5.99', guesses, token, 'GET');
    expect(tally(codesOf(res.items))).toEqual({ 'discount/invalid': 1, 'rate-limited': 19 });
    // The right code is refused too once the allowance is spent: the answer tells nothing.
    const right = await call(limited, 'GET', `/api/discounts/code/BIENVENIDA10?class_package_id=${pkgId}`, { token });
    expect(right.status).toBe(429);
    expect(right.body).toEqual(rateLimited);
  });

  it("the previous panel's lookup without a package shares the allowance: guesses stop at the limit, whatever route they take", async () => {
    const limited = await server.withConfig({ DISCOUNT_RATE_LIMIT_MAX: '4' });
    const guesser = (await login(limited, 'ilimitado@estudio.demo')).idToken;
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(limited, 'GET', `/api/discounts/code/ADIVINA${i}`, { token: guesser })).status);
    statuses.push((await call(limited, 'GET', `/api/discounts/code/ADIVINA9?class_package_id=${pkgId}`, { token: guesser })).status);
    for (const code of ['PRIMERMES50', 'BUENFIN', 'ADIVINA3']) statuses.push((await call(limited, 'GET', `/api/discounts/code/${code}`, { token: guesser })).status);
    expect(statuses).toEqual([404, 404, 404, 404, 429, 429, 429]);
  });

  it('every procedure a customer can call with a code is counted in the discount allowance', () => {
    // Administrators write codes (discounts.create, update); everyone else can only try them.
    const looksUpCodes = allProcedures.filter(
      (p) =>
        accessOf(p.def) !== 'admin' &&
        p.def.inputs.some((input) => {
        const shape = (input as unknown as { shape?: Record<string, unknown> }).shape;
          return shape !== undefined && ('code' in shape || 'discountCode' in shape);
        }),
    );
    expect(looksUpCodes.map((p) => p.path)).toContain('legacy.discountUsable');
    for (const p of looksUpCodes) expect(limitedProcedures[p.path]?.bucket, p.path).toBe('discount');
  });

  it('a checkout that carries a code counts against the same allowance', async () => {
    const limited = await server.withConfig({ DISCOUNT_RATE_LIMIT_MAX: '2' });
    const other = (await login(limited, 'cliente@estudio.demo')).idToken;
    const tries = Array.from({ length: 4 }, (_, i) => ({ path: 'checkout.create', input: { class_package_id: pkgId, discountCode: `NOEXISTE${i}` } }));
    const res = await batch(limited, '10.15.6.1', tries, other);
    // Calls of a batch run side by side: which two are answered is not fixed, that two are is.
    const codes = codesOf(res.items);
    expect(codes.filter((c) => c === 'rate-limited')).toHaveLength(2);
    expect(codes.filter((c) => c.startsWith('discount/'))).toHaveLength(2);
  });
});

describe('password hashing is bounded', () => {
  it('runs at most `concurrency` at once, queues `queue` more, and refuses the rest at once', async () => {
    const slots = createHashingSlots({ concurrency: 2, queue: 3 });
    let running = 0;
    let most = 0;
    const work = () =>
      slots.run(async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((resolve) => setTimeout(resolve, 20));
        running--;
        return 'hecho';
      });
    const results = await Promise.allSettled(Array.from({ length: 8 }, work));
    expect(most).toBe(2);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(3);
    expect(refused[0]?.reason).toMatchObject({ code: 'busy', status: 503, message: 'Hay muchas solicitudes en este momento. Inténtalo de nuevo en unos segundos.' });
    // Freed slots serve the next ones.
    await expect(work()).resolves.toBe('hecho');
  });

  it('sign-ins beyond the queue get a Spanish 503 at once instead of waiting behind the others', async () => {
    const tight = await server.withConfig({ AUTH_RATE_LIMIT_MAX: '1000', LOGIN_FAILURE_MAX: '1000', PASSWORD_HASH_CONCURRENCY: '1', PASSWORD_HASH_QUEUE: '1' });
    const calls = Array.from({ length: 12 }, () => ({ path: 'auth.login', input: { email: 'cliente@estudio.demo', password: demoPassword } }));
    const res = await batch(tight, '10.15.7.1', calls);
    const counts = tally(codesOf(res.items));
    expect(counts.busy).toBeGreaterThan(0);
    expect((counts.ok ?? 0) + (counts.busy ?? 0)).toBe(12);
    const busy = res.items.find((i) => i.error?.data.domainCode === 'busy');
    expect(busy?.error).toMatchObject({ message: 'Hay muchas solicitudes en este momento. Inténtalo de nuevo en unos segundos.', data: { httpStatus: 503 } });
  });
});
