import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../server/test/support/helpers.ts';
import { loadDeskConfig, normalizeServerUrl } from '../src/service/config.ts';
import { DeskService } from '../src/service/desk-service.ts';
import { syncDeps } from '../src/service/sync-deps.ts';

/**
 * The studio's server address (decision 019): asked on the desk's first run,
 * checked against the real server before it is kept, kept in the replica,
 * changed only by an admin and only when nothing of this desk is unsent
 * (another server is another studio: the replica is wiped).
 */
let studioA: TestServer;
let studioB: TestServer;
let urlA: string;
let urlB: string;
let impostor: http.Server;
let impostorUrl: string;
let work: string;

const listen = async (server: TestServer) => {
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
};

const until = async (what: string, check: () => boolean | Promise<boolean>, timeoutMs = 60_000) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const customersIn = async (desk: DeskService) => {
  const result = (await desk.db.execute(sql`select count(*)::int as n from customer`)) as unknown as { rows: { n: number }[] };
  return result.rows[0]?.n ?? 0;
};

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'desk-address-'));
  [studioA, studioB] = await Promise.all([startTestServer(), startTestServer()]);
  urlA = await listen(studioA);
  urlB = await listen(studioB);
  // Answers like a health check on /api/health, but it is not our server (no tRPC behind it).
  impostor = http.createServer((req, res) => {
    if (req.url?.startsWith('/api/health')) return res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    if (req.url?.startsWith('/pagina')) return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>Router</body></html>');
    // As http:// → https:// would: every path moved to the studio's real address.
    if (req.url?.startsWith('/mudado/')) return res.writeHead(301, { location: `${urlA}${req.url.slice('/mudado'.length)}` }).end();
    res.writeHead(404).end('no');
  });
  await new Promise<void>((resolve) => impostor.listen(0, '127.0.0.1', resolve));
  const address = impostor.address();
  impostorUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 300_000);

