import {
  DomainError,
  domainErrors,
  type DeskMutationArgs,
  type DeskMutationName,
  type PullOutput,
  type ReplicatedTable,
} from '@estudio/core';
import type { Db, Tx } from '@estudio/db';
import { sql } from 'drizzle-orm';
import { applyChanges, deleteRows, upsertRows, wipeReplicatedTables } from './apply.ts';
import { loadReplicaSettings, runMutator } from './mutators.ts';
import { metaKeys, query, writeMeta } from './replica.ts';
import { resolveRejectionSubject, type RejectionSubject } from './rejection-subject.ts';
import { replicated } from './tables.ts';
import type { SyncRejection } from './types.ts';

/**
 * The durable half of the sync client: the outbox, the pre-images that undo
 * pending mutations, and the rebase that every pull and every rejection goes
 * through. Each function here is one replica transaction, so a crash leaves
 * the replica either before or after it, never in between.
 *
 * Rebase: undo every pending mutation (restore the pre-images), apply what
 * the server said, then redo the pending mutations that remain, in order, on
 * top of the server's state (capturing fresh pre-images). A pending mutation
 * the replica now refuses stays in the outbox without a local effect; the
 * server decides.
 */

export interface PendingMutation {
  seq: number;
  client_id: string;
  mutation_id: number;
  name: DeskMutationName;
  args: unknown;
  temp_id: number;
  created_at: string;
}

function uniq<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}

async function setCapture(tx: Tx, seq: number | null): Promise<void> {
  await tx.execute(sql`select set_config('desk.capture', ${seq === null ? '' : String(seq)}, true)`);
}

/** Every pending mutation of the replica (all accounts), oldest first. */
export async function allPending(db: Db | Tx): Promise<PendingMutation[]> {
  const rows = await query<PendingMutation & { seq: string | number; created_at: string | Date }>(
    db,
    sql`select seq, client_id, mutation_id, name, args, temp_id, created_at from desk.outbox order by seq`,
  );
  return rows.map((r) => ({ ...r, seq: Number(r.seq), created_at: new Date(r.created_at).toISOString() }));
}

/** The pending mutations of one client, in id order. */
export async function pendingOf(db: Db | Tx, clientId: string): Promise<PendingMutation[]> {
  return (await allPending(db)).filter((m) => m.client_id === clientId).sort((a, b) => a.mutation_id - b.mutation_id);
}

/** Restores the pre-images of every pending mutation: the replica as the server last said. */
export async function undoPending(tx: Tx): Promise<ReplicatedTable[]> {
  // The oldest pre-image of each row is its state before any pending mutation touched it.
  const images = await query<{ table_name: string; row_key: Record<string, unknown>; pre_image: Record<string, unknown> | null }>(
    tx,
    sql`select distinct on (table_name, row_key) table_name, row_key, pre_image from desk.undo order by table_name, row_key, outbox_seq`,
  );
  const touched: ReplicatedTable[] = [];
  for (const info of replicated) {
    const mine = images.filter((i) => i.table_name === info.name);
    if (!mine.length) continue;
    await deleteRows(
      tx,
      info,
      mine.map((i) => i.row_key),
    );
    await upsertRows(
      tx,
      info,
      mine.flatMap((i) => (i.pre_image ? [i.pre_image] : [])),
    );
    touched.push(info.name);
  }
  await tx.execute(sql`delete from desk.undo`);
  return touched;
}

/** Redoes every pending mutation in order, each in a savepoint so one the replica refuses leaves nothing. */
export async function redoPending(tx: Tx): Promise<ReplicatedTable[]> {
  const pending = await allPending(tx);
  if (!pending.length) return [];
  const settings = await loadReplicaSettings(tx);
  const touched: ReplicatedTable[] = [];
  for (const m of pending) {
    try {
      await tx.transaction(async (sp) => {
        await setCapture(sp, m.seq);
        touched.push(
          ...(await runMutator(m.name, { tx: sp, now: new Date(m.created_at), tempId: m.temp_id, settings }, m.args as DeskMutationArgs<typeof m.name>)),
        );
      });
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
    }
  }
  await setCapture(tx, null);
  return uniq(touched);
}

