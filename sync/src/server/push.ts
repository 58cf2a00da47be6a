import { and, eq, sql } from 'drizzle-orm';
import { DomainError, type DeskMutation, type MutationResult, type PushOutput } from '@estudio/core';
import { sync_client, sync_mutation, type Db, type Tx } from '@estudio/db';
import { bindClient, cursorKnown } from './pull.ts';

/** Whoever pushes: the signed-in staff account (its customer row). */
export interface SyncStaff {
  customer_id: number;
}

/** Which desk pushed a mutation, and when staff did it there (the desk's clock; the push's time when the desk did not say). */
export interface MutationOrigin {
  clientId: string;
  at: Date;
}

/**
 * Applies one desk mutation inside the push's transaction (a savepoint). It
 * throws DomainError to refuse by a domain rule; anything else fails the push.
 * A change that creates what the desk named with a temporary id answers the
 * server's id (`created_id`), and what staff should know about it (`notice`).
 */
export type ApplyMutation<S extends SyncStaff> = (tx: Tx, staff: S, mutation: DeskMutation, now: Date, origin: MutationOrigin) => Promise<unknown>;

function createdBy(value: unknown): { created_id: number; notice: string | null } | null {
  if (!value || typeof value !== 'object' || !('created_id' in value) || typeof value.created_id !== 'number') return null;
  const notice = 'notice' in value && typeof value.notice === 'string' ? value.notice : null;
  return { created_id: value.created_id, notice };
}

/**
 * A change that names a customer by the temporary id of one this desk registered offline (decision 113): the id
 * the server gave that registration, read from the desk's own applied changes. A registration the server refused
 * leaves nobody to name: the change is refused too.
 */
async function withServerIds(tx: Tx, clientId: string, mutation: DeskMutation): Promise<DeskMutation> {
  const args = mutation.args as Record<string, unknown>;
  const temp = args.customer_id;
  if (typeof temp !== 'number' || temp >= 0) return mutation;
  const [created] = await tx
    .select({ id: sync_mutation.created_id })
    .from(sync_mutation)
    .where(and(eq(sync_mutation.client_id, clientId), eq(sync_mutation.temp_id, temp), eq(sync_mutation.status, 'applied')));
  if (!created?.id) throw new DomainError('sync/new-customer-missing');
  return { ...mutation, args: { ...args, customer_id: created.id } } as DeskMutation;
}

/**
 * Applies a desk's mutations in order, each exactly once, each in its own
 * transaction that:
 * 1. locks the desk's sync_client row (so two pushes of one desk, from a retry
 *    or a second connection, take turns; no other path locks this row, so it
 *    cannot break the customer → credits → class order of decision 006 that
 *    `apply` follows);
 * 2. answers `duplicate` (with the stored outcome) for ids already done, and
 *    refuses a gap (sync/mutation-gap, 409): ids are consecutive per desk;
 * 3. runs `apply` under a savepoint: a DomainError undoes its effects and is
 *    recorded as `rejected` with the Spanish message; any other error fails the
 *    push (the desk retries; what committed before is answered as duplicate);
 * 4. records sync_mutation (with its txid, for the pull's lastMutationId) and
 *    last_mutation_id in the same transaction as the effect.
 */
export async function pushMutations<S extends SyncStaff>(
  db: Db,
  input: { clientId: string; mutations: DeskMutation[]; cursor?: string | null | undefined },
  staff: S,
  apply: ApplyMutation<S>,
): Promise<PushOutput> {
  const results: MutationResult[] = [];
  let lastMutationId = 0;
  // Bound once, before the row is locked: the insert of a new desk's row is the only write that does not need the lock.
  await bindClient(db, input.clientId, staff.customer_id);
  // Changes made against a history this database no longer has (it went back to a backup) are not applied blindly:
  // the desk takes a fresh snapshot and checks each one against it first (decision 078).
  if (input.cursor && !(await cursorKnown(db, input.cursor))) throw new DomainError('sync/reset-required');
  for (const mutation of input.mutations) {
    const outcome = await db.transaction(async (tx) => {
      const [client] = await tx
        .select({ customer_id: sync_client.customer_id, last: sync_client.last_mutation_id })
        .from(sync_client)
        .where(eq(sync_client.client_id, input.clientId))
        .for('update');
      if (!client) throw new Error(`sync_client ${input.clientId} desapareció`);
      if (client.customer_id !== staff.customer_id) throw new DomainError('sync/client-taken');

      if (mutation.id <= client.last) {
        const [stored] = await tx
          .select({
            status: sync_mutation.status,
            code: sync_mutation.error_code,
            message: sync_mutation.error_message,
            created_id: sync_mutation.created_id,
            notice: sync_mutation.notice,
          })
          .from(sync_mutation)
          .where(and(eq(sync_mutation.client_id, input.clientId), eq(sync_mutation.mutation_id, mutation.id)));
        const result: MutationResult = { id: mutation.id, status: 'duplicate' };
        // A replayed rejection still carries its reason: the desk that lost the first answer must roll it back.
        if (stored?.status === 'rejected') {
          if (stored.code) result.code = stored.code;
          if (stored.message) result.message = stored.message;
        }
        // So is what an applied registration created: the desk follows the customer to the server's id.
        if (stored?.created_id) result.created_id = stored.created_id;
        if (stored?.notice) result.notice = stored.notice;
        return { result, last: client.last };
      }
      if (mutation.id > client.last + 1) throw new DomainError('sync/mutation-gap');

      const now = new Date();
      let result: MutationResult;
      let created: ReturnType<typeof createdBy> = null;
      try {
        const origin = { clientId: input.clientId, at: mutation.at ? new Date(mutation.at) : now };
        created = createdBy(
          await tx.transaction(async (savepoint) => apply(savepoint, staff, await withServerIds(savepoint, input.clientId, mutation), now, origin)),
        );
        result = { id: mutation.id, status: 'applied' };
        if (created && mutation.temp_id !== undefined) {
          result.created_id = created.created_id;
          if (created.notice) result.notice = created.notice;
        } else created = null;
      } catch (error) {
        if (!(error instanceof DomainError)) throw error;
        result = { id: mutation.id, status: 'rejected', code: error.code, message: error.message };
      }
      await tx.insert(sync_mutation).values({
        client_id: input.clientId,
        mutation_id: mutation.id,
        customer_id: staff.customer_id,
        txid: sql`pg_current_xact_id()::text::bigint`,
        name: mutation.name,
        args: mutation.args,
        status: result.status === 'rejected' ? 'rejected' : 'applied',
        error_code: result.code ?? null,
        error_message: result.message ?? null,
        temp_id: mutation.temp_id ?? null,
        created_id: created?.created_id ?? null,
        notice: created?.notice ?? null,
      });
      await tx
        .update(sync_client)
        .set({ last_mutation_id: mutation.id, updatedAt: now })
        .where(eq(sync_client.client_id, input.clientId));
      return { result, last: mutation.id };
    });
    results.push(outcome.result);
    lastMutationId = Math.max(lastMutationId, outcome.last);
  }
  return { results, lastMutationId };
}
