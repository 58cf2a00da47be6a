import { randomUUID } from 'node:crypto';
import {
  DomainError,
  domainErrors,
  replicatedTableNames,
  replicatedTables,
  texts,
  type DeskMutationArgs,
  type DeskMutationName,
  type PushInput,
  type ReplicatedTable,
  type RowKey,
} from '@estudio/core';
import { sql } from 'drizzle-orm';
import { wipeReplicatedTables } from './apply.ts';
import { metaKeys, query, writeMeta } from './replica.ts';
import {
  applyPullPage,
  applySnapshotRows,
  dismissRejection,
  listRejections,
  pendingOf,
  recordMutation,
  rejectMutation,
  adoptServerId,
  adoptedCustomerId,
  dismissAdoption,
  listAdoptions,
  resetReplica,
  reviewHeld,
} from './store.ts';
import type { Replica, SyncChangeEvent, SyncClient, SyncServerLink, SyncStatus } from './types.ts';

export interface SyncClientOptions {
  replica: Replica;
  link: SyncServerLink;
  /** This desk's id for the signed-in account (see `clientIdFor`). */
  clientId: string;
  /** How an empty replica is filled: from a snapshot (default) or by replaying the log from its start. */
  firstSync?: 'snapshot' | 'log';
  pullLimit?: number;
  snapshotLimit?: number;
  /** Mutations per push. */
  pushBatch?: number;
  /** Reconnect delays after the server answered with an error: the first, doubling up to the last, each with random jitter. */
  backoff?: { initialMs: number; maxMs: number };
  /**
   * While the server does not answer at all (connection refused or cut, no
   * route), the next attempt comes within this (1 s): asking costs the server
   * nothing, and the desk shows it back within about a second, however long it
   * was away.
   */
  probeMs?: number;
  /** Source of jitter (tests make it deterministic). */
  random?: () => number;
}

/**
 * The desk's client id for an account: one per replica and account, kept in
 * the replica's meta so a restart keeps sending under the same id (the server
 * binds it to the account on first use).
 */
export async function clientIdFor(replica: Replica, accountKey: string | number): Promise<string> {
  const key = `sync.client_id.${accountKey}`;
  const existing = await replica.getMeta(key);
  if (existing) return existing;
  const id = randomUUID();
  await replica.setMeta(key, id);
  return id;
}

/** How long local changes must pause before they are pushed, and the longest a first one waits (decision 118). */
const PUSH_SETTLE_MS = 25;
const PUSH_MAX_WAIT_MS = 250;

/** The server answered (a rule, a guard); anything else is the network or the server being away. */
function answeredByServer(err: unknown): err is DomainError {
  return err instanceof DomainError;
}

/** Key of the last row of a snapshot page: where the next page starts. */
function lastKey(table: ReplicatedTable, rows: readonly Record<string, unknown>[]): RowKey | null {
  const last = rows.at(-1);
  if (!last) return null;
  return Object.fromEntries(replicatedTables[table].key.map((k) => [k, Number(last[k])]));
}

/**
 * The sync loop of a desk: push the outbox in order, then pull until up to
 * date; a poke starts another round (one round at a time, one more queued if
 * poked meanwhile); a failure turns the desk offline and retries with
 * exponential backoff and jitter while the outbox waits.
 *
 * A pushed mutation stays pending (and visible) until a pull's lastMutationId
 * covers it, so its effect never disappears between the push answer and the
 * pull that brings the server's rows.
 */
