import { EventEmitter, on } from 'node:events';
import { DomainError, type DeskMutationArgs, type DeskMutationName, type ReplicatedTable } from '@estudio/core';
import type { Replica, SyncClient, SyncServerLink, SyncStatus } from '@estudio/sync/client/types';
import type { DeskConfig } from './config.ts';
import { accessOptions, customerCard, ensureSearchIndexes, searchCustomers, warmCustomerSearch } from './queries/customers.ts';
import { blocksCheckIn, findReservation, parseReservationCode, scanWarnings, type ReservationView, type ScanWarning } from './queries/scan.ts';
import { bookableClasses, todayClasses } from './queries/today.ts';
import { createServerApi, isUnreachable, type ServerApi } from './server-api.ts';
import { createServerCall, isProxyPath, type ProxyCallType, type ServerCall } from './server-proxy.ts';
import { parseStoredSession, publicUser, SESSION_KEY, withTokens, type DeskUser, type StoredSession } from './session.ts';

/** How the desk reaches the sync engine of @estudio/sync; injected so a test can give it another replica or link. */
export interface DeskSyncDeps {
  openReplica(dataDir: string): Promise<Replica>;
  createLink(options: { serverUrl: string; getToken: () => Promise<string | null> }): SyncServerLink;
  createSyncClient(options: { replica: Replica; link: SyncServerLink; clientId: string }): SyncClient;
  /** One sync client id per replica and account, kept in the replica (the server binds it to the account). */
  clientIdFor(replica: Replica, uid: string): Promise<string>;
}

export interface DeskEvent {
  tables: ReplicatedTable[];
  status: SyncStatus;
  user: DeskUser | null;
}

export interface ScanResult {
  reservation: ReservationView;
  warnings: ScanWarning[];
  /** A check-in was recorded now (false when it was already attended or a warning blocks it). */
  checkedIn: boolean;
  at: string;
}

const offlineStatus: SyncStatus = { online: false, pending: 0, syncing: false, ready: false, lastSyncAt: null, lastError: null, rejections: [] };

/** The server no longer accepts the ID token (restarted with a new signing key, revoked, clock skew): refresh and try again. */
const staleTokenCodes = new Set(['auth/id-token-expired', 'auth/invalid-id-token', 'auth/id-token-revoked']);
const isStaleToken = (error: unknown) => error instanceof DomainError && staleTokenCodes.has(error.code);

function retryOnStaleToken(link: SyncServerLink, refresh: () => Promise<unknown>): SyncServerLink {
  const once =
    <A, R>(call: (input: A) => Promise<R>) =>
    async (input: A): Promise<R> => {
      try {
        return await call(input);
      } catch (error) {
        if (!isStaleToken(error)) throw error;
        await refresh();
        return call(input);
      }
    };
  return {
    pull: once((input) => link.pull(input)),
    push: once((input) => link.push(input)),
    position: once((input) => link.position(input)),
    snapshot: once((input) => link.snapshot(input)),
    subscribePoke: (input, handlers) =>
      link.subscribePoke(input, {
        onPoke: handlers.onPoke,
        onError: (error) => {
          // The client reconnects with backoff and asks for a token again: have a fresh one ready.
          if (isStaleToken(error)) void refresh();
          handlers.onError(error);
        },
      }),
  };
}

/** Refresh the ID token this long before it expires. */
const REFRESH_MARGIN_MS = 5 * 60_000;

/**
 * The desk service: one replica, the staff session, and a sync client for the
 * signed-in account. Electron's main process and `desk:web` both run it; the
 * desk router (router.ts) is its only door.
 */
export class DeskService {
  readonly config: DeskConfig;
  private readonly deps: DeskSyncDeps;
  private readonly api: ServerApi;
  private readonly serverCall: ServerCall;
  private readonly events = new EventEmitter();
  private replica: Replica | null = null;
  private session: StoredSession | null = null;
  private client: SyncClient | null = null;
  private stopClientListener: (() => void) | null = null;
  private refreshTimer: NodeJS.Timeout | null = null;
  private refreshing: Promise<StoredSession | null> | null = null;
  /** Spanish reason the server stopped accepting this session, shown until staff signs in again. */
  sessionProblem: string | null = null;
  private readonly now: () => Date;

