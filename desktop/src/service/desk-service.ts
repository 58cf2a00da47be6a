import { EventEmitter, on } from 'node:events';
import { eq } from 'drizzle-orm';
import { customer } from '@estudio/db';
import { customerCreateInput, defaultStudioTimeZone, DomainError, staffErrorMessage, type CustomerCreateInput, type DeskMutationArgs, type DeskMutationName, type ReplicatedTable } from '@estudio/core';
import type { Replica, SyncClient, SyncServerLink, SyncStatus } from '@estudio/sync/client/types';
import type { DeskConfig } from './config.ts';
import { counterWarnings, requiredPages } from './queries/counter-warnings.ts';
import { customerNotes } from './queries/customer-notes.ts';
import { accessOptions, customerCard, ensureSearchIndexes, searchCustomers, warmCustomerSearch } from './queries/customers.ts';
import {
  blocksCheckIn,
  ensureScanIndexes,
  findReservation,
  findScannedReservation,
  prepareScanPath,
  scanNotices,
  scanOutcome,
  scanWarnings,
  type ReservationView,
  type ScanNotice,
  type ScanOutcome,
  type ScanWarning,
} from './queries/scan.ts';
import { replicaTimeZone } from './time.ts';
import { cacheStudioSettings, SETTINGS_REFRESH_MS } from './studio-settings.ts';
import { bookableClasses, todayClasses } from './queries/today.ts';
import { cancelPreview, classWaitlist, hasCustomer, waitlistCounts } from './queries/desk-actions.ts';
import { ServerAddress, unsentWork, wipeReplica, type ServerAddressView } from './server-address.ts';
import { isUnreachable, type ServerApi } from './server-api.ts';
import { isProxyPath, type ProxyCallType, type ServerCall } from './server-proxy.ts';
import { LocalAuth } from './local-auth.ts';
import { CustomerPhotos } from './customer-photos.ts';
import { isStaleToken, retryOnStaleToken } from './sync-link.ts';
import { DeskFiles } from './desk-files.ts';
import { LOCK_KEY, parseStoredSession, publicUser, SESSION_KEY, withoutTokens, withTokens, type DeskUser, type StoredSession } from './session.ts';

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
  /** Green, amber or red on the scan panel (decision 016). */
  outcome: ScanOutcome;
  /** The warnings in Spanish, in order, each saying whether it refuses entry. */
  notices: ScanNotice[];
}

