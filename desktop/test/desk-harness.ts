import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startTestServer, type TestServer } from '../../server/test/support/helpers.ts';
import { DeskService } from '../src/service/desk-service.ts';
import { syncDeps } from '../src/service/sync-deps.ts';

/** Waits until `check` holds, polling every 50 ms; after `timeoutMs` it fails naming what it waited for. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`esperando: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface DeskOnServer {
  server: TestServer;
  desk: DeskService;
  close(): Promise<void>;
}

/** A real server on a free port and a desk with its own replica, signed in as `email` and synced once. */
export async function deskOnTestServer(email = 'recepcion@estudio.demo', password = 'Demo1234!'): Promise<DeskOnServer> {
  const server = await startTestServer();
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  const serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'desk-'));
  const desk = new DeskService({ dataDir, serverUrl }, syncDeps);
  await desk.start();
  await desk.signIn(email, password);
  await until('first sync', () => desk.status().ready && desk.status().online);
  return {
    server,
    desk,
    close: async () => {
      await desk.close();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