  constructor(config: DeskConfig, deps: DeskSyncDeps, options: { api?: ServerApi; serverCall?: ServerCall; now?: () => Date } = {}) {
    this.config = config;
    this.deps = deps;
    this.api = options.api ?? createServerApi(config.serverUrl);
    this.serverCall = options.serverCall ?? createServerCall(config.serverUrl);
    this.now = options.now ?? (() => new Date());
    this.events.setMaxListeners(100);
  }

  /** Opens the replica and, if someone was signed in when the desk closed, resumes their session and sync. */
  async start(): Promise<void> {
    this.replica = await this.deps.openReplica(this.config.dataDir);
    await ensureSearchIndexes(this.replica.db);
    this.session = parseStoredSession(await this.replica.getMeta(SESSION_KEY));
    if (this.session) await this.startClient(this.session);
  }

  async close(): Promise<void> {
    await this.stopClient();
    await this.replica?.close();
    this.replica = null;
  }

  get db() {
    if (!this.replica) throw new Error('desk service not started');
    return this.replica.db;
  }

  user(): DeskUser | null {
    return this.session ? publicUser(this.session) : null;
  }

  status(): SyncStatus {
    return this.client?.status() ?? offlineStatus;
  }

  /** Every change the screens must show: pulled rows, local mutations, rollbacks, connection and session changes. */
  onChange(listener: (event: DeskEvent) => void): () => void {
    this.events.on('change', listener);
    return () => this.events.off('change', listener);
  }

  /** The same events as an async iterable, for the router's subscription; ends when the signal aborts. */
  async *changes(signal: AbortSignal | undefined): AsyncGenerator<DeskEvent> {
    try {
      for await (const [event] of on(this.events, 'change', { signal })) yield event as DeskEvent;
    } catch (error) {
      if (!(error instanceof Error && error.name === 'AbortError')) throw error;
    }
  }

  /** Signs a staff member in against the server; customers are refused (the desk replicates every customer). */
  async signIn(email: string, password: string): Promise<DeskUser> {
    const tokens = await this.api.login(email, password);
    const me = await this.api.me(tokens.idToken);
    if (me.role !== 'staff' && me.role !== 'admin') throw new DomainError('desk/staff-only');
    const session = withTokens(
      { uid: tokens.localId, customer_id: me.customer_id, email: me.email, name: me.name, last_name: me.last_name, role: me.role },
      tokens,
      this.now().getTime(),
    );
    await this.stopClient();
    this.sessionProblem = null;
    await this.saveSession(session);
    await this.startClient(session);
    return publicUser(session);
  }

  /** Stops syncing and forgets the tokens. Unsent changes stay in the outbox, bound to this account's client id, and go out at its next sign-in. */
  async signOut(): Promise<void> {
    await this.stopClient();
    await this.saveSession(null);
    this.emit([]);
  }

  requireClient(): SyncClient {
    if (!this.client) throw new DomainError('desk/signed-out');
    return this.client;
  }

  async mutate<N extends DeskMutationName>(name: N, args: DeskMutationArgs<N>): Promise<{ mutationId: number }> {
    return this.requireClient().mutate(name, args);
  }

  /**
   * The admin console's call to the server's own tRPC (online, not the
   * replica), with the signed-in account's token: refreshed first when about
   * to expire, and once more when the server no longer accepts it. The server
   * decides who may call what (admin routes answer 403 to staff).
   */
  async callServer(type: ProxyCallType, path: string, input: unknown): Promise<unknown> {
    if (!this.session) throw new DomainError('desk/signed-out');
    if (!isProxyPath(path)) throw new DomainError('forbidden');
    const attempt = async () => {
      const token = await this.token();
      if (!token) throw new DomainError('desk/signed-out');
      return this.serverCall(type, path, input, token);
    };
    try {
      return await attempt();
    } catch (error) {
      if (!isStaleToken(error)) throw error;
      await this.refresh();
      return attempt();
    }
  }

  async dismissRejection(mutationId: number): Promise<void> {
    await this.requireClient().dismissRejection(mutationId);
  }

  async today(date?: string) {
    this.requireClient();
    return todayClasses(this.db, date);
  }

  async bookableClasses() {
    this.requireClient();
    return bookableClasses(this.db, this.now());
  }

  async searchCustomers(q: string) {
    this.requireClient();
    return searchCustomers(this.db, q);
  }

  async customerCard(customerId: number) {
    this.requireClient();
    return customerCard(this.db, customerId, this.now());
  }