const offlineStatus: SyncStatus = { online: false, pending: 0, syncing: false, ready: false, lastSyncAt: null, lastError: null, rejections: [], adoptions: [] };

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
  /** Where the server is (DESK_SERVER_URL or the first-run screen); its API and proxy follow it (decision 019). */
  private readonly address: ServerAddress;
  private get api(): ServerApi {
    return this.address.api;
  }
  private get serverCall(): ServerCall {
    return this.address.serverCall;
  }
  private readonly events = new EventEmitter();
  private replica: Replica | null = null;
  private session: StoredSession | null = null;
  private client: SyncClient | null = null;
  private stopClientListener: (() => void) | null = null;
  private refreshTimer: NodeJS.Timeout | null = null;
  private refreshing: Promise<StoredSession | null> | null = null;
  /** Spanish reason the server stopped accepting this session, shown until staff signs in again. */
  sessionProblem: string | null = null;
  /** The server is reachable but this session has no tokens it takes (signed in offline, or refused): staff must type the password once online. */
  passwordNeeded = false;
  /** The uid of who locked the desk (kept in the replica, so a restart stays locked); every call but unlocking is refused meanwhile. */
  private lockedBy: string | null = null;
  private readonly localAuth: LocalAuth;
  private readonly photos: CustomerPhotos;
  private readonly files: DeskFiles;
  private readonly now: () => Date;

  constructor(config: DeskConfig, deps: DeskSyncDeps, options: { api?: ServerApi; serverCall?: ServerCall; fetch?: typeof fetch; now?: () => Date } = {}) {
    this.config = config;
    this.deps = deps;
    this.address = new ServerAddress(config, options);
    this.now = options.now ?? (() => new Date());
    this.localAuth = new LocalAuth(
      () => {
        if (!this.replica) throw new Error('desk service not started');
        return this.replica;
      },
      () => this.now().getTime(),
    );
    this.photos = new CustomerPhotos(
      () => {
        if (!this.replica) throw new Error('desk service not started');
        return this.replica;
      },
      {
        file: async (fileId) => ((await this.callServer('query', 'files.byId', { id: fileId })) as { file: { src: string; type: string } }).file,
        serverUrl: () => this.address.require(),
        token: () => this.token(),
      },
      options.fetch,
    );
    this.files = new DeskFiles({
      serverUrl: () => this.address.require(),
      token: () => this.token(),
      requireSignedIn: () => {
        if (!this.session) throw new DomainError('desk/signed-out');
      },
      requireUnlocked: () => this.requireUnlocked(),
    });
    this.events.setMaxListeners(100);
  }

  /** Opens the replica and, if someone was signed in when the desk closed, resumes their session and sync. */
  async start(): Promise<void> {
    this.replica = await this.deps.openReplica(this.config.dataDir);
    await ensureSearchIndexes(this.replica.db);
    await ensureScanIndexes(this.replica.db);
    await this.address.load(this.replica);
    this.session = parseStoredSession(await this.replica.getMeta(SESSION_KEY));
    this.lockedBy = this.session ? await this.replica.getMeta(LOCK_KEY) : null;
    if (this.session && this.address.url) await this.startClient(this.session);
  }

  async close(): Promise<void> {
    await this.stopClient();
    await this.replica?.close();
    this.replica = null;
  }

  /** Where the desk connects (for the sign-in screen) and whether DESK_SERVER_URL fixed it. */
  serverAddress(): ServerAddressView {
    return this.address.view();
  }

  /**
   * Sets the studio's server: on the first run by whoever is at the desk, later
   * only by a signed-in admin. The address must answer as our server. Another
   * server is another studio (decision 019): the change is refused while
   * changes of this desk are unsent or refusals unacknowledged, and otherwise
   * the replica is wiped (customers, outbox, sessions) and staff sign in again.
   */
  async setServerAddress(input: string): Promise<ServerAddressView> {
    if (this.address.fromEnv) throw new DomainError('desk/server-address-fixed');
    const previous = this.address.url;
    if (previous && this.session?.role !== 'admin') throw new DomainError('desk/server-change-admin-only');
    if (previous) this.requireUnlocked();
    const url = await this.address.check(input);
    const replica = this.replica;
    if (!replica) throw new Error('desk service not started');
    if (url === previous) return this.address.view();
    if (!previous) {
      await this.address.save(replica, url);
      if (this.session && !this.client) await this.startClient(this.session);
      this.emit([]);
      return this.address.view();
    }
    if ((await unsentWork(replica)) > 0) throw new DomainError('desk/server-change-pending');
    await this.stopClient();
    await replica.close();
    this.replica = null;
    this.session = null;
    this.sessionProblem = null;
    this.lockedBy = null;
    await wipeReplica(this.config.dataDir);
    this.replica = await this.deps.openReplica(this.config.dataDir);
    await ensureSearchIndexes(this.replica.db);
    await this.address.save(this.replica, url);
    this.emit([]);
    return this.address.view();
  }

  get db() {
    if (!this.replica) throw new Error('desk service not started');
    return this.replica.db;
  }

  user(): DeskUser | null {
    return this.session ? publicUser(this.session) : null;
  }

  status(): SyncStatus {
    const status = this.client?.status() ?? offlineStatus;
    // Locked, the screen shows no customer: rejections name them.
    if (this.lockedBy) return { ...status, rejections: [], adoptions: [] };
    // The replica keeps the server's reason as sent (to the customer: 'tus créditos'); staff read it about the customer, by its code.
    return { ...status, rejections: status.rejections.map((r) => ({ ...r, message: staffErrorMessage(r.code, r.message) })) };
  }

  /** What the sign-in and lock screens need: who is signed in, whether the desk is locked and how it unlocks. */
  async lockState(): Promise<{ locked: boolean; hasPin: boolean; passwordNeeded: boolean; waitingForOthers: { name: string; pending: number }[] }> {
    const email = this.session?.email;
    return {
      locked: this.lockedBy !== null,
      hasPin: email ? await this.localAuth.hasPin(email) : false,
      passwordNeeded: this.passwordNeeded,
      waitingForOthers: this.replica && !this.lockedBy ? await this.localAuth.waitingForOthers(this.client?.clientId ?? null) : [],
    };
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

  /**
   * Signs a staff member in against the server; customers are refused (the
   * desk replicates every customer). With the server away, staff who signed in
   * on this desk before are checked against the desk's verifier (decision 018)
   * and work from the replica; their changes wait in the outbox until they type
   * the password once the server is back. Also the lock screen's account switch.
   */
  async signIn(email: string, password: string): Promise<DeskUser> {
    let tokens;
    try {
      tokens = await this.api.login(email, password);
    } catch (error) {
      if (isUnreachable(error)) return this.signInOffline(email, password);
      // The server refused these credentials (changed password, disabled account): no offline sign-in with them either.
      // A typo keeps it; the password this desk knows being refused means it changed on the server.
      if (error instanceof DomainError && error.code.startsWith('auth/') && (await this.localAuth.passwordMatches(email, password))) await this.localAuth.forget(email);
      throw error;
    }
    const me = await this.api.me(tokens.idToken);
    // A coach signs in too (decision 045): its console reads its own classes from the server and replicates nothing.
    if (me.role !== 'staff' && me.role !== 'admin' && me.role !== 'coach') {
      await this.localAuth.forget(email);
      throw new DomainError('desk/staff-only');
    }
    const user: DeskUser = { uid: tokens.localId, customer_id: me.customer_id, email: me.email, name: me.name, last_name: me.last_name, role: me.role };
    await this.localAuth.remember(user, password);
    const session = withTokens(user, tokens, this.now().getTime());
    await this.replaceSession(session);
    return publicUser(session);
  }

  private async signInOffline(email: string, password: string): Promise<DeskUser> {
    const user = await this.localAuth.checkPassword(email, password);
    // The same account signing in again keeps its tokens; another starts without (the server takes its password when back).
    const session = this.session?.uid === user.uid ? { ...this.session, ...user } : withoutTokens(user);
    await this.replaceSession(session);
    return user;
  }

  private async replaceSession(session: StoredSession): Promise<void> {
    await this.stopClient();
    this.sessionProblem = null;
    this.passwordNeeded = false;
    await this.setLock(null);
    await this.saveSession(session);
    await this.startClient(session);
  }

  /** 'Bloquear': covers the screen; the service refuses every call but unlocking and switching account until then. */
  async lock(): Promise<void> {
    if (!this.session) throw new DomainError('desk/signed-out');
    await this.setLock(this.session.uid);
    this.emit([]);
  }

  /** Unlocks with the signed-in person's PIN or password, checked locally (works offline), with the desk's guess limit. */
  async unlock(secret: { pin: string } | { password: string }): Promise<DeskUser> {
    const session = this.session;
    if (!session) throw new DomainError('desk/signed-out');
    if ('pin' in secret) await this.localAuth.checkPin(session.email, secret.pin);
    else await this.localAuth.checkPassword(session.email, secret.password);
    await this.setLock(null);
    this.emit([]);
    return publicUser(session);
  }

  /** Sets the signed-in person's PIN on this desk; the password confirms it is them (checked locally). */
  async setPin(password: string, pin: string): Promise<void> {
    const session = this.session;
    if (!session) throw new DomainError('desk/signed-out');
    this.requireUnlocked();
    await this.localAuth.checkPassword(session.email, password);
    await this.localAuth.setPin(session.email, pin);
  }

  private async setLock(uid: string | null): Promise<void> {
    this.lockedBy = uid;
    await this.replica?.setMeta(LOCK_KEY, uid);
  }

  private requireUnlocked(): void {
    if (this.lockedBy) throw new DomainError('desk/locked');
  }

  /** Stops syncing and forgets the tokens. Unsent changes stay in the outbox, bound to this account's client id, and go out at its next sign-in. */
  async signOut(): Promise<void> {
    this.requireUnlocked();
    await this.stopClient();
    this.passwordNeeded = false;
    await this.saveSession(null);
    this.emit([]);
  }

  requireClient(): SyncClient {
    if (!this.client) throw new DomainError('desk/signed-out');
    this.requireUnlocked();
    return this.client;
  }

  async mutate<N extends DeskMutationName>(name: N, args: DeskMutationArgs<N>): Promise<{ mutationId: number }> {
    // A temporary customer id the server has since replaced is followed where changes are recorded (the sync store).
    const { mutationId } = await this.requireClient().mutate(name, args);
    return { mutationId };
  }

  /**
   * The customer a screen names: a customer registered offline keeps her temporary id in the screen until the server
   * answers; then that id leads to the server's (decision 113). Any other id is itself.
   */
  async followCustomer(customerId: number): Promise<number> {
    if (customerId > 0 || (await hasCustomer(this.db, customerId))) return customerId;
    return (await this.requireClient().serverCustomerId(customerId)) ?? customerId;
  }

  /** Staff read that a customer registered offline was one the server already had. */
  async dismissAdoption(mutationId: number): Promise<void> {
    await this.requireClient().dismissAdoption(mutationId);
  }

  /** The console's files (image fields, video uploads, previews) through the server, with the desk's token (desk-files.ts). */
  uploadImage(name: string, type: string, base64: string): Promise<{ file_id: number; src: string }> {
    return this.files.uploadImage(name, type, base64);
  }

  uploadVideo(input: Parameters<DeskFiles['uploadVideo']>[0]): ReturnType<DeskFiles['uploadVideo']> {
    return this.files.uploadVideo(input);
  }

  uploadVideoFromPath(filePath: string, options?: Parameters<DeskFiles['uploadVideoFromPath']>[1]): ReturnType<DeskFiles['uploadVideoFromPath']> {
    return this.files.uploadVideoFromPath(filePath, options);
  }

  imagePreview(src: string): Promise<string | null> {
    return this.files.imagePreview(src);
  }

  /**
   * The admin console's call to the server's own tRPC (online, not the
   * replica), with the signed-in account's token: refreshed first when about
   * to expire, and once more when the server no longer accepts it. The server
   * decides who may call what (admin routes answer 403 to staff).
   */
  async callServer(type: ProxyCallType, path: string, input: unknown): Promise<unknown> {
    if (!this.session) throw new DomainError('desk/signed-out');
    this.requireUnlocked();
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

  /** The studio's time zone from the replica's settings (Mexico City before any replica or copy): what the screens' times read. */
  async timeZone(): Promise<string> {
    return this.replica ? replicaTimeZone(this.replica.db) : defaultStudioTimeZone;
  }

  /** A customer's card; for a temporary id the server has since replaced, the card of whom it became (its customer_id says so). */
  async customerCard(customerId: number) {
    this.requireClient();
    return customerCard(this.db, await this.followCustomer(customerId), this.now());
  }

  /** The customer's photo (a data URL) for the scan verdict and the card; null shows the initials (customer-photos.ts). */
  async customerPhoto(customerId: number): Promise<string | null> {
    this.requireClient();
    const id = await this.followCustomer(customerId);
    const [row] = await this.db.select({ file_id: customer.file_id }).from(customer).where(eq(customer.customer_id, id)).limit(1);
    return row?.file_id ? this.photos.photo(row.file_id) : null;
  }

  /** Required documents not accepted and missing profile fields, for the customer card and the walk-in booking. */
  async counterWarnings(customerId: number) {
    this.requireClient();
    return counterWarnings(this.db, await this.followCustomer(customerId));
  }

  /** The customer's notes, alerts and health notes, with what the signed-in account may remove. */
  async customerNotes(customerId: number) {
    this.requireClient();
    const me = this.user();
    return customerNotes(this.db, await this.followCustomer(customerId), me ? { customer_id: me.customer_id, role: me.role } : null);
  }

  /** Staff collected the customer's acceptance at the counter: a sync mutation (works offline), timed by the desk's clock. */
  async acceptDocuments(customerId: number, pageIds: number[], versionsRead?: { page_id: number; version: number }[]): Promise<{ mutationId: number }> {
    return this.mutate('acceptDocuments', {
      customer_id: customerId,
      page_ids: pageIds,
      ...(versionsRead ? { versions_read: versionsRead } : {}),
      at: this.now().toISOString(),
    });
  }

  /** What cancelling a reservation now would do by the studio's rules (decision 017). */
  async cancelPreview(classReservationId: number) {
    this.requireClient();
    return cancelPreview(this.db, classReservationId, this.now());
  }

  /** A class's waitlist in order, with its free places. */
  async classWaitlist(singleClassId: number) {
    this.requireClient();
    return classWaitlist(this.db, singleClassId);
  }

  /** How many wait for each class. */
  async waitlistCounts() {
    this.requireClient();
    return waitlistCounts(this.db);
  }

  /** The documents a new customer accepts at the counter (the studio's required pages), from the replica: offline too. */
  async requiredDocuments(): Promise<{ page_id: number; title: string; slug: string; content: string | null }[]> {
    this.requireClient();
    // With their text: staff read or show each document to the customer before ticking it.
    return requiredPages(this.db);
  }

  /**
   * Registers a first-time walk-in. Online, on the server (POST /api/customer: it gives the id and checks the
   * e-mail against everyone), then pulls until the replica holds them, so staff can book or sell at once. Offline
   * (decision 113), as a queued change: the customer takes a temporary id (`offline: true`) that the server's
   * replaces at the push, or the existing customer's when the e-mail or phone turns out to be registered.
   */
  async createCustomer(input: CustomerCreateInput): Promise<{ customer_id: number; offline: boolean }> {
    const client = this.requireClient();
    const queue = async () => ({ customer_id: (await client.mutate('registerCustomer', customerCreateInput.parse(input))).tempId, offline: true });
    // Signed in offline (no token until the password is typed again) is offline too.
    if (this.passwordNeeded || !(await this.token())) return queue();
    let answer: { customer: { customer_id: number } };
    try {
      answer = (await this.callServer('mutation', 'customer.create', input)) as { customer: { customer_id: number } };
    } catch (error) {
      if (!(error instanceof DomainError && error.code === 'desk/server-unreachable')) throw error;
      return queue();
    }
    const id = answer.customer.customer_id;
    const deadline = Date.now() + 10_000;
    while (!(await hasCustomer(this.db, id))) {
      if (Date.now() > deadline) break;
      await client.syncNow();
      if (!(await hasCustomer(this.db, id))) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { customer_id: id, offline: false };
  }

  async accessOptions() {
    this.requireClient();
    return accessOptions(this.db);
  }

  /** A scanned 'Código de Acceso' (QR link or the typed code): who, which class, what to watch for; checks in when it may. */
  async scan(code: string): Promise<ScanResult> {
    const client = this.requireClient();
    const found = await findScannedReservation(this.db, code);
    // Before the first sync finishes, an unknown code may just not be here yet.
    if (!found) throw new DomainError(client.status().ready ? 'desk/code-unknown' : 'desk/not-synced');
    return this.admit(found);
  }

  /** Checks a reservation in (roster click or scan). Cancelled, other-day and cancelled-class reservations are shown, not sent. */
  async checkIn(classReservationId: number): Promise<ScanResult> {
    const client = this.requireClient();
    const found = await findReservation(this.db, classReservationId);
    if (!found) throw new DomainError(client.status().ready ? 'reservation/not-found' : 'desk/not-synced');
    return this.admit(found);
  }

  private async admit(found: ReservationView): Promise<ScanResult> {
    const client = this.requireClient();
    const at = this.now();
    const warnings = scanWarnings(found, at);
    let checkedIn = false;
    if (!found.attend && !blocksCheckIn(warnings)) {
      await client.mutate('checkIn', { class_reservation_id: found.class_reservation_id, at: at.toISOString() });
      checkedIn = true;
    }
    // What the check-in changed, without reading it all again (the mutator sets exactly these): the scan answers sooner.
    const reservation = checkedIn ? { ...found, attend: true, attendedAt: at.toISOString() } : found;
    if (Date.now() - this.settingsCachedAt > SETTINGS_REFRESH_MS) void this.refreshStudioSettings();
    return { reservation, warnings, checkedIn, at: at.toISOString(), outcome: scanOutcome(found, warnings, checkedIn), notices: scanNotices(reservation, warnings) };
  }

  /** When the studio's settings were last copied into the replica (0: not by this process). */
  private settingsCachedAt = 0;

  /** Copies the studio's settings (check-in window, time zone) into the replica; offline, the copy already there stays. */
  private async refreshStudioSettings(): Promise<void> {
    const replica = this.replica;
    const url = this.address.url;
    if (!replica || !url) return;
    this.settingsCachedAt = Date.now();
    try {
      await cacheStudioSettings(replica, url);
    } catch {
      this.settingsCachedAt = 0;
    }
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
    // A coach's desk replicates nothing (decision 045): no customers, no money; its screens ask the server for its own classes.
    if (session.role === 'coach') {
      this.emit([]);
      void this.refreshStudioSettings();
      return;
    }
    const clientId = await this.deps.clientIdFor(replica, session.uid);
    const link = retryOnStaleToken(
      this.deps.createLink({ serverUrl: this.address.require(), getToken: () => this.token() }),
      () => this.refresh(),
      (error) => void this.accountRefused(session, error),
    );
    const client = this.deps.createSyncClient({ replica, link, clientId });
    this.client = client;
    this.stopClientListener = client.onChange((event) => this.emit(event.tables));
    this.scheduleRefresh();
    this.emit([]);
    // start() never throws for a network failure: a desk opened offline works from its replica.
    await client.start();
    void this.refreshStudioSettings();
    // The first scan of the day need not plan its statements; a failure here only leaves that to the first scan.
    void prepareScanPath(this.db).catch(() => undefined);
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

  /**
   * The server answered a sync call of this session without accepting it: with
   * no tokens (signed in offline) it needs the password once; with tokens the
   * account was refused (role taken away), so it can no longer sign in offline.
   * The outbox stays; it goes out once the password is typed.
   */
  private async accountRefused(session: StoredSession, error: DomainError): Promise<void> {
    if (this.session?.uid !== session.uid || this.passwordNeeded) return;
    if (this.session.idToken && error.code === 'forbidden') await this.localAuth.forget(session.email);
    this.passwordNeeded = true;
    this.emit([]);
  }

  /** The ID token for the next request, refreshed first when it is about to expire. */
  private async token(): Promise<string | null> {
    const session = this.session;
    if (!session?.idToken) return null;
    if (session.expiresAt - this.now().getTime() > REFRESH_MARGIN_MS) return session.idToken;
    return (await this.refresh())?.idToken ?? session.idToken;
  }

  /** One refresh at a time; offline, the old tokens stay (the server is down anyway) and the next request tries again. */
  private refresh(): Promise<StoredSession | null> {
    this.refreshing ??= (async () => {
      const current = this.session;
      if (!current?.refreshToken) return current;
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
          this.passwordNeeded = true;
          await this.localAuth.forget(current.email);
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
