import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFaultDatabase, startServerProcess, type FaultDatabase } from '../support/fault-helpers.ts';
import { fakePortalDist } from '../support/helpers.ts';
import { buildServerBundle, type ServerBundle } from './built-server.ts';

/**
 * The log of the built server as an operator reads it (decision 075), and
 * its cap on connections per address (decision 076): one JSON line per
 * request, no password, token or code in any line, a body the client cut
 * short is one debug line (not an error with a stack), and one address
 * holding more connections than MAX_CONNECTIONS_PER_ADDRESS gets 429.
 */
const adminUrl = process.env.TEST_DATABASE_URL;
const port = 4116;
const cap = 6;

interface LogLine {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string };
  route?: string;
  status?: number;
  err?: unknown;
}

/** Raw HTTP over one socket: the request as written, the answer's status line and body once the server ends it. */
function raw(request: string, options: { cutAfterMs?: number } = {}): Promise<{ status: number | null; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(request);
      if (options.cutAfterMs) setTimeout(() => socket.destroy(), options.cutAfterMs);
    });
    let data = '';
    socket.setEncoding('utf8').on('data', (c: string) => (data += c));
    socket.on('error', reject);
    socket.on('close', () => {
      const status = /^HTTP\/1\.1 (\d{3})/.exec(data)?.[1];
      resolve({ status: status ? Number(status) : null, body: data.slice(data.indexOf('\r\n\r\n') + 4) });
    });
  });
}

describe.skipIf(!adminUrl)('the log and the connections of the built server (PostgreSQL)', () => {
  let bundle: ServerBundle;
  let database: FaultDatabase;
  let server: ChildProcess;
  let portalDist = '';
  let dataDir = '';
  let out = '';
  const lines = (): LogLine[] =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as LogLine);

  beforeAll(async () => {
    if (!adminUrl) return;
    bundle = buildServerBundle();
    portalDist = fakePortalDist();
    dataDir = mkdtempSync(path.join(tmpdir(), 'ops-log-'));
    database = await createFaultDatabase(adminUrl);
    server = await startServerProcess({
      databaseUrl: database.url,
      port,
      dataDir,
      portalDist,
      entry: [bundle.main],
      stdout: 'pipe',
      env: { NODE_ENV: 'production', LOG_LEVEL: 'debug', CLOCK: 'off', MESSAGES_WORKER: 'off', MAX_CONNECTIONS_PER_ADDRESS: String(cap) },
    });
    server.stdout?.setEncoding('utf8').on('data', (c: string) => (out += c));
  }, 120_000);
  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    await database?.drop();
    bundle?.remove();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(portalDist, { recursive: true, force: true });
  });

  it('writes one line per request, with its route and status, and no password, token or code', async () => {
    const base = `http://127.0.0.1:${port}`;
    const password = 'Demo1234!';
    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'cliente@estudio.demo', password }),
    });
    expect(login.status).toBe(200);
    const { idToken, refreshToken } = (await login.json()) as { idToken: string; refreshToken: string };
    await fetch(`${base}/api/customer`, { headers: { authorization: `Bearer ${idToken}` } });
    await fetch(`${base}/api/auth/refresh`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken }) });
    await fetch(`${base}/recuperar?token=codigo-de-un-solo-uso-123`);
    await fetch(`${base}/api/calendar/token-del-calendario-456.ics`);
    await fetch(`${base}/api/discounts/code/CODIGOSECRETO?class_package_id=3`, { headers: { authorization: `Bearer ${idToken}` } });
    await new Promise((r) => setTimeout(r, 300));

    const requestLines = lines().filter((l) => l.msg === 'solicitud');
    const byUrl = (start: string) => requestLines.filter((l) => l.req?.url.startsWith(start));
    expect(byUrl('/api/auth/login')).toMatchObject([{ level: 30, route: 'api:auth.login', status: 200, req: { method: 'POST' } }]);
    expect(byUrl('/api/customer')).toMatchObject([{ route: 'api:customer.me', status: 200 }]);
    expect(byUrl('/recuperar')).toMatchObject([{ req: { url: '/recuperar?token=[oculto]' }, route: 'page' }]);
    expect(byUrl('/api/calendar/')).toMatchObject([{ req: { url: '/api/calendar/[oculto]' } }]);
    expect(byUrl('/api/discounts/code/')).toMatchObject([{ req: { url: '/api/discounts/code/[oculto]?class_package_id=3' } }]);
    // One line each: no "incoming request" / "request completed" pairs.
    expect(new Set(requestLines.map((l) => l.reqId)).size).toBe(requestLines.length);
    expect(lines().filter((l) => l.msg === 'incoming request' || l.msg === 'request completed')).toEqual([]);
    for (const secret of [password, idToken, refreshToken, 'codigo-de-un-solo-uso-123', 'token-del-calendario-456', 'CODIGOSECRETO']) {
      expect(out).not.toContain(secret);
    }
  });

  it('logs a body the client cut short as one debug line, with no error and no stack', async () => {
    const before = lines().length;
    const answer = await raw('POST /api/auth/login HTTP/1.1\r\nHost: estudio\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"email":"cli', { cutAfterMs: 200 });
    expect(answer.status).toBeNull();
    await new Promise((r) => setTimeout(r, 300));
    const added = lines().slice(before);
    expect(added.filter((l) => l.level >= 40)).toEqual([]);
    expect(added.filter((l) => l.err !== undefined)).toEqual([]);
    expect(added).toMatchObject([{ level: 20, req: { method: 'POST', url: '/api/auth/login' } }]);
  });

  it(`answers 429 to a connection over ${cap} from one address, and takes it again once one closes`, async () => {
    // Connections this test file already kept alive count too: hold more until the next one is refused.
    const held: net.Socket[] = [];
    try {
      let refused: { status: number | null; body: string } | null = null;
      while (held.length <= cap) {
        const probe = await raw('GET /health HTTP/1.1\r\nHost: estudio\r\nConnection: close\r\n\r\n');
        if (probe.status === 429) {
          refused = probe;
          break;
        }
        expect(probe.status).toBe(200);
        const socket = net.connect(port, '127.0.0.1');
        await new Promise((resolve) => socket.once('connect', resolve));
        held.push(socket);
      }
      expect(refused).not.toBeNull();
      expect(held.length).toBeLessThanOrEqual(cap);
      expect(JSON.parse(refused?.body ?? '{}')).toMatchObject({ code: 'too-many-connections', message: expect.stringContaining('demasiadas conexiones') });
      held.pop()?.destroy();
      await new Promise((r) => setTimeout(r, 100));
      const taken = await raw('GET /health HTTP/1.1\r\nHost: estudio\r\nConnection: close\r\n\r\n');
      expect(taken.status).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
    }
  });
});
