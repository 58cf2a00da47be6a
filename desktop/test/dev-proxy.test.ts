import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type ViteDevServer } from 'vite';
import { rendererConfig } from '../renderer.config.ts';
import { startDeskProcess, type DeskProcess, type DeskProcessChild } from '../src/main/desk-process.ts';
import { deskDevServicePort, deskServiceV8Flags } from '../src/service/process-protocol.ts';

/**
 * A development run of the desk (electron-vite dev, decision 134): the screens
 * come from Vite's server and the router's calls, uploads and the key's link
 * pass to the service's process on its fixed port. Driven here with Vite's
 * own dev server and the real service entry; Electron only opens the page.
 */
const work = mkdtempSync(path.join(tmpdir(), 'desk-dev-'));
let vite: ViteDevServer;
let service: DeskProcess;
let devUrl: string;

beforeAll(async () => {
  const entry = path.join(import.meta.dirname, '../src/web/service-process.ts');
  service = await startDeskProcess(() => {
    const child = fork(entry, [], {
      execArgv: [...deskServiceV8Flags, '--import', 'tsx'],
      env: { ...process.env, DESK_DATA_DIR: path.join(work, 'replica'), DESK_SERVER_URL: 'http://127.0.0.1:9', DESK_RENDERER_DIR: path.join(import.meta.dirname, '../src/renderer'), DESK_PORT: String(deskDevServicePort) },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    return { postMessage: (m) => child.send(m), on: (event: string, listener: (...args: unknown[]) => void) => child.on(event, listener), kill: () => child.kill() } as DeskProcessChild;
  }, () => {});
  vite = await createServer({ ...rendererConfig(path.join(work, 'out')), configFile: false, logLevel: 'silent', server: { ...rendererConfig(work).server, port: 0, host: '127.0.0.1' } });
  await vite.listen();
  const address = vite.httpServer?.address();
  devUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}, 120_000);

afterAll(async () => {
  await vite?.close();
  await service?.close();
  rmSync(work, { recursive: true, force: true });
});

describe("a development run's screens and the desk service", () => {
  it("the key's link, opened on Vite's address, sets the cookie there; the router answers through it; without the cookie it refuses", async () => {
    const link = new URL(service.url);
    expect(link.port).toBe(String(deskDevServicePort));
    const opened = await fetch(`${devUrl}/${link.search}`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    const cookie = (opened.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^recepcion_3401=/);
    const page = await fetch(`${devUrl}/`, { headers: { cookie } });
    expect(await page.text()).toContain('<div id="root">');
    const answered = await fetch(`${devUrl}/trpc/session.get`, { headers: { cookie, origin: devUrl } });
    expect(answered.status).toBe(200);
    const refused = await fetch(`${devUrl}/trpc/session.get`);
    expect(refused.status).toBe(401);
  });
});
