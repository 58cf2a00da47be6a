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
import { loadReplicaSettings, replicaSettings, runMutator } from './mutators/index.ts';
import { executeStatement, prepareReplicaStatements, replicaStatement } from './prepared.ts';
import { metaKeys, query, writeMeta } from './replica.ts';
import { resolveRejectionSubject, type RejectionSubject } from './rejection-subject.ts';
import { replicated } from './tables.ts';
import type { SyncAdoption, SyncRejection } from './types.ts';

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

const storeMutation = replicaStatement(
  'desk_store_mutation',
  ['text', 'text', 'jsonb', 'timestamptz'],
  `with ids as (
     insert into desk.client (client_id, last_mutation_id) values ($1, 1)
     on conflict (client_id) do update set last_mutation_id = desk.client.last_mutation_id + 1
     returning last_mutation_id as mutation_id, nextval('desk.temp_id')::int as temp_id),
   stored as (
     insert into desk.outbox (client_id, mutation_id, name, args, temp_id, created_at)
     select $1, ids.mutation_id, $2, $3, ids.temp_id, $4 from ids
     returning seq, mutation_id, temp_id)
   select mutation_id, temp_id, set_config('desk.capture', seq::text, true) as capture from stored`,
);

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
): Promise<{ mutationId: number; tempId: number; tables: ReplicatedTable[] }> {
  const settings = await replicaSettings(db);
  await prepareReplicaStatements(db);
  return db.transaction(async (tx) => {
    // A row made offline (a walk-in's reservation) has a temporary id the server has never seen; it gets its real id with
    // the next pull. A customer registered offline is the exception (decision 113): the push says which id it became.
    for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
      if (typeof value !== 'number' || value >= 0) continue;
      const adopted = key === 'customer_id' ? await adoptedCustomerId(tx, value) : null;
      if (adopted !== null) args = { ...args, customer_id: adopted };
      else if (key !== 'customer_id' || !(await registeredHere(tx, value))) throw new DomainError('sync/not-yet-synced');
    }
    // One prepared statement (a scan's check-in waits for it): the mutation's id, its outbox row, and the undo
    // capture's sequence, transaction-local, so the commit ends it.
    const [ids] = await executeStatement<{ mutation_id: number; temp_id: number }>(tx, storeMutation, [clientId, name, JSON.stringify(args), now]);
    if (!ids) throw new Error('no mutation id');
    const tables = await runMutator(name, { tx, now, tempId: ids.temp_id, settings }, args);
    return { mutationId: ids.mutation_id, tempId: ids.temp_id, tables: uniq(tables) };
  });
}

/** A customer this replica registered offline and the server has not yet answered for (its registration is pending). */
async function registeredHere(tx: Db | Tx, tempId: number): Promise<boolean> {
  const rows = await query<{ n: number }>(
    tx,
    sql`select count(*)::int as n from desk.outbox where name = 'registerCustomer' and temp_id = ${tempId}`,
  );
  return (rows[0]?.n ?? 0) > 0;
}

/**
 * The server answered a registration made here (decision 113): the customer's temporary id is now `customerId`
 * (a new customer, or the one whose e-mail or phone it was). Pending changes that name the temporary id name the
 * server's from now on (their next redo, and their push, use it), and the desk remembers where the temporary id
 * went, so a screen showing it follows, and what staff must be told.
 */
export async function adoptServerId(
  db: Db,
  clientId: string,
  answer: { mutationId: number; customerId: number; notice: string | null },
  at: Date = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const [registration] = await query<{ temp_id: number; args: { name?: string; last_name?: string } }>(
      tx,
      sql`select temp_id, args from desk.outbox where client_id = ${clientId} and mutation_id = ${answer.mutationId} and name = 'registerCustomer'`,
    );
    if (!registration) return;
    const typed = [registration.args.name, registration.args.last_name].filter(Boolean).join(' ');
    await tx.execute(
      sql`insert into desk.adopted (temp_id, customer_id, client_id, mutation_id, typed_name, notice, at)
          values (${registration.temp_id}, ${answer.customerId}, ${clientId}, ${answer.mutationId}, ${typed}, ${answer.notice}, ${at.toISOString()}::timestamptz)
          on conflict (temp_id) do nothing`,
    );
    await tx.execute(
      sql`update desk.outbox set args = jsonb_set(args, '{customer_id}', to_jsonb(${answer.customerId}::int))
          where args ->> 'customer_id' = ${String(registration.temp_id)}`,
    );
  });
}

/** Where a customer registered offline went: the server's id for a temporary one (null when none is known). */
export async function adoptedCustomerId(db: Db | Tx, tempId: number): Promise<number | null> {
  const rows = await query<{ customer_id: number }>(db, sql`select customer_id from desk.adopted where temp_id = ${tempId}`);
  return rows[0]?.customer_id ?? null;
}

/** Registrations made offline that turned out to be customers the server already had, until staff press 'Entendido'. */
export async function listAdoptions(db: Db | Tx, clientId: string): Promise<SyncAdoption[]> {
  const rows = await query<{ mutation_id: number; customer_id: number; typed_name: string; notice: string; at: string | Date }>(
    db,
    sql`select mutation_id, customer_id, typed_name, notice, at from desk.adopted
        where client_id = ${clientId} and notice is not null and not seen order by at, mutation_id`,
  );
  return rows.map((r) => ({ mutationId: r.mutation_id, customerId: r.customer_id, typedName: r.typed_name, notice: r.notice, at: new Date(r.at).toISOString() }));
}