afterAll(async () => {
  await studioA?.close();
  await studioB?.close();
  await new Promise((resolve) => impostor?.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

describe('what staff may type as the address', () => {
  it('accepts an http(s) address with or without the scheme and trailing slash; refuses anything else in Spanish', () => {
    expect(normalizeServerUrl(' https://reservas.estudio.mx/ ')).toBe('https://reservas.estudio.mx');
    expect(normalizeServerUrl('reservas.estudio.mx')).toBe('https://reservas.estudio.mx');
    expect(normalizeServerUrl('http://192.168.1.20:3000')).toBe('http://192.168.1.20:3000');
    expect(normalizeServerUrl('https://estudio.mx/reservas/')).toBe('https://estudio.mx/reservas');
    for (const bad of ['', 'ftp://estudio.mx', 'https://usuario:clave@estudio.mx', 'https://estudio.mx/?x=1', 'https://estudio.mx/#a', 'http://', 'javascript:alert(1)']) {
      expect(() => normalizeServerUrl(bad), bad).toThrow('Escribe la dirección completa del servidor');
    }
  });

  it('DESK_SERVER_URL wins when set; without it the address comes from the first-run screen', () => {
    expect(loadDeskConfig({ DESK_SERVER_URL: 'http://127.0.0.1:3000/', DESK_DATA_DIR: work }).serverUrl).toBe('http://127.0.0.1:3000');
    expect(loadDeskConfig({ DESK_DATA_DIR: work }).serverUrl).toBeUndefined();
  });
});

describe('first run, and an admin changing the server', () => {
  it('asks for the address first, checks that it is our server before keeping it, and keeps it across restarts', { timeout: 300_000 }, async () => {
    const dataDir = path.join(work, 'replica');
    let desk = new DeskService({ dataDir }, syncDeps);
    await desk.start();
    try {
      expect(desk.serverAddress()).toEqual({ url: null, host: null, fromEnv: false });
      await expect(desk.signIn('recepcion@estudio.demo', 'Demo1234!')).rejects.toMatchObject({ code: 'desk/server-not-set' });
      await expect(desk.setServerAddress('ftp://estudio.mx')).rejects.toMatchObject({ code: 'desk/server-address-invalid' });
      await expect(desk.setServerAddress('http://127.0.0.1:9')).rejects.toMatchObject({
        code: 'desk/server-address-unreachable',
        message: 'No hubo respuesta en esa dirección. Revisa que esté bien escrita y que este equipo tenga internet.',
      });
      await expect(desk.setServerAddress(impostorUrl)).rejects.toMatchObject({ code: 'desk/server-address-not-ours' });
      await expect(desk.setServerAddress(`${impostorUrl}/pagina`)).rejects.toMatchObject({ code: 'desk/server-address-not-ours' });
      expect(desk.serverAddress().url).toBeNull();

      const host = new URL(urlA).host;
      // A redirecting address is kept as where it leads (a redirected POST would arrive as a GET).
      expect(await desk.setServerAddress(`${impostorUrl}/mudado/`)).toEqual({ url: urlA, host, fromEnv: false });
      await desk.close();
      rmSync(dataDir, { recursive: true, force: true });
      desk = new DeskService({ dataDir }, syncDeps);
      await desk.start();
      expect(await desk.setServerAddress(` ${urlA}/ `)).toEqual({ url: urlA, host, fromEnv: false });
      await desk.close();
      desk = new DeskService({ dataDir }, syncDeps);
      await desk.start();
      expect(desk.serverAddress()).toEqual({ url: urlA, host, fromEnv: false });
      const user = await desk.signIn('recepcion@estudio.demo', 'Demo1234!');
      expect(user.role).toBe('staff');
      // Staff may not move the desk to another studio.
      await expect(desk.setServerAddress(urlB)).rejects.toMatchObject({ code: 'desk/server-change-admin-only' });
      expect(desk.serverAddress().url).toBe(urlA);
    } finally {
      await desk.close();
    }
  });

  it('refuses the change while something of this desk is unsent, else wipes the replica and asks to sign in at the new server', { timeout: 300_000 }, async () => {
    const dataDir = path.join(work, 'replica');
    const desk = new DeskService({ dataDir }, syncDeps);
    await desk.start();
    try {
      await desk.signOut();
      await desk.signIn('admin@estudio.demo', 'Demo1234!');
      await until('primera sincronización', () => desk.status().ready);
      expect(await customersIn(desk)).toBeGreaterThan(0);

      // A refusal of the server not yet acknowledged: wiping would lose whom to call.
      await desk.db.execute(
        sql`insert into desk.rejection (client_id, mutation_id, name, args, code, message) values ('prueba', 1, 'checkIn', '{}'::jsonb, 'forbidden', 'Rechazado')`,
      );
      await expect(desk.setServerAddress(urlB)).rejects.toMatchObject({
        code: 'desk/server-change-pending',
        message: expect.stringContaining('aún no llegan al servidor'),
      });
      expect(desk.serverAddress().url).toBe(urlA);
      expect(desk.user()?.email).toBe('admin@estudio.demo');
      await desk.db.execute(sql`delete from desk.rejection where client_id = 'prueba'`);

      const changed = await desk.setServerAddress(urlB);
      expect(changed.url).toBe(urlB);
      // Another studio: nothing of studio A is left, and nobody is signed in.
      expect(desk.user()).toBeNull();
      expect(await customersIn(desk)).toBe(0);
      await desk.signIn('admin@estudio.demo', 'Demo1234!');
      await until('primera sincronización con B', () => desk.status().ready);
      expect(await customersIn(desk)).toBeGreaterThan(0);
    } finally {
      await desk.close();
    }
    // The change survives a restart too.
    const again = new DeskService({ dataDir }, syncDeps);
    await again.start();
    try {
      expect(again.serverAddress().url).toBe(urlB);
      expect(again.user()?.email).toBe('admin@estudio.demo');
    } finally {
      await again.close();
    }
  });

  it('an address fixed with DESK_SERVER_URL is shown as such and cannot be changed from the screen', async () => {
    const desk = new DeskService({ dataDir: path.join(work, 'fija'), serverUrl: urlA }, syncDeps);
    await desk.start();
    try {
      expect(desk.serverAddress()).toEqual({ url: urlA, host: new URL(urlA).host, fromEnv: true });
      await expect(desk.setServerAddress(urlB)).rejects.toMatchObject({ code: 'desk/server-address-fixed' });
    } finally {
      await desk.close();
    }
  });
});
