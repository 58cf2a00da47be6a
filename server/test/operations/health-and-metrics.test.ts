import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { migrationsFolder } from '@estudio/db';
import { scheduled_job } from '@estudio/db/schema/outbox';
import { createChangeFeed } from '@estudio/sync';
import { buildServer } from '../../src/app.ts';
import { createProcessState, type Heartbeat, type ProcessState } from '../../src/operations/process-state.ts';
import { login, testConfig } from '../support/helpers.ts';
import { newClientId, readSse } from '../support/sync-helpers.ts';

/**
 * The process's operations endpoints (decision 075), on both drivers:
 * /health answers while the process lives; /ready says whether it should
 * get traffic (database, migrations, clock and delivery worker, closing)
 * and whether messages are configured; /metrics is Prometheus text, only
 * with the token.
 */
const token = 'token-de-metricas-de-prueba-0123456789';
let handle: TestDb;
let feed: Awaited<ReturnType<typeof createChangeFeed>>;
const apps: FastifyInstance[] = [];

async function serve(env: Record<string, string> = {}, state?: ProcessState): Promise<{ app: FastifyInstance; base: string }> {
  const app = await buildServer({
    config: testConfig({ METRICS_TOKEN: token, ...env }),
    db: handle.db,
    changeFeed: feed,
    ...(state ? { operations: { state, dbKind: handle.kind } } : {}),
  });
  apps.push(app);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, base };
}

const json = async (res: Response) => (await res.json()) as Record<string, unknown> & { checks: Record<string, Record<string, unknown>>; messages: Record<string, unknown> };

beforeAll(async () => {
  handle = await createTestDb();
  feed = await createChangeFeed(handle);
}, 120_000);
afterAll(async () => {
  for (const app of apps) await app.close();
  await feed?.close();
  await handle?.close();
});

describe('/health and /ready', () => {
  it('answer a live, ready process: database, migrations, no loops in this process, and messages not configured', async () => {
    const { base } = await serve();
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });

    const ready = await fetch(`${base}/ready`);
    expect(ready.status).toBe(200);
    const body = await json(ready);
    expect(body.status).toBe('ready');
    expect(body.checks.database).toMatchObject({ ok: true });
    const expected = (JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length;
    expect(body.checks.migrations).toMatchObject({ ok: true, applied: expected, expected });
    expect(body.checks.clock).toEqual({ state: 'off', lastTickAt: null });
    expect(body.messages).toMatchObject({ email: { configured: false }, whatsapp: { configured: false } });
    expect(String(body.messages.note)).toContain('nada se envía');
  });

  it('say when e-mail is configured, without a note', async () => {
    const { base } = await serve({ SMTP_HOST: 'smtp.estudio.test' });
    const body = await json(await fetch(`${base}/ready`));
    expect(body.messages).toEqual({ email: { configured: true }, whatsapp: { configured: false } });
  });

  it('answer 503 while the process closes, and when its clock has stalled', async () => {
    const closing = createProcessState();
    closing.closing = true;
    const first = await serve({}, closing);
    const res = await fetch(`${first.base}/ready`);
    expect(res.status).toBe(503);
    expect((await json(res)).status).toBe('closing');
    // Liveness does not care: the process still answers.
    expect((await fetch(`${first.base}/health`)).status).toBe(200);

    const stalled = createProcessState({ clock: true, messages: false });
    const stuck: Heartbeat = { start() {}, end() {}, state: () => ({ state: 'stalled', lastTickAt: '2020-01-01T00:00:00.000Z' }) };
    stalled.clock = stuck;
    const second = await serve({}, stalled);
    const answer = await fetch(`${second.base}/ready`);
    expect(answer.status).toBe(503);
    expect((await json(answer)).checks.clock).toEqual({ state: 'stalled', lastTickAt: '2020-01-01T00:00:00.000Z' });
  });

  it('answer 503 when the code carries a migration the database does not have yet', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'migraciones-'));
    try {
      cpSync(migrationsFolder, folder, { recursive: true });
      const journalPath = path.join(folder, 'meta', '_journal.json');
      const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { idx: number; when: number; tag: string }[] };
      const last = journal.entries.at(-1) as { idx: number; when: number; tag: string };
      journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag: '9999_por_aplicar' });
      writeFileSync(journalPath, JSON.stringify(journal));
      const { base } = await serve({ MIGRATIONS_DIR: folder });
      const res = await fetch(`${base}/ready`);
      expect(res.status).toBe(503);
      expect((await json(res)).checks.migrations).toMatchObject({ ok: false, expected: journal.entries.length });
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('/metrics', () => {
  it('does not exist without METRICS_TOKEN, and refuses a missing or wrong token', async () => {
    const bare = await buildServer({ config: testConfig(), db: handle.db, changeFeed: feed });
    apps.push(bare);
    expect((await bare.inject({ url: '/metrics' })).statusCode).toBe(404);
    const { base } = await serve();
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}x` } })).status).toBe(401);
  });

  it("counts requests by route and status, the outbox's backlog by channel, each job's lag and the desks connected", async () => {
    const { app, base } = await serve();
    await handle.db
      .insert(scheduled_job)
      .values({ name: 'metricas-prueba', next_run_at: new Date(Date.now() - 90_000) })
      .onConflictDoNothing();
    await fetch(`${base}/api/appconfig`);
    await fetch(`${base}/trpc/appconfig.get`);
    await fetch(`${base}/una/pagina/que/no/existe?token=secreto`, { method: 'POST' });
    const staff = (await login(app, 'recepcion@estudio.demo')).idToken;
    const poke = readSse(`${base}/trpc/sync.poke?input=${encodeURIComponent(JSON.stringify({ clientId: newClientId() }))}`, staff);
    await poke.waitFor(1);

    const scrape = async () => {
      const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      return res.text();
    };
    const text = await scrape();
    expect(text).toContain('estudio_http_requests_total{method="GET",route="api:appconfig.get",status="200"} 1');
    expect(text).toContain('estudio_http_requests_total{method="GET",route="trpc:appconfig.get",status="200"} 1');
    // A URL the client made up is one label, whatever it is.
    expect(text).toContain('estudio_http_requests_total{method="POST",route="not-found",status="404"} 1');
    expect(text).not.toContain('secreto');
    expect(text).toMatch(/estudio_http_request_duration_seconds_bucket\{le="0\.05",method="GET",route="api:appconfig\.get",status_class="2xx"\} \d/);
    expect(text).toMatch(/estudio_outbox_messages\{channel="email",status="pending"\} \d+/);
    expect(text).toMatch(/estudio_outbox_messages\{channel="whatsapp",status="failed"\} \d+/);
    const lag = Number(/estudio_job_lag_seconds\{job="metricas-prueba"\} ([\d.]+)/.exec(text)?.[1]);
    expect(lag).toBeGreaterThanOrEqual(89);
    expect(text).toContain('estudio_desks_connected 1');
    expect(text).toMatch(/process_resident_memory_bytes \d+/);
    expect(text).toMatch(/nodejs_eventloop_lag_seconds \d/);

    await poke.close();
    // The desk went away: its subscription ends with the request.
    const deadline = Date.now() + 5_000;
    while (!(await scrape()).includes('estudio_desks_connected 0') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await scrape()).toContain('estudio_desks_connected 0');
  });
});
