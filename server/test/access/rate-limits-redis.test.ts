import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rate_limit_counter } from '@estudio/db/schema/rate-limit';
import { startTestServer, type TestServer } from '../support/helpers.ts';

/**
 * With REDIS_URL the per-call limits are counted in Redis (decision 012): two
 * servers over one Redis share one count, parallel calls and batched calls
 * alike, and the database's rate_limit_counter stays empty. A Redis that
 * stops answering refuses the limited calls with 'busy' (503) instead of
 * letting them through uncounted. Needs Debian's redis-server (.ci/run
 * installs it); without it the suite says so and skips.
 */
const redisServer = (() => {
  try {
    return execFileSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
})();
const title = redisServer ? 'limits counted in Redis (REDIS_URL)' : 'limits counted in Redis (REDIS_URL) — SKIPPED: redis-server is not installed (apt-get install redis-server)';

/** A free loopback port. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

describe.skipIf(!redisServer)(title, () => {
  let redis: ChildProcess | undefined;
  let url = '';
  let server: TestServer;

  beforeAll(async () => {
    const port = await freePort();
    url = `redis://127.0.0.1:${port}`;
    // Not on the run's moved clock (decision 010): libfaketime and Redis's jemalloc recurse into clock_gettime and Redis never starts.
    // Redis only measures its own expiries, so its clock need not agree with the servers'.
    const { LD_PRELOAD: _preload, FAKETIME: _offset, ...env } = process.env;
    redis = spawn(redisServer!, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore', env });
    const limit = Date.now() + 10_000;
    for (;;) {
      const up = await new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.end();
          resolve(true);
        });
        socket.once('error', () => resolve(false));
      });
      if (up) break;
      if (Date.now() > limit) throw new Error('redis-server no arrancó en 10 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    server = await startTestServer();
  }, 60_000);
  afterAll(async () => {
    await server?.close();
    if (redis && redis.exitCode === null) {
      const exited = new Promise((resolve) => redis!.once('exit', resolve));
      redis.kill('SIGTERM');
      await exited;
    }
  });

  const login = (app: FastifyInstance, address: string, password: string) =>
    app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: address, payload: { email: 'cliente@estudio.demo', password } });

  it('two servers share one count of 7: 30 parallel calls and a batch of 10, 7 checked in total', async () => {
    const a = await server.withConfig({ REDIS_URL: url, AUTH_RATE_LIMIT_MAX: '7' });
    const b = await server.withConfig({ REDIS_URL: url, AUTH_RATE_LIMIT_MAX: '7' });
    const address = '10.16.0.1';
    const singles = Array.from({ length: 30 }, (_, i) => login(i % 2 ? b : a, address, `Incorrecta${i}`).then((r) => [r.json().code as string]));
    const batch = b
      .inject({
        method: 'POST',
        url: `/trpc/${Array.from({ length: 10 }, () => 'auth.login').join(',')}?batch=1`,
        remoteAddress: address,
        payload: Object.fromEntries(Array.from({ length: 10 }, (_, i) => [String(i), { email: 'cliente@estudio.demo', password: `Lote${i}` }])),
      })
      .then((r) => (r.json() as { error: { data: { domainCode: string } } }[]).map((item) => item.error.data.domainCode));
    const codes = (await Promise.all([...singles, batch])).flat();
    expect(codes).toHaveLength(40);
    expect(codes.filter((c) => c === 'rate-limited')).toHaveLength(33);
    expect(codes.filter((c) => c === 'auth/wrong-password')).toHaveLength(7);
    // Counted in Redis only.
    const [row] = await server.db.select({ n: sql<number>`count(*)::int` }).from(rate_limit_counter);
    expect(row?.n).toBe(0);
  });

  it('a Redis that does not answer refuses the limited calls with a Spanish 503, and the rest of the API works', async () => {
    const gone = await server.withConfig({ REDIS_URL: `redis://127.0.0.1:${await freePort()}`, AUTH_RATE_LIMIT_MAX: '7' });
    const res = await login(gone, '10.16.0.2', 'Incorrecta1');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ code: 'busy', message: 'Hay muchas solicitudes en este momento. Inténtalo de nuevo en unos segundos.' });
    expect((await gone.inject({ method: 'GET', url: '/api/appconfig' })).statusCode).toBe(200);
  });
});
