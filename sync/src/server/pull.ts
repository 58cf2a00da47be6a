import { eq, sql } from 'drizzle-orm';
import {
  DomainError,
  replicatedTables,
  type PullOutput,
  type ReplicatedTable,
  type RowKey,
  type SnapshotOutput,
  type SyncChange,
  type SyncCursor,
} from '@estudio/core';
import { sync_client, type Db, type DbOrTx } from '@estudio/db';
import { keyColumns, keyString, keyValues, parseJson, query, replicatedRows, rowJson } from './sql.ts';

/** The start of the log: what a desk with an empty replica pulls from. */
export const startCursor: SyncCursor = '0:0';

/** A pull hands out changes of transactions older than the oldest one still running (decision 008). */
const snapshotXmin = sql`pg_snapshot_xmin(pg_current_snapshot())::text::bigint`;

function parseCursor(cursor: SyncCursor): { txid: bigint; changeId: bigint; stamp: bigint | null } {
  const [txid = '0', changeId = '0', stamp] = cursor.split(':');
  return { txid: BigInt(txid), changeId: BigInt(changeId), stamp: stamp === undefined ? null : BigInt(stamp) };
}

/** A change's time in microseconds: with its ids, what a cursor names (decision 078). */
const stampOf = (alias: string) => sql.raw(`(extract(epoch from ${alias}.created_at) * 1000000)::bigint`);

/**
 * Whether this log has the change `cursor` names (the start always). A desk
 * whose cursor names a change this log does not have saw a history this
 * database no longer has: the database was replaced, or went back to a
 * backup (decision 078).
 */
export async function cursorKnown(db: DbOrTx, cursor: SyncCursor): Promise<boolean> {
  const from = parseCursor(cursor);
  if (from.txid === 0n && from.changeId === 0n) return true;
  const stamp = from.stamp === null ? sql`true` : sql`${stampOf('c')} = ${from.stamp.toString()}::bigint`;
  const [row] = await query<{ known: boolean }>(
    db,
    sql`select exists (
      select 1 from sync_change c where c.txid = ${from.txid.toString()}::bigint and c.change_id = ${from.changeId.toString()}::bigint and ${stamp}
    ) as known`,
  );
  return row?.known === true;
}

const isReplicated = (name: string): name is ReplicatedTable => Object.hasOwn(replicatedTables, name);

/**
 * Binds a desk's client id to the staff account that first uses it. The
 * outbox of a desk is per account: another account reusing the id would
 * apply, or acknowledge, someone else's mutations, so it is refused.
 */
export async function bindClient(db: DbOrTx, clientId: string, customerId: number): Promise<void> {
  // Read first: every pull binds, and a known desk should not cost a write.
  const owner = async () =>
    (await db.select({ customer_id: sync_client.customer_id }).from(sync_client).where(eq(sync_client.client_id, clientId)))[0];
  let bound = await owner();
  if (!bound) {
    await db.insert(sync_client).values({ client_id: clientId, customer_id: customerId }).onConflictDoNothing({ target: sync_client.client_id });
    // Another request may have bound it between the read and the insert: whoever won owns it.
    bound = await owner();
  }
  if (bound?.customer_id !== customerId) throw new DomainError('sync/client-taken');
}

/** A change page row as read from sync_change (bigints as text: postgres.js and PGlite disagree on int8). */
interface ChangeRow {
  txid: string;
  change_id: string;
  stamp: string;
  table_name: string;
  row_key: unknown;
}

/**
 * Current rows of the given keys, one statement per table (a page of 1 000
 * changes costs at most one query per replicated table, not one per row).
 */
async function readRows(tx: DbOrTx, keysByTable: Map<ReplicatedTable, RowKey[]>): Promise<Map<string, Record<string, unknown>>> {
  const rows = new Map<string, Record<string, unknown>>();
  for (const [table, keys] of keysByTable) {
    const wanted = sql.join(
      keys.map((k) => keyValues(table, k)),
      sql`, `,
    );
    const found = await query<{ row: unknown }>(
      tx,
      // A row the desk does not receive (a health note) reads as gone: a desk that had it forgets it.
      sql`select ${rowJson(table, 't')} as row from ${sql.identifier(table)} t where ${keyColumns(table, 't')} in (${wanted})${replicatedRows(table)}`,
    );
    for (const { row } of found) {
      const value = parseJson<Record<string, unknown>>(row);
      rows.set(keyString(table, value), value);
    }
  }
  return rows;
}

/**
 * The changes after `cursor`, in commit-safe order: only transactions below
 * the snapshot's xmin (all finished), ordered by (txid, change_id), so nothing
 * can later appear behind a cursor already handed out. Each changed row comes
 * with its current state (null when deleted); a row changed several times in
 * the page comes once. Everything is read in one repeatable-read snapshot, so
 * the rows, the horizon and `lastMutationId` agree.
 *
 * Throws sync/reset-required when the cursor names a change this log never had
 * (the server's database was replaced): the desk must start again from a snapshot.
 */