/**
 * Applies a mutation locally and stores it in the outbox, in one transaction:
 * a crash keeps both or neither. Throws the mutator's DomainError (nothing
 * stored) when the replica shows the server would refuse.
 */
export async function recordMutation<N extends DeskMutationName>(
  db: Db,
  clientId: string,
  name: N,
  args: DeskMutationArgs<N>,
  now: Date = new Date(),
): Promise<{ mutationId: number; tables: ReplicatedTable[] }> {
  // A row made offline (a walk-in's reservation) has a temporary id the server has never seen; it gets its real id with the next pull.
  if (Object.values(args as Record<string, unknown>).some((v) => typeof v === 'number' && v < 0)) throw new DomainError('sync/not-yet-synced');
  return db.transaction(async (tx) => {
    const settings = await loadReplicaSettings(tx);
    const [ids] = await query<{ mutation_id: number; temp_id: number }>(
      tx,
      sql`insert into desk.client (client_id, last_mutation_id) values (${clientId}, 1)
          on conflict (client_id) do update set last_mutation_id = desk.client.last_mutation_id + 1
          returning last_mutation_id as mutation_id, nextval('desk.temp_id')::int as temp_id`,
    );
    if (!ids) throw new Error('no mutation id');
    const [stored] = await query<{ seq: string | number }>(
      tx,
      sql`insert into desk.outbox (client_id, mutation_id, name, args, temp_id, created_at)
          values (${clientId}, ${ids.mutation_id}, ${name}, ${JSON.stringify(args)}::jsonb, ${ids.temp_id}, ${now.toISOString()}::timestamptz)
          returning seq`,
    );
    if (!stored) throw new Error('outbox insert returned no row');
    await setCapture(tx, Number(stored.seq));
    const tables = await runMutator(name, { tx, now, tempId: ids.temp_id, settings }, args);
    await setCapture(tx, null);
    return { mutationId: ids.mutation_id, tables: uniq(tables) };
  });
}

/** Makes sure the next mutation id is above what the server already has (a replica rebuilt, or a client id reused). */
export async function raiseMutationIds(db: Db | Tx, clientId: string, atLeast: number): Promise<void> {
  await db.execute(
    sql`insert into desk.client (client_id, last_mutation_id) values (${clientId}, ${atLeast})
        on conflict (client_id) do update set last_mutation_id = greatest(desk.client.last_mutation_id, excluded.last_mutation_id)`,
  );
}

/**
 * Applies one pull page in one transaction: undo pending, apply the page,
 * store the cursor, drop this client's mutations the page covers, redo the
 * rest. Returns the tables whose rows may have changed.
 */
export async function applyPullPage(db: Db, clientId: string, page: PullOutput, at: Date = new Date()): Promise<ReplicatedTable[]> {
  return db.transaction(async (tx) => {
    const acked = await query<{ n: number }>(
      tx,
      sql`select count(*)::int as n from desk.outbox where client_id = ${clientId} and mutation_id <= ${page.lastMutationId}`,
    );
    const rebase = page.changes.length > 0 || (acked[0]?.n ?? 0) > 0;
    const touched: ReplicatedTable[] = [];
    if (rebase) touched.push(...(await undoPending(tx)));
    touched.push(...(await applyChanges(tx, page.changes)));
    await tx.execute(sql`delete from desk.outbox where client_id = ${clientId} and mutation_id <= ${page.lastMutationId}`);
    await raiseMutationIds(tx, clientId, page.lastMutationId);
    await writeMeta(tx, metaKeys.cursor, page.cursor);
    await writeMeta(tx, metaKeys.lastSyncAt, at.toISOString());
    if (rebase) touched.push(...(await redoPending(tx)));
    return uniq(touched);
  });
}

/** Loads a snapshot page (rows of one table) in one transaction; pending mutations are rebased over it. */
export async function applySnapshotRows(db: Db, table: ReplicatedTable, rows: readonly Record<string, unknown>[]): Promise<ReplicatedTable[]> {
  return db.transaction(async (tx) => {
    const touched = await undoPending(tx);
    const info = replicated.find((t) => t.name === table);
    if (!info) throw new Error(`${table} is not replicated`);
    touched.push(...(await applyChanges(tx, rows.map((row) => ({ table, key: Object.fromEntries(info.key.map((k) => [k, Number(row[k])])), row })))));
    touched.push(...(await redoPending(tx)));
    return uniq(touched);
  });
}