  async accessOptions() {
    this.requireClient();
    return accessOptions(this.db);
  }

  /** A scanned 'Código de Acceso' link or a typed folio: who, which class, what to watch for; checks in when it may. */
  async scan(code: string): Promise<ScanResult> {
    return this.checkIn(parseReservationCode(code));
  }

  /** Checks a reservation in (roster click or scan). Cancelled, other-day and cancelled-class reservations are shown, not sent. */
  async checkIn(classReservationId: number): Promise<ScanResult> {
    const client = this.requireClient();
    const at = this.now();
    const found = await findReservation(this.db, classReservationId);
    if (!found) throw new DomainError(client.status().ready ? 'reservation/not-found' : 'desk/not-synced');
    const warnings = scanWarnings(found, at);
    let checkedIn = false;
    if (!found.attend && !blocksCheckIn(warnings)) {
      await client.mutate('checkIn', { class_reservation_id: classReservationId, at: at.toISOString() });
      checkedIn = true;
    }
    const reservation = checkedIn ? ((await findReservation(this.db, classReservationId)) ?? found) : found;
    return { reservation, warnings, checkedIn, at: at.toISOString() };
  }

  private emit(tables: ReplicatedTable[]): void {
    // Customers changed (a sync, a walk-in): read them into the search index now, not on the next keystroke.
    if (tables.includes('customer') && this.replica) void warmCustomerSearch(this.replica.db).catch(() => undefined);
    this.events.emit('change', { tables, status: this.status(), user: this.user() } satisfies DeskEvent);
  }

  private async saveSession(session: StoredSession | null): Promise<void> {
    this.session = session;
    await this.replica?.setMeta(SESSION_KEY, session ? JSON.stringify(session) : null);
  }

  private async startClient(session: StoredSession): Promise<void> {
    const replica = this.replica;
    if (!replica) throw new Error('desk service not started');
    const clientId = await this.deps.clientIdFor(replica, session.uid);
    const link = retryOnStaleToken(this.deps.createLink({ serverUrl: this.config.serverUrl, getToken: () => this.token() }), () => this.refresh());
    const client = this.deps.createSyncClient({ replica, link, clientId });
    this.client = client;
    this.stopClientListener = client.onChange((event) => this.emit(event.tables));
    this.scheduleRefresh();
    this.emit([]);
    // start() never throws for a network failure: a desk opened offline works from its replica.
    await client.start();
  }

  private async stopClient(): Promise<void> {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    this.refreshTimer = null;
    this.stopClientListener?.();
    this.stopClientListener = null;
    const client = this.client;
    this.client = null;
    await client?.stop();
  }

  /** The ID token for the next request, refreshed first when it is about to expire. */
  private async token(): Promise<string | null> {
    const session = this.session;
    if (!session) return null;
    if (session.expiresAt - this.now().getTime() > REFRESH_MARGIN_MS) return session.idToken;
    return (await this.refresh())?.idToken ?? session.idToken;
  }

  /** One refresh at a time; offline, the old tokens stay (the server is down anyway) and the next request tries again. */
  private refresh(): Promise<StoredSession | null> {
    this.refreshing ??= (async () => {
      const current = this.session;
      if (!current) return null;
      try {
        const tokens = await this.api.refresh(current.refreshToken);
        if (this.session?.uid !== current.uid) return this.session;
        const next = withTokens(publicUser(current), tokens, this.now().getTime());
        await this.saveSession(next);
        return next;
      } catch (error) {
        // The server refused the refresh token (signed out everywhere, password changed): staff must sign in again.
        if (!isUnreachable(error)) {
          this.sessionProblem = error instanceof Error ? error.message : String(error);
          this.emit([]);
        }
        return current;
      } finally {
        this.refreshing = null;
        this.scheduleRefresh();
      }
    })();
    return this.refreshing;
  }

  private scheduleRefresh(): void {
    if (this.refreshTimer) clearTimeout(this.refreshTimer);
    const session = this.session;
    if (!session || !this.client) return;
    // At least a minute between attempts, so a desk offline for hours does not spin.
    const wait = Math.max(60_000, session.expiresAt - REFRESH_MARGIN_MS - this.now().getTime());
    this.refreshTimer = setTimeout(() => void this.refresh(), Math.min(wait, 2_147_000_000));
    this.refreshTimer.unref();
  }
}
