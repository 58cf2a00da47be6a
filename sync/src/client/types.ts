import type {
  DeskMutationArgs,
  DeskMutationName,
  PullOutput,
  PushInput,
  PushOutput,
  ReplicatedTable,
  RowKey,
  SnapshotOutput,
  SyncCursor,
} from '@estudio/core';
import type { Db } from '@estudio/db';
import type { RejectionSubject } from './rejection-subject.ts';

export type { RejectionSubject };

/**
 * The contract between the sync client (sync/src/client) and the desk
 * (desktop/). Agreed before either was written; change it only together.
 */

/** How a sync client reaches the server: tRPC over HTTP in the desk, direct service calls in tests. */
export interface SyncServerLink {
  pull(input: { clientId: string; cursor: SyncCursor | null; limit?: number }): Promise<PullOutput>;
  push(input: PushInput): Promise<PushOutput>;
  /** The log position a snapshot starts from. */
  position(input: { clientId: string }): Promise<{ cursor: SyncCursor }>;
  snapshot(input: { clientId: string; table: ReplicatedTable; after: RowKey | null; limit?: number }): Promise<SnapshotOutput>;
  /**
   * Live poke: onPoke whenever the server's log moves (and once on connect);
   * onError when the channel drops (the client reconnects with backoff).
   * Returns a function that closes the channel.
   */
  subscribePoke(input: { clientId: string }, handlers: { onPoke(): void; onError(error: unknown): void }): () => void;
}

/** A mutation the server refused: rolled back locally, shown to staff until dismissed. */
export interface SyncRejection {
  mutationId: number;
  name: DeskMutationName;
  args: unknown;
  /** DomainError code and its Spanish message, as the server sent them. */
  code: string;
  message: string;
  at: string;
  /** Whom and what it was about (customer, phone, class, package), resolved against the replica when it arrived; null for rejections stored before. */
  subject: RejectionSubject | null;
}

/** A customer registered offline whose e-mail or phone the server already had: staff are told whose account it was. */
export interface SyncAdoption {
  mutationId: number;
  /** The existing customer the desk's changes went to. */
  customerId: number;
  /** The name staff typed. */
  typedName: string;
  notice: string;
  at: string;
}

export interface SyncStatus {
  /** The last exchange with the server succeeded and the poke channel is open. */
  online: boolean;
  /** Mutations made here and not yet acknowledged by a pull. */
  pending: number;
  syncing: boolean;
  /** The replica holds a complete first sync. */
  ready: boolean;
  lastSyncAt: string | null;
  /** Spanish text of the last connection problem, for the indicator's tooltip. */
  lastError: string | null;
  rejections: SyncRejection[];
  /** Registrations made offline that the server matched to existing customers, until dismissed. */
  adoptions: SyncAdoption[];
}

export interface SyncChangeEvent {
  /** Tables whose rows changed (pulled, mutated locally, or rolled back). */
  tables: ReplicatedTable[];
  status: SyncStatus;
}

/** A PGlite replica with the server's schema (db migrations) and the client's own bookkeeping tables. */
export interface Replica {
  /** Drizzle over the replica, typed with the server's schema: the desk reads with it. */
  readonly db: Db;
  /** Small durable key-value store (desk session, client ids per account). */
  getMeta(key: string): Promise<string | null>;
  setMeta(key: string, value: string | null): Promise<void>;
  close(): Promise<void>;
}

export interface SyncClient {
  readonly clientId: string;
  /** Loads the outbox, does the first sync if needed, opens the poke channel; never throws for a network failure. */
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * Applies a mutation to the replica at once (optimistic), stores it in the
   * durable outbox in the same transaction, and sends it in the background.
   * Throws DomainError when it cannot apply locally (e.g. the reservation is
   * not in the replica), before anything is stored.
   */
  /** Records a change here and queues it; `tempId` is the temporary id of what it creates (a customer registered offline). */
  mutate<N extends DeskMutationName>(name: N, args: DeskMutationArgs<N>): Promise<{ mutationId: number; tempId: number }>;
  /** Push what is pending, then pull until up to date. */
  syncNow(): Promise<void>;
  status(): SyncStatus;
  onChange(listener: (event: SyncChangeEvent) => void): () => void;
  dismissRejection(mutationId: number): Promise<void>;
  /** The server's id for a customer registered here offline under `tempId`, once it answered (null before). */
  serverCustomerId(tempId: number): Promise<number | null>;
  /** Staff read that a registration made offline went to an existing customer. */
  dismissAdoption(mutationId: number): Promise<void>;
}
