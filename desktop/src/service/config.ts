import os from 'node:os';
import path from 'node:path';
import { DomainError } from '@estudio/core';

export interface DeskConfig {
  /** Where the PGlite replica lives. */
  dataDir: string;
  /**
   * The studio's server fixed for this desk (DESK_SERVER_URL, or a test's own
   * server): it wins over the address staff typed on first run and cannot be
   * changed from the screen. Absent, the desk keeps the address set on its
   * first-run screen in the replica (decision 019).
   */
  serverUrl?: string | undefined;
}

/** Per-user application data, as Electron's app.getPath('userData') would choose on each platform. */
export function defaultDataDir(): string {
  const home = os.homedir();
  if (!home) return path.resolve('desk-data');
  if (process.platform === 'win32') return path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Estudio Recepcion', 'replica');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Estudio Recepcion', 'replica');
  return path.join(process.env.XDG_DATA_HOME ?? path.join(home, '.local', 'share'), 'estudio-recepcion', 'replica');
}

/** DESK_DATA_DIR and DESK_SERVER_URL; without DESK_SERVER_URL the address comes from the desk's first-run screen. */
export function loadDeskConfig(env: NodeJS.ProcessEnv = process.env, fallbackDataDir = defaultDataDir()): DeskConfig {
  const fixed = env.DESK_SERVER_URL?.trim();
  return {
    dataDir: path.resolve(env.DESK_DATA_DIR ?? fallbackDataDir),
    serverUrl: fixed ? normalizeServerUrl(fixed) : undefined,
  };
}

/**
 * A server address as staff type it ('reservas.estudio.mx', 'https://reservas.estudio.mx/')
 * made into the base the desk calls: http(s) only, no credentials, query or fragment,
 * no trailing slash. Without a scheme, https is assumed (a bare host name is what people type).
 */
export function normalizeServerUrl(input: string): string {
  const text = input.trim();
  if (!text || text.length > 300) throw new DomainError('desk/server-address-invalid');
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new DomainError('desk/server-address-invalid');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || url.username || url.password || url.search || url.hash) {
    throw new DomainError('desk/server-address-invalid');
  }
  return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
}

/** The host (and port) shown on the sign-in screen: 'Conectando a reservas.estudio.mx'. */
export function serverHost(serverUrl: string): string {
  const url = new URL(serverUrl);
  return `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}

/**
 * Whether an address answers as the studio's server: its REST health check
 * (GET /api/health → {"ok":true}) and the same procedure over its tRPC
 * endpoint (GET /trpc/health → {"result":{"data":{"ok":true}}}), which the
 * desk's sync and sign-in use. Any other site (a router's page, another app)
 * fails one of the two. Throws the Spanish reason; answers the address to
 * keep (where a redirect led, if the server redirected).
 */
export async function verifyStudioServer(serverUrl: string, fetchImpl: typeof fetch = fetch, timeoutMs = 8_000): Promise<string> {
  let base = serverUrl;
  const get = async (pathname: string): Promise<unknown> => {
    let response: Response;
    try {
      response = await fetchImpl(`${base}${pathname}`, { signal: AbortSignal.timeout(timeoutMs), redirect: 'follow', headers: { accept: 'application/json' } });
    } catch {
      throw new DomainError('desk/server-address-unreachable');
    }
    if (!response.ok) throw new DomainError('desk/server-address-not-ours');
    // http:// answered by a redirect to https:// (or to another name): the desk keeps where the server really is,
    // since a redirected POST (sign-in, sync) would arrive as a GET.
    const landed = response.redirected ? new URL(response.url) : null;
    if (landed?.pathname.endsWith(pathname)) base = normalizeServerUrl(`${landed.origin}${landed.pathname.slice(0, -pathname.length)}`);
    try {
      return await response.json();
    } catch {
      throw new DomainError('desk/server-address-not-ours');
    }
  };
  const rest = (await get('/api/health')) as { ok?: unknown } | null;
  if (rest?.ok !== true) throw new DomainError('desk/server-address-not-ours');
  const trpc = (await get('/trpc/health')) as { result?: { data?: { ok?: unknown } } } | null;
  if (trpc?.result?.data?.ok !== true) throw new DomainError('desk/server-address-not-ours');
  return base;
}