export async function pullChanges(
  db: Db,
  input: { clientId: string; cursor: SyncCursor | null; limit: number },
  customerId: number,
): Promise<PullOutput> {
  await bindClient(db, input.clientId, customerId);
  const cursor = input.cursor ?? startCursor;
  const from = parseCursor(cursor);

  return db.transaction(
    async (tx) => {
      const [head] = await query<{ xmin: string }>(tx, sql`select ${snapshotXmin}::text as xmin`);
      if (!head) throw new Error('pg_current_snapshot() no respondió');
      if (!(await cursorKnown(tx, cursor))) throw new DomainError('sync/reset-required');

      const page = await query<ChangeRow>(
        tx,
        // Ordered by the bigint columns (c.txid), not by the text aliases of the select list.
        sql`select c.txid::text as txid, c.change_id::text as change_id, ${stampOf('c')}::text as stamp, c.table_name, c.row_key
          from sync_change c
          where (c.txid, c.change_id) > (${from.txid.toString()}::bigint, ${from.changeId.toString()}::bigint)
            and c.txid < ${head.xmin}::bigint
          order by c.txid, c.change_id
          limit ${input.limit}`,
      );
      const more = page.length === input.limit;
      const last = page.at(-1);
      const nextCursor: SyncCursor = last ? `${last.txid}:${last.change_id}:${last.stamp}` : cursor;

      const keysByTable = new Map<ReplicatedTable, RowKey[]>();
      const order: { table: ReplicatedTable; key: RowKey; id: string }[] = [];
      const seen = new Set<string>();
      for (const change of page) {
        if (!isReplicated(change.table_name)) continue;
        const table = change.table_name;
        // jsonb orders an object's keys its own way; desks get them in the table's key order.
        const stored = parseJson<RowKey>(change.row_key);
        const key: RowKey = Object.fromEntries(replicatedTables[table].key.map((c) => [c, Number(stored[c])]));
        const id = keyString(table, key);
        if (seen.has(id)) continue;
        seen.add(id);
        order.push({ table, key, id });
        keysByTable.set(table, [...(keysByTable.get(table) ?? []), key]);
      }
      const rows = await readRows(tx, keysByTable);
      const changes: SyncChange[] = order.map(({ table, key, id }) => ({ table, key, row: rows.get(id) ?? null }));

      // A mutation's effects are pullable once its transaction is below the horizon. When the
      // page stopped early, only transactions wholly before the cursor's are handed out.
      const done = more && last ? sql`txid < ${last.txid}::bigint` : sql`txid < ${head.xmin}::bigint`;
      const [acked] = await query<{ last: number | null }>(
        tx,
        sql`select max(mutation_id) as last from sync_mutation where client_id = ${input.clientId} and ${done}`,
      );
      // Visible changes at or past the horizon are committed but wait on an older transaction.
      const [waiting] = more
        ? [{ held: false }]
        : await query<{ held: boolean }>(tx, sql`select exists (select 1 from sync_change where txid >= ${head.xmin}::bigint) as held`);
      return { cursor: nextCursor, changes, more, lastMutationId: Number(acked?.last ?? 0), held: waiting?.held === true };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
}

/**
 * Where a snapshot starts: the last change a pull could hand out now. Rows
 * copied after this call already include everything up to it; pulling from it
 * replays later changes, which is idempotent.
 */
export async function logPosition(db: DbOrTx): Promise<{ cursor: SyncCursor }> {
  const [last] = await query<{ txid: string; change_id: string; stamp: string }>(
    db,
    sql`select c.txid::text as txid, c.change_id::text as change_id, ${stampOf('c')}::text as stamp from sync_change c
      where c.txid < ${snapshotXmin}
      order by c.txid desc, c.change_id desc limit 1`,
  );
  return { cursor: last ? `${last.txid}:${last.change_id}:${last.stamp}` : startCursor };
}

/**
 * A log restored into another PostgreSQL cluster (pg_dump, then pg_restore on
 * a new server) carries the old cluster's transaction ids, which may lie
 * ahead of the new one's: its changes would never pass the pull's horizon,
 * and the new changes would sort before them. Run once at start, under the
 * migrations' lock (decision 077): when the log holds a transaction id this
 * cluster has not reached, every change and desk mutation of the restored
 * history moves to transaction 1, before everything new, and the desks,
 * whose cursors name the old ids, start again from a snapshot. Answers how
 * many changes moved (0 for a log that is this cluster's own).
 */
export async function rebaseRestoredLog(db: Db): Promise<number> {
  const [top] = await query<{ ahead: boolean }>(
    db,
    sql`select coalesce((select max(txid) from sync_change), 0) >= pg_current_xact_id()::text::bigint as ahead`,
  );
  if (!top?.ahead) return 0;
  return db.transaction(async (tx) => {
    const moved = await query<{ n: number }>(tx, sql`with m as (update sync_change set txid = 1 where txid <> 1 returning 1) select count(*)::int as n from m`);
    await tx.execute(sql`update sync_mutation set txid = 1 where txid <> 1`);
    return moved[0]?.n ?? 0;
  });
}

/** One page of a table's current rows in key order (hidden columns removed), for a first sync. */
export async function snapshotPage(
  db: DbOrTx,
  input: { table: ReplicatedTable; after: RowKey | null; limit: number },
): Promise<SnapshotOutput> {
  const { table } = input;
  // A key missing one of the table's key columns would reach SQL as an undefined value: a client's mistake, a 400.
  if (input.after && replicatedTables[table].key.some((column) => typeof input.after?.[column] !== 'number')) {
    throw new DomainError('validation');
  }
  const after = input.after ? sql`where ${keyColumns(table, 't')} > ${keyValues(table, input.after)}${replicatedRows(table)}` : sql`where true${replicatedRows(table)}`;
  const found = await query<{ row: unknown }>(
    db,
    sql`select ${rowJson(table, 't')} as row from ${sql.identifier(table)} t ${after}
      order by ${sql.join(
        replicatedTables[table].key.map((c) => sql`t.${sql.identifier(c)}`),
        sql`, `,
      )}
      limit ${input.limit + 1}`,
  );
  const rows = found.slice(0, input.limit).map(({ row }) => parseJson<Record<string, unknown>>(row));
  return { rows, more: found.length > input.limit };
}
