import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { replicatedRowsWhere, replicatedTableNames, replicatedTables, type ReplicatedTable } from '@estudio/core';
import type { DbOrTx } from '@estudio/db';
import { sql } from 'drizzle-orm';
import { query } from '../src/client/replica.ts';
import { expect } from 'vitest';
import type { SyncClient, SyncServerLink } from '../src/client/types.ts';

/**
 * Rows of a replicated table as a desk receives them (hidden columns and rows removed), in key order:
 * the same text on PGlite and PostgreSQL, so a replica and the server compare
 * with toEqual.
 */
export async function tableRows(db: DbOrTx, table: ReplicatedTable): Promise<Record<string, unknown>[]> {
  const { key, hidden } = replicatedTables[table];
  const minus = hidden.map((h) => ` - '${h}'`).join('');
  const rows = await query<{ row: Record<string, unknown> }>(
    db,
    sql.raw(`select to_jsonb(t)${minus} as row from "${table}" t${replicatedRowsWhere(table) ? ` where ${replicatedRowsWhere(table)}` : ''} order by ${key.map((k) => `"${k}"`).join(', ')}`),
  );
  return rows.map((r) => (typeof r.row === 'string' ? (JSON.parse(r.row) as Record<string, unknown>) : r.row));
}

/** Every replicated table's rows. */
export async function allTableRows(db: DbOrTx): Promise<Record<ReplicatedTable, Record<string, unknown>[]>> {
  const out = {} as Record<ReplicatedTable, Record<string, unknown>[]>;
  for (const table of replicatedTableNames) out[table] = await tableRows(db, table);
  return out;
}

/** A temporary folder for replicas on disk, removed by the returned function. */
export function tempDir(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), `estudio-${prefix}-`));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * A link that can be cut: while `down`, every call fails as fetch does
 * without a network, and open poke channels report the error (as an SSE
 * stream does when the connection drops).
 */
export interface FlakyLink extends SyncServerLink {
  down: boolean;
  /** Calls made while up, by method (what the desk actually sent). */
  calls: Record<'pull' | 'push' | 'position' | 'snapshot', number>;
  cut(): void;
  restore(): void;
}

export function flakyLink(inner: SyncServerLink): FlakyLink {
  const channels = new Set<{ onError(error: unknown): void }>();
  const fail = () => Promise.reject(new TypeError('fetch failed'));
  const link: FlakyLink = {
    down: false,
    calls: { pull: 0, push: 0, position: 0, snapshot: 0 },
    cut() {
      link.down = true;
      for (const channel of [...channels]) channel.onError(new TypeError('fetch failed'));
      channels.clear();
    },
    restore() {
      link.down = false;
    },
    pull: (input) => (link.down ? fail() : (link.calls.pull++, inner.pull(input))),
    push: (input) => (link.down ? fail() : (link.calls.push++, inner.push(input))),
    position: (input) => (link.down ? fail() : (link.calls.position++, inner.position(input))),
    snapshot: (input) => (link.down ? fail() : (link.calls.snapshot++, inner.snapshot(input))),
    subscribePoke(input, handlers) {
      if (link.down) {
        queueMicrotask(() => handlers.onError(new TypeError('fetch failed')));
        return () => {};
      }
      const channel = { onError: (error: unknown) => handlers.onError(error) };
      channels.add(channel);
      const close = inner.subscribePoke(input, { onPoke: () => handlers.onPoke(), onError: (e) => channel.onError(e) });
      return () => {
        channels.delete(channel);
        close();
      };
    },
  };
  return link;
}

/** The demo staff account's customer row (recepcion@estudio.demo). */
export async function staffOf(db: DbOrTx, email = 'recepcion@estudio.demo'): Promise<{ customer_id: number }> {
  const [row] = await query<{ customer_id: number }>(db, sql`select customer_id from customer where email = ${email}`);
  if (!row) throw new Error(`${email} is not seeded`);
  return { customer_id: Number(row.customer_id) };
}

/** Waits until `check` holds (the sync loop runs in the background), or fails after `timeoutMs`. */
export async function eventually(check: () => Promise<boolean> | boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Makes the mutation with the link cut (the desk offline), then lets it
 * through: what `read` saw at the desk at once, and after the server's answer
 * arrived. The optimistic effect of every desk mutation must equal the server's.
 */
export async function optimisticThenServer<T>(
  link: FlakyLink,
  client: SyncClient,
  mutate: () => Promise<unknown>,
  read: () => Promise<T>,
): Promise<{ local: T; confirmed: T }> {
  link.cut();
  try {
    await mutate();
    const local = await read();
    link.restore();
    await eventually(() => client.status().pending === 0, 10_000, 'the mutation to be acknowledged');
    await client.syncNow();
    expect(client.status().rejections).toEqual([]);
    return { local, confirmed: await read() };
  } finally {
    link.restore();
  }
}
