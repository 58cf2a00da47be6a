import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@estudio/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '@estudio/core';
import { startTestServer, type TestServer } from '../../server/test/support/helpers.ts';
import { serverLink } from '../src/renderer/src/server-link.ts';
import { DeskService } from '../src/service/desk-service.ts';
import { createServerApi } from '../src/service/server-api.ts';
import { createServerCall, type ServerCall } from '../src/service/server-proxy.ts';
import type { DeskRouter } from '../src/service/router.ts';
import { syncDeps } from '../src/service/sync-deps.ts';
import { startDeskWeb, type DeskWeb } from '../src/web/server.ts';

/**
 * The admin console's path to the server: a client typed with the server's
 * AppRouter whose only link is the renderer's serverLink, over the desk's
 * HTTP router (desk:web), which forwards with the signed-in account's token.
 */
let server: TestServer;
let desk: DeskService;
let web: DeskWeb;
let serverUrl: string;
const dirs: string[] = [];

const temp = (prefix: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};

let deskClient: ReturnType<typeof createTRPCClient<DeskRouter>>;
let admin: ReturnType<typeof createTRPCClient<AppRouter>>;

beforeAll(async () => {
  server = await startTestServer();
  await server.app.listen({ host: '127.0.0.1', port: 0 });
  const address = server.app.server.address();
  serverUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  desk = new DeskService({ dataDir: temp('desk-admin-replica-'), serverUrl }, syncDeps);
  await desk.start();
  const dist = temp('desk-admin-web-');
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Recepción</title>');
  web = await startDeskWeb({ port: 0, distDir: dist, desk });
  // The page's cookie, as the browser gets it from the terminal's link.
  const cookie = `${web.cookieName}=${web.key}`;
  deskClient = createTRPCClient<DeskRouter>({ links: [httpBatchLink({ url: `http://127.0.0.1:${web.port}/trpc`, headers: { cookie } })] });
  admin = createTRPCClient<AppRouter>({ links: [serverLink(deskClient)] });
});

afterAll(async () => {
  await web?.close();
  await server?.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('admin proxy through the desk', () => {
  it("a signed-out desk answers 'desk/signed-out' and forwards nothing", async () => {
    const error = await admin.packages.adminAll.query({ page: 1, limit: 5 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect(error).toMatchObject({ message: 'Inicia sesión para usar la recepción.', data: { domainCode: 'desk/signed-out', httpStatus: 401 } });
  });

  it("staff reaches the server, which refuses an admin route with its 403 Spanish message", async () => {
    await desk.signIn('recepcion@estudio.demo', 'Demo1234!');
    const error = await admin.discounts.adminAll.query({ page: 1, limit: 5 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'No tienes permiso para realizar esta acción.', data: { domainCode: 'forbidden', httpStatus: 403 } });
    // Tokens stay in the desk: the renderer cannot call auth.* or sync.* through it.
    await expect(deskClient.server.mutation.mutate({ path: 'auth.refresh', input: { refreshToken: 'x' } })).rejects.toMatchObject({
      data: { domainCode: 'forbidden' },
    });
    await desk.signOut();
  });

  it('an admin lists, creates and reads through the desk, and sees the server validation by field', async () => {
    await desk.signIn('admin@estudio.demo', 'Demo1234!');
    const before = await admin.discounts.adminAll.query({ page: 1, limit: 100 });
    const created = await admin.discounts.create.mutate({ code: 'proxy10', amount: '10', is_percent: true });
    expect(created.discount).toMatchObject({ code: 'PROXY10', is_percent: true, amount: '10.00' });
    const after = await admin.discounts.adminAll.query({ page: 1, limit: 100, query: 'PROXY' });
    expect(after.discounts.map((d) => d.discount_id)).toContain(created.discount.discount_id);
    expect((await admin.discounts.adminAll.query({ page: 1, limit: 100 })).total).toBe(before.total + 1);

    const invalid = await admin.discounts.create.mutate({ code: 'con espacio', amount: '10' }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({
      message: 'Revisa el campo code: El código solo puede tener letras, números, guiones y guiones bajos.',
      data: { domainCode: 'validation', field: 'code', httpStatus: 400 },
    });
    // A procedure without input goes through too.
    expect((await admin.classTypes.list.query()).class_types.length).toBeGreaterThan(0);
    const missing = await admin.discounts.byId.query({ id: 999_999 }).catch((e: unknown) => e);
    expect(missing).toMatchObject({ message: 'Descuento no encontrado.', data: { httpStatus: 404 } });
  });

  it('refreshes the token once when the server stops accepting it, like the sync link', async () => {
    const real = createServerCall(serverUrl);
    const tokens: string[] = [];
    // The first answer says the ID token is no longer accepted (a server restarted with a new signing key).
    const flaky: ServerCall = async (type, path, input, idToken) => {
      tokens.push(idToken);
      if (tokens.length === 1) throw new DomainError('auth/id-token-expired');
      return real(type, path, input, idToken);
    };
    const api = createServerApi(serverUrl);
    let refreshes = 0;
    const counting = { ...api, refresh: (token: string) => (refreshes++, api.refresh(token)) };
    const other = new DeskService({ dataDir: temp('desk-admin-refresh-'), serverUrl }, syncDeps, { serverCall: flaky, api: counting });
    await other.start();
    try {
      await other.signIn('admin@estudio.demo', 'Demo1234!');
      const answer = (await other.callServer('query', 'discounts.adminAll', { page: 1, limit: 1 })) as { total: number };
      expect(answer.total).toBeGreaterThan(0);
      expect(tokens).toHaveLength(2);
      expect(refreshes).toBe(1);
    } finally {
      await other.close();
    }
    // A second desk starts and takes its first sync here: 20 s on a loaded 2-core machine, over the default 30 s when busier.
  }, 90_000);
});
