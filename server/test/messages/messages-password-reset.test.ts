import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '@estudio/db';
import { preparePgliteDump } from '@estudio/db/testing';
import { createFaultDatabase, startServerProcess, type FaultDatabase } from '../support/fault-helpers.ts';
import { demoPassword, fakePortalDist } from '../support/helpers.ts';
import { freePort, startLoopbackSmtp, type LoopbackSmtp } from '../support/messages-fixtures.ts';

/**
 *, "Done means": a studio on the embedded defaults (nothing in the
 * environment about messages) configures SMTP in the admin's settings, and
 * from then on a password reset is an e-mail that arrives, whose link works.
 * The real server process (`node --import tsx server/src/main.ts`): PGlite in
 * a fresh data folder, or PostgreSQL when TEST_DATABASE_URL is set.
 */
let smtp: LoopbackSmtp;
let child: ChildProcess | undefined;
let database: FaultDatabase | undefined;
let dataDir: string;
let base: string;

async function json(method: string, url: string, body?: unknown, token?: string) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  smtp = await startLoopbackSmtp();
  dataDir = mkdtempSync(path.join(tmpdir(), 'estudio-mensajes-'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (adminUrl) database = await createFaultDatabase(adminUrl);
  else {
    // The data folder starts from the migrated, seeded dump the other tests use (a fresh migration and seed would take most of the file's time).
    const loaded = await createDb(undefined, { dataDir, loadDataDir: new Blob([readFileSync(await preparePgliteDump())], { type: 'application/x-tar' }) });
    await loaded.close();
  }
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  child = await startServerProcess({
    databaseUrl: database?.url ?? '',
    port,
    dataDir,
    portalDist: fakePortalDist(),
    env: { MESSAGE_POLL_MS: '100', CLOCK: 'off', PUBLIC_URL: 'https://reservas.estudio.test', SMTP_HOST: '', WHATSAPP_ACCESS_TOKEN: '', WHATSAPP_PHONE_NUMBER_ID: '' },
  });
}, 90_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  await smtp.close();
  await database?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('password reset on a studio that configured SMTP in its settings', () => {
  it('the reset e-mail arrives at the SMTP server and its link sets a new password', async () => {
    const admin = await json('POST', '/api/auth/login', { email: 'admin@estudio.demo', password: demoPassword });
    expect(admin.status).toBe(200);
    const token = admin.body.idToken as string;
    const before = await json('GET', '/api/messaging/settings', undefined, token);
    expect(before.body.email).toEqual({ configured: false, source: null });

    const saved = await json('PUT', '/api/messaging/settings', { smtp_host: '127.0.0.1', smtp_port: smtp.port, smtp_secure: false }, token);
    expect(saved.status).toBe(200);
    expect(saved.body.email).toEqual({ configured: true, source: 'settings' });

    const sent = await json('POST', '/api/customer/recover', { email: 'cliente@estudio.demo' }, token);
    expect(sent.status).toBe(200);

    const limit = Date.now() + 20_000;
    while (!smtp.received.some((m) => m.to === 'cliente@estudio.demo') && Date.now() < limit) await new Promise((r) => setTimeout(r, 50));
    const mail = smtp.received.find((m) => m.to === 'cliente@estudio.demo');
    expect(mail, 'el correo no llegó en 20 s').toBeDefined();
    expect(mail!.subject).toBe('Restablece tu contraseña de Estudio Demo');
    expect(mail!.from).toBe('Estudio Demo <hola@estudio.demo>');
    const link = /https:\/\/reservas\.estudio\.test\/recuperar\?token=([^\s"<&]+)/.exec(mail!.text);
    expect(link, mail!.text).not.toBeNull();
    expect(mail!.html).toContain(link![0]);

    const reset = await json('POST', '/api/auth/reset', { token: decodeURIComponent(link![1]!), password: 'NuevaClave2026!' });
    expect(reset.status).toBe(200);
    expect((await json('POST', '/api/auth/login', { email: 'cliente@estudio.demo', password: 'NuevaClave2026!' })).status).toBe(200);
    expect((await json('POST', '/api/auth/login', { email: 'cliente@estudio.demo', password: demoPassword })).status).toBe(400);
  }, 60_000);
});