/** The server refused a mutation: its effect is rolled back (undo all, redo the rest) and staff see why. */
export async function rejectMutation(
  db: Db,
  clientId: string,
  mutationId: number,
  reason: { code: string; message: string },
  at: Date = new Date(),
): Promise<ReplicatedTable[]> {
  return db.transaction(async (tx) => {
    // Named while its rows are still in the replica (before the undo), and kept with it.
    const [pending] = await query<{ name: string; args: unknown }>(tx, sql`select name, args from desk.outbox where client_id = ${clientId} and mutation_id = ${mutationId}`);
    const subject = pending ? await resolveRejectionSubject(tx, pending.name, pending.args) : null;
    const touched = await undoPending(tx);
    await tx.execute(
      sql`insert into desk.rejection (client_id, mutation_id, name, args, code, message, at, subject)
          select client_id, mutation_id, name, args, ${reason.code}, ${reason.message}, ${at.toISOString()}::timestamptz, ${subject ? JSON.stringify(subject) : null}::jsonb
          from desk.outbox where client_id = ${clientId} and mutation_id = ${mutationId}
          on conflict do nothing`,
    );
    await tx.execute(sql`delete from desk.outbox where client_id = ${clientId} and mutation_id = ${mutationId}`);
    touched.push(...(await redoPending(tx)));
    return uniq(touched);
  });
}

/**
 * The server's data was replaced (sync/reset-required): the replicated
 * tables are emptied and every pending mutation the server has not taken
 * becomes a rejection, since it was made against data that no longer exists.
 * Those this server answered (`taken`: the client's ids up to that one) are
 * in the data the next first sync copies. The next sync is a first sync.
 */
export async function resetReplica(db: Db, taken: { clientId: string; through: number }, at: Date = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from desk.undo`);
    await tx.execute(sql`delete from desk.outbox where client_id = ${taken.clientId} and mutation_id <= ${taken.through}`);
    // Named before the replicated tables are wiped.
    const lost = await query<{ client_id: string; mutation_id: number; name: string; args: unknown }>(tx, sql`select client_id, mutation_id, name, args from desk.outbox`);
    for (const m of lost) {
      const subject = await resolveRejectionSubject(tx, m.name, m.args);
      await tx.execute(
        sql`insert into desk.rejection (client_id, mutation_id, name, args, code, message, at, subject)
            values (${m.client_id}, ${m.mutation_id}, ${m.name}, ${JSON.stringify(m.args)}::jsonb, 'sync/reset-required',
                    ${domainErrors['sync/reset-required'].message}, ${at.toISOString()}::timestamptz, ${JSON.stringify(subject)}::jsonb)
            on conflict do nothing`,
      );
    }
    await tx.execute(sql`delete from desk.outbox`);
    // A replaced server has no mutations of this desk; the first pull raises the ids to what it has, if anything.
    await tx.execute(sql`update desk.client set last_mutation_id = 0`);
    await wipeReplicatedTables(tx);
    await writeMeta(tx, metaKeys.cursor, null);
    await writeMeta(tx, metaKeys.ready, null);
  });
}

export async function listRejections(db: Db | Tx, clientId: string): Promise<SyncRejection[]> {
  const rows = await query<{
    mutation_id: number;
    name: DeskMutationName;
    args: unknown;
    code: string;
    message: string;
    at: string | Date;
    subject: RejectionSubject | null;
  }>(db, sql`select mutation_id, name, args, code, message, at, subject from desk.rejection where client_id = ${clientId} order by at, mutation_id`);
  return rows.map((r) => ({
    mutationId: r.mutation_id,
    name: r.name,
    args: r.args,
    code: r.code,
    message: r.message,
    at: new Date(r.at).toISOString(),
    subject: r.subject ?? null,
  }));
}

export async function dismissRejection(db: Db | Tx, clientId: string, mutationId: number): Promise<void> {
  await db.execute(sql`delete from desk.rejection where client_id = ${clientId} and mutation_id = ${mutationId}`);
}
