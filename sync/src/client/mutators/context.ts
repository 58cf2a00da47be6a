import { configMap, type AppConfigMap, type DeskMutationArgs, type DeskMutationName, type ReplicatedTable } from '@estudio/core';
import { app_config, type Db, type Tx } from '@estudio/db';

/**
 * The desk's optimistic copies of the server's desk mutations, one file per
 * mutation, named like the server's service in `server/src/services/desk/`.
 * Each applies the mutation to the replica the way the server would, so staff
 * see the result at once, and refuses with the server's DomainError code when
 * the replica already shows the server would refuse; the rules themselves are
 * core's (`core/src/rules/desk.ts`), called by both. The server stays the
 * authority: its answer (and the next pull) replaces whatever is done here.
 *
 * Rows a mutation creates get the mutation's temporary negative id (one per
 * mutation, reused when the mutation is redone after a pull).
 */
export interface MutatorContext {
  tx: Tx;
  /** When the mutation was made at the desk (redos keep the original time). */
  now: Date;
  /** Temporary id for rows this mutation creates. */
  tempId: number;
  settings: AppConfigMap;
}

export type Mutator<N extends DeskMutationName> = (ctx: MutatorContext, args: DeskMutationArgs<N>) => Promise<ReplicatedTable[]>;

/** The studio settings the replica holds (the defaults where it holds none). */
export async function loadReplicaSettings(tx: Db | Tx): Promise<AppConfigMap> {
  const rows = await tx.select({ key: app_config.key, value: app_config.value }).from(app_config);
  return configMap(rows);
}

const settingsRead = new WeakMap<Db, Promise<AppConfigMap>>();

/**
 * The replica's settings, read once and kept until the desk copies them again (forgetReplicaSettings): every scan
 * and every mutation reads the check-in window and the time zone, and the desk copies them every few minutes at most.
 */
export function replicaSettings(db: Db): Promise<AppConfigMap> {
  let read = settingsRead.get(db);
  if (!read) {
    read = loadReplicaSettings(db);
    settingsRead.set(db, read);
    read.catch(() => settingsRead.delete(db));
  }
  return read;
}

/** The replica's settings were written: the next read takes them from the table. */
export function forgetReplicaSettings(db: Db): void {
  settingsRead.delete(db);
}