export function createSyncClient(options: SyncClientOptions): SyncClient {
  const { replica, link, clientId } = options;
  const db = replica.db;
  const firstSyncMode = options.firstSync ?? 'snapshot';
  const pullLimit = options.pullLimit ?? 1000;
  const snapshotLimit = options.snapshotLimit ?? 5000;
  const pushBatch = options.pushBatch ?? 100;
  // Capped at 10 s: a desk whose network is back should send its queue within seconds, and one
  // request every few seconds to the studio's own server costs nothing.
  const analyzeEveryRows = 10_000;
  const backoff = options.backoff ?? { initialMs: 500, maxMs: 10_000 };
  const probeMs = options.probeMs ?? 1_000;
  const random = options.random ?? Math.random;

  const listeners = new Set<(event: SyncChangeEvent) => void>();
  let status: SyncStatus = { online: false, pending: 0, syncing: false, ready: false, lastSyncAt: null, lastError: null, rejections: [], adoptions: [] };
  let started = false;
  let stopped = false;
  /** The server has every mutation up to this id (from push answers); later ones are sent next. */
  let pushedThrough = 0;
  let exchangeOk = false;
  let pokeOpen = false;
  let closePoke: (() => void) | null = null;
  let pokeGeneration = 0;
  let failures = 0;
  let retryTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the scheduled retry fires (a sooner one replaces it). */
  let retryDue = 0;
  let followUpTimer: ReturnType<typeof setTimeout> | null = null;
  let heldTimer: ReturnType<typeof setTimeout> | null = null;
  let heldDelayMs = 0;
  /** A push after local changes waits for them to pause (scans in a row), at most PUSH_MAX_WAIT_MS from the first. */
  let pushTimer: ReturnType<typeof setTimeout> | null = null;
  let pushFirstAt = 0;
  /** Rows pulled since the planner's statistics were last gathered. */
  let rowsSinceAnalyze = 0;
  let inflight: Promise<void> | null = null;
  let queued: Promise<void> | null = null;

  /**
   * The rejections and notices staff read change only when the server answers a push, a reset is reviewed, or staff
   * dismiss one: read again then, not after every check-in.
   */
  let staffListsStale = true;

  async function refreshStatus(patch: Partial<SyncStatus> = {}): Promise<void> {
    // One round trip for the counters: this runs after every mutation, on the check-in path.
    const [row] = await query<{ pending: number; ready: string | null; last_sync_at: string | null }>(
      db,
      sql`select (select count(*)::int from desk.outbox where client_id = ${clientId})
                 + (select count(*)::int from desk.held where client_id = ${clientId}) as pending,
                 (select value from desk.meta where key = ${metaKeys.ready}) as ready,
                 (select value from desk.meta where key = ${metaKeys.lastSyncAt}) as last_sync_at`,
    );
    status = {
      ...status,
      ...patch,
      online: exchangeOk && pokeOpen,
      pending: row?.pending ?? 0,
      ready: row?.ready === 'true',
      lastSyncAt: row?.last_sync_at ?? null,
    };
    if (staffListsStale) {
      staffListsStale = false;
      status = { ...status, rejections: await listRejections(db, clientId), adoptions: await listAdoptions(db, clientId) };
    }
  }

  function emit(tables: readonly ReplicatedTable[]): void {
    const event: SyncChangeEvent = { tables: [...new Set(tables)], status };
    for (const listener of listeners) {
      try {
        listener(event);
      } catch {
        // A listener's bug must not stop the sync loop.
      }
    }
  }

  async function changed(tables: readonly ReplicatedTable[], patch: Partial<SyncStatus> = {}): Promise<void> {
    await refreshStatus(patch);
    emit(tables);
  }

  async function pullUntilDone(): Promise<void> {
    for (;;) {
      const cursor = await replica.getMeta(metaKeys.cursor);
      const page = await link.pull({ clientId, cursor, limit: pullLimit });
      const tables = await applyPullPage(db, clientId, page);
      exchangeOk = true;
      rowsSinceAnalyze += page.changes.length;
      await changed(tables);
      if (page.more) continue;
      if (rowsSinceAnalyze >= analyzeEveryRows && (await replica.getMeta(metaKeys.ready)) === 'true') await refreshPlannerStatistics();
      if (page.held) scheduleHeldPull();
      else heldDelayMs = 0;
      return;
    }
  }

  /**
   * Changes committed on the server but held behind an older transaction
   * (another connection's long transaction, in any database of the cluster)
   * already sent their poke: pull again shortly, waiting longer while the
   * horizon stays put (50 ms doubling to 2 s).
   */
  function scheduleHeldPull(): void {
    if (stopped || heldTimer) return;
    heldDelayMs = Math.min(2_000, heldDelayMs ? heldDelayMs * 2 : 50);
    heldTimer = setTimeout(() => {
      heldTimer = null;
      background(requestSync());
    }, heldDelayMs);
  }

  async function firstSync(): Promise<void> {
    if (firstSyncMode === 'snapshot') {
      // Restarted from scratch if interrupted: the rows copied so far may predate the new position.
      await db.transaction(async (tx) => {
        await tx.execute(sql`delete from desk.undo`);
        await wipeReplicatedTables(tx);
        await writeMeta(tx, metaKeys.cursor, null);
      });
      const { cursor } = await link.position({ clientId });
      for (const table of replicatedTableNames) {
        let after: RowKey | null = null;
        for (;;) {
          const page = await link.snapshot({ clientId, table, after, limit: snapshotLimit });
          await applySnapshotRows(db, table, page.rows);
          after = lastKey(table, page.rows) ?? after;
          if (!page.more || !page.rows.length) break;
        }
      }
      exchangeOk = true;
      await replica.setMeta(metaKeys.cursor, cursor);
      await changed([...replicatedTableNames]);
    }
    await pullUntilDone();
    await refreshPlannerStatistics();
    await replica.setMeta(metaKeys.ready, 'true');
    await changed([]);
  }

  /**
   * PGlite runs no autovacuum, so nothing gathers statistics: after a bulk
   * load the planner guesses and the desk's searches scan every customer
   * (measured: 8 ms p50 / 54 ms p95 before, 1.6 / 2.8 ms after, over 20,000).
   * Run after the first sync and whenever many rows have arrived since.
   */
  async function refreshPlannerStatistics(): Promise<void> {
    rowsSinceAnalyze = 0;
    await db.execute(sql`analyze`);
  }

  async function pushPending(): Promise<void> {
    for (;;) {
      const batch = (await pendingOf(db, clientId)).filter((m) => m.mutation_id > pushedThrough).slice(0, pushBatch);
      if (!batch.length) return;
      let answer;
      try {
        answer = await link.push({
          clientId,
          // A server whose history no longer has this position refuses rather than apply changes made against it (decision 078).
          cursor: await replica.getMeta(metaKeys.cursor),
          // Stored as they were validated by mutate's types; the server parses them again.
          // A registration says its temporary id, so the server can tell later changes that name it who it became.
          mutations: batch.map(
            (m) =>
              ({ id: m.mutation_id, name: m.name, args: m.args, at: m.created_at, ...(m.name === 'registerCustomer' ? { temp_id: m.temp_id } : {}) }) as PushInput['mutations'][number],
          ),
        });
      } catch (err) {
        if (answeredByServer(err) && err.code === 'sync/mutation-gap') {
          if (pushedThrough > 0) {
            // The server lacks earlier mutations than we thought sent: send everything pending again, in order.
            pushedThrough = 0;
            continue;
          }
          // It lacks mutations this desk no longer holds: its database was replaced. The pull says so
          // (sync/reset-required, handled by the round); if it does not, retrying later is all there is.
          await pullUntilDone();
        }
        throw err;
      }
      exchangeOk = true;
      const before = pushedThrough;
      for (const result of answer.results) {
        if (result.created_id) {
          await adoptServerId(db, clientId, { mutationId: result.id, customerId: result.created_id, notice: result.notice ?? null });
          staffListsStale = true;
          await changed([]);
        }
        if (result.status === 'rejected' || (result.status === 'duplicate' && result.code)) {
          staffListsStale = true;
          const tables = await rejectMutation(db, clientId, result.id, {
            code: result.code ?? 'internal',
            message: result.message ?? (domainErrors as Record<string, { message: string }>)[result.code ?? '']?.message ?? domainErrors.internal.message,
          });
          await changed(tables);
        }
        pushedThrough = Math.max(pushedThrough, result.id);
      }
      pushedThrough = Math.max(pushedThrough, Math.min(answer.lastMutationId, batch.at(-1)?.mutation_id ?? 0));
      if (pushedThrough === before) return;
    }
  }

  /**
   * Work started by a timer, a poke or a mutation has no caller to report to;
   * its failures are already in the status. After stop() the replica may be
   * closed under it, which is expected.
   */
  function background(work: Promise<unknown>): void {
    work.catch(() => {});
  }

  async function cycle(): Promise<void> {
    if (stopped) return;
    try {
      await changed([], { syncing: true });
      if ((await replica.getMeta(metaKeys.ready)) !== 'true') await firstSync();
      // Changes kept aside by a reset go back in the queue (or to the refused list) once the snapshot is here.
      const reviewed = await reviewHeld(db, clientId);
      if (reviewed.refused > 0) staffListsStale = true;
      if (reviewed.requeued + reviewed.refused > 0) await changed(reviewed.tables);
      await pushPending();
      await pullUntilDone();
      failures = 0;
      await changed([], { syncing: false, lastError: null });
      scheduleFollowUp();
    } catch (err) {
      if (stopped) return;
      try {
        if (answeredByServer(err) && err.code === 'sync/reset-required') {
          await resetReplica(db, { clientId, through: pushedThrough });
          pushedThrough = 0;
          await changed([...replicatedTableNames], { syncing: false, lastError: err.message });
          scheduleRetry(0);
          return;
        }
        exchangeOk = false;
        await changed([], { syncing: false, lastError: answeredByServer(err) ? err.message : texts.desk.connectionLost });
      } catch {
        // The replica itself failed (closed, disk full): the retry below tries the whole round again.
      }
      // A server that answered with an error gets room (backoff); one that did not answer is asked again soon.
      scheduleRetry(answeredByServer(err) ? backoffDelay() : probeMs / 2 + (random() * probeMs) / 2);
    }
  }

  /**
   * Local changes are pushed once they pause for PUSH_SETTLE_MS: a line of
   * scans is answered without each scan's push and echo competing with the
   * next one for the replica, and goes up in one round instead of many.
   */
  function pushSoon(): void {
    const now = Date.now();
    if (pushTimer) clearTimeout(pushTimer);
    else pushFirstAt = now;
    pushTimer = setTimeout(
      () => {
        pushTimer = null;
        background(requestSync());
      },
      Math.max(0, Math.min(PUSH_SETTLE_MS, pushFirstAt + PUSH_MAX_WAIT_MS - now)),
    );
  }

  /** One round at a time; a request during a round queues exactly one more. */
  function requestSync(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (!inflight) {
      inflight = cycle().finally(() => {
        inflight = null;
      });
      return inflight;
    }
    queued ??= inflight.then(() => {
      queued = null;
      return requestSync();
    });
    return queued;
  }

  function backoffDelay(): number {
    const base = Math.min(backoff.maxMs, backoff.initialMs * 2 ** Math.min(failures, 20));
    failures += 1;
    return base / 2 + (random() * base) / 2;
  }

  function scheduleRetry(delay: number = backoffDelay()): void {
    if (stopped) return;
    const due = Date.now() + delay;
    if (retryTimer && retryDue <= due) return;
    if (retryTimer) clearTimeout(retryTimer);
    retryDue = due;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      if (!pokeOpen) openPoke();
      background(requestSync());
    }, delay);
  }

  /**
   * Mutations the server took but no pull has covered yet wait for the
   * transactions before them to finish; the poke of a later write would
   * bring them, but a quiet server sends none, so pull again shortly.
   */
  function scheduleFollowUp(): void {
    if (stopped || followUpTimer) return;
    background(
      pendingOf(db, clientId).then((pending) => {
        if (stopped || followUpTimer || !pending.some((m) => m.mutation_id <= pushedThrough)) return;
        followUpTimer = setTimeout(() => {
          followUpTimer = null;
          background(requestSync());
        }, 250);
      }),
    );
  }

  function openPoke(): void {
    if (stopped) return;
    closePoke?.();
    closePoke = null;
    // Events of a channel already replaced (a late poke, a late error) are ignored.
    const generation = ++pokeGeneration;
    const current = () => generation === pokeGeneration && !stopped;
    const lost = () => {
      pokeOpen = false;
      closePoke?.();
      closePoke = null;
      background(changed([], { lastError: texts.desk.connectionLost }));
      scheduleRetry();
    };
    try {
      const close = link.subscribePoke(
        { clientId },
        {
          onPoke() {
            if (!current()) return;
            if (!pokeOpen) {
              pokeOpen = true;
              background(changed([]));
            }
            background(requestSync());
          },
          onError() {
            if (current()) lost();
          },
        },
      );
      if (current()) closePoke = close;
      else close();
    } catch {
      lost();
    }
  }

  return {
    clientId,
    async start() {
      if (started) return;
      started = true;
      stopped = false;
      await refreshStatus();
      openPoke();
      await requestSync();
    },
    async stop() {
      stopped = true;
      if (retryTimer) clearTimeout(retryTimer);
      if (followUpTimer) clearTimeout(followUpTimer);
      if (heldTimer) clearTimeout(heldTimer);
      if (pushTimer) clearTimeout(pushTimer);
      pushTimer = null;
      retryTimer = null;
      followUpTimer = null;
      heldTimer = null;
      closePoke?.();
      closePoke = null;
      pokeOpen = false;
      await (queued ?? inflight ?? Promise.resolve()).catch(() => {});
      started = false;
    },
    async mutate<N extends DeskMutationName>(name: N, args: DeskMutationArgs<N>) {
      const { mutationId, tempId, tables } = await recordMutation(db, clientId, name, args);
      // One more change waiting in the outbox: counted here, not read again, so the caller (a scan) answers sooner.
      status = { ...status, pending: status.pending + 1 };
      emit(tables);
      if (started && !stopped) pushSoon();
      return { mutationId, tempId };
    },
    async syncNow() {
      // Started now, or queued after a round that may have begun before the caller's last change.
      await requestSync();
    },
    status: () => status,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async dismissRejection(mutationId) {
      await dismissRejection(db, clientId, mutationId);
      staffListsStale = true;
      await changed([]);
    },
    serverCustomerId: (tempId) => adoptedCustomerId(db, tempId),
    async dismissAdoption(mutationId) {
      await dismissAdoption(db, clientId, mutationId);
      staffListsStale = true;
      await changed([]);
    },
  };
}