export async function dismissAdoption(db: Db | Tx, clientId: string, mutationId: number): Promise<void> {
  await db.execute(sql`update desk.adopted set seen = true where client_id = ${clientId} and mutation_id = ${mutationId}`);
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
  await prepareReplicaStatements(db);
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
  await prepareReplicaStatements(db);
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
  await prepareReplicaStatements(db);
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
 * The server's history no longer has this desk's position (sync/reset-required,
 * decision 078): its database was replaced, or went back to a backup. The
 * replicated tables are emptied and the next sync is a first sync, but the
 * changes the server has not taken are not dropped: each is kept aside in
 * desk.held with whom and what it was about in this replica (before the wipe),
 * and reviewHeld checks it against the fresh snapshot. Those this server
 * answered (`taken`: the client's ids up to that one) are in its data.
 */
export async function resetReplica(db: Db, taken: { clientId: string; through: number }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from desk.undo`);
    await tx.execute(sql`delete from desk.outbox where client_id = ${taken.clientId} and mutation_id <= ${taken.through}`);
    // Named before the replicated tables are wiped.
    const kept = await query<{ client_id: string; mutation_id: number; name: string; args: unknown; created_at: string | Date }>(
      tx,
      sql`select client_id, mutation_id, name, args, created_at from desk.outbox order by seq`,
    );
    for (const m of kept) {
      const subject = await resolveRejectionSubject(tx, m.name, m.args);
      await tx.execute(
        sql`insert into desk.held (client_id, mutation_id, name, args, created_at, subject)
            values (${m.client_id}, ${m.mutation_id}, ${m.name}, ${JSON.stringify(m.args)}::jsonb, ${new Date(m.created_at).toISOString()}::timestamptz, ${JSON.stringify(subject)}::jsonb)`,
      );
    }
    await tx.execute(sql`delete from desk.outbox`);
    // The server's count of this desk's changes is what the next pull says (a replaced server: none).
    await tx.execute(sql`update desk.client set last_mutation_id = 0`);
    await wipeReplicatedTables(tx);
    await writeMeta(tx, metaKeys.cursor, null);
    await writeMeta(tx, metaKeys.ready, null);
  });
}

/** The same customer, class, package and amount: what a change was made about is still what its ids name. */
function sameSubject(before: RejectionSubject | null, now: RejectionSubject): boolean {
  if (!before) return false;
  const key = (s: RejectionSubject) =>
    JSON.stringify([s.customer?.id ?? null, s.customer?.name ?? null, s.class?.id ?? null, s.class?.name ?? null, s.class?.start ?? null, s.package, s.amount]);
  return key(before) === key(now);
}

/** Rejections of held changes are keyed by the held row (negative ids): the ids of new changes restart where the server says. */
const heldRejectionId = (seq: number) => -seq;

/**
 * After the first sync that follows a reset (decision 078): each change held
 * aside for this client, oldest first, is queued again, with a new id after
 * what the server has of this desk, and redone on the fresh snapshot, when
 * the rows it names are still the same customer, class and package as when
 * it was made; the server then decides as for any change. Otherwise (the row
 * is gone, or its id now names someone or something else) it becomes a
 * rejection staff read, never a silent loss. Each change is moved in one
 * transaction.
 */
export async function reviewHeld(db: Db, clientId: string, at: Date = new Date()): Promise<{ requeued: number; refused: number; tables: ReplicatedTable[] }> {
  const held = await query<{ seq: string | number; mutation_id: number; name: DeskMutationName; args: unknown; created_at: string | Date; subject: RejectionSubject | null }>(
    db,
    sql`select seq, mutation_id, name, args, created_at, subject from desk.held where client_id = ${clientId} order by mutation_id`,
  );
  let requeued = 0;
  let refused = 0;
  const touched: ReplicatedTable[] = [];
  for (const h of held) {
    const seq = Number(h.seq);
    const subject = typeof h.subject === 'string' ? (JSON.parse(h.subject) as RejectionSubject) : h.subject;
    await db.transaction(async (tx) => {
      await tx.execute(sql`delete from desk.held where seq = ${seq}`);
      const refuse = async (code: string, message: string) => {
        refused += 1;
        await tx.execute(
          sql`insert into desk.rejection (client_id, mutation_id, name, args, code, message, at, subject)
              values (${clientId}, ${heldRejectionId(seq)}, ${h.name}, ${JSON.stringify(h.args)}::jsonb, ${code}, ${message},
                      ${at.toISOString()}::timestamptz, ${JSON.stringify(subject)}::jsonb)
              on conflict do nothing`,
        );
      };
      if (!sameSubject(subject, await resolveRejectionSubject(tx, h.name, h.args))) {
        await refuse('sync/restored-changed', domainErrors['sync/restored-changed'].message);
        return;
      }
      try {
        const again = await recordMutation(tx as unknown as Db, clientId, h.name, h.args as DeskMutationArgs<typeof h.name>, new Date(h.created_at));
        touched.push(...again.tables);
        requeued += 1;
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        await refuse(err.code, err.message);
      }
    });
  }
  return { requeued, refused, tables: uniq(touched) };
}

/** Changes of this client held aside after a reset, not yet reviewed. */
export async function heldCount(db: Db | Tx, clientId: string): Promise<number> {
  const [row] = await query<{ n: number }>(db, sql`select count(*)::int as n from desk.held where client_id = ${clientId}`);
  return row?.n ?? 0;
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
