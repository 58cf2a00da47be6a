import { rm } from 'node:fs/promises';
import { sql } from 'drizzle-orm';
import { DomainError } from '@estudio/core';
import type { Replica } from '@estudio/sync/client/types';
import { normalizeServerUrl, serverHost, verifyStudioServer, type DeskConfig } from './config.ts';
import { createServerApi, type ServerApi } from './server-api.ts';
import { createServerCall, type ServerCall } from './server-proxy.ts';

/** The replica's meta key of the address typed on the first-run screen (decision 019). */
export const SERVER_URL_KEY = 'server_url';

/** What the screens show: where the desk connects, and whether DESK_SERVER_URL fixed it. */
export interface ServerAddressView {
  url: string | null;
  host: string | null;
  fromEnv: boolean;
}

const notSet = (): never => {
  throw new DomainError('desk/server-not-set');
};
const unsetApi: ServerApi = { login: async () => notSet(), refresh: async () => notSet(), me: async () => notSet() };
const unsetCall: ServerCall = async () => notSet();

/**
 * The studio's server this desk talks to. DESK_SERVER_URL (config.serverUrl)
 * wins and cannot be changed from the screen; otherwise the address lives in
 * the replica it belongs to (meta 'server_url'), set on the first-run screen.
 * The server API and the admin proxy are rebuilt whenever it changes, so
 * every call goes to the current address (the sync link is created per
 * sign-in from `require()`).
 */
export class ServerAddress {
  private current: string | null;
  readonly fromEnv: boolean;
  api: ServerApi = unsetApi;
  serverCall: ServerCall = unsetCall;

  constructor(
    config: DeskConfig,
    private readonly injected: { api?: ServerApi | undefined; serverCall?: ServerCall | undefined; fetch?: typeof fetch | undefined } = {},
  ) {
    this.fromEnv = Boolean(config.serverUrl);
    this.current = null;
    this.use(config.serverUrl ? normalizeServerUrl(config.serverUrl) : null);
  }

  get url(): string | null {
    return this.current;
  }

  view(): ServerAddressView {
    return { url: this.current, host: this.current ? serverHost(this.current) : null, fromEnv: this.fromEnv };
  }

  /** The address for a call that needs one; 'desk/server-not-set' before the first-run screen was answered. */
  require(): string {
    return this.current ?? notSet();
  }

  /** Reads the address kept in the replica (unless DESK_SERVER_URL fixed one). */
  async load(replica: Replica): Promise<void> {
    if (this.fromEnv) return;
    const stored = await replica.getMeta(SERVER_URL_KEY);
    this.use(stored);
  }

  /** Normalizes what staff typed and checks that it answers as the studio's server; returns the address to keep. */
  async check(input: string): Promise<string> {
    return verifyStudioServer(normalizeServerUrl(input), this.injected.fetch);
  }

  async save(replica: Replica, url: string): Promise<void> {
    await replica.setMeta(SERVER_URL_KEY, url);
    this.use(url);
  }

  private use(url: string | null): void {
    this.current = url;
    this.api = this.injected.api ?? (url ? createServerApi(url, this.injected.fetch) : unsetApi);
    this.serverCall = this.injected.serverCall ?? (url ? createServerCall(url, this.injected.fetch) : unsetCall);
  }
}

/**
 * Changes that would be lost with the replica: unsent mutations in the outbox
 * (of any account that used this desk) and refusals not yet acknowledged.
 */
export async function unsentWork(replica: Replica): Promise<number> {
  const result = (await replica.db.execute(
    sql`select (select count(*) from desk.outbox)::int + (select count(*) from desk.rejection)::int as n`,
  )) as unknown as { rows?: { n: number }[] } | { n: number }[];
  const rows = Array.isArray(result) ? result : (result.rows ?? []);
  return Number(rows[0]?.n ?? 0);
}

/** Deletes the replica's folder: the next open builds an empty one (the first sync of the new studio fills it). */
export async function wipeReplica(dataDir: string): Promise<void> {
  await rm(dataDir, { recursive: true, force: true });
}
