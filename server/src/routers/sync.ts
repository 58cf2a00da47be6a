import {
  positionOutput,
  pullInput,
  pullOutput,
  pushInput,
  pushOutput,
  snapshotInput,
  snapshotOutput,
  syncClientId,
  z,
} from '@estudio/core';
import { bindClient, logPosition, pullChanges, pushMutations, snapshotPage } from '@estudio/sync';
import { applyDeskMutation } from '../services/desk/apply-desk-mutation.ts';
import { messageContextOf } from '../services/messages/message-context.ts';
import { router, staffProcedure } from '../trpc.ts';

const clientInput = z.object({ clientId: syncClientId });

/**
 * The front desks' sync (decision 008): staff and admin only, each desk's
 * client id bound to the account that first used it. Not REST routes: no
 * openapi meta.
 */
export const syncRouter = router({
  pull: staffProcedure
    .input(pullInput)
    .output(pullOutput)
    .query(({ ctx, input }) => pullChanges(ctx.db, input, ctx.customer.customer_id)),

  push: staffProcedure
    .input(pushInput)
    .output(pushOutput)
    .mutation(({ ctx, input }) => {
      // The desk's cancellations and moves message the class's waitlist in the push's transaction.
      const messages = messageContextOf(ctx.config);
      return pushMutations(ctx.db, input, ctx.customer, (tx, staff, mutation, now, origin) => applyDeskMutation(tx, staff, mutation, now, origin, messages));
    }),

  position: staffProcedure
    .input(clientInput)
    .output(positionOutput)
    .query(async ({ ctx, input }) => {
      await bindClient(ctx.db, input.clientId, ctx.customer.customer_id);
      return logPosition(ctx.db);
    }),

  snapshot: staffProcedure
    .input(snapshotInput)
    .output(snapshotOutput)
    .query(async ({ ctx, input }) => {
      await bindClient(ctx.db, input.clientId, ctx.customer.customer_id);
      return snapshotPage(ctx.db, input);
    }),

  /**
   * Live poke over SSE: one event at once (the desk pulls on connect) and one
   * whenever the log may have moved. Events arriving while the desk is still
   * reading are folded into one. Ends when the desk disconnects or the server closes.
   */
  poke: staffProcedure.input(clientInput).subscription(async function* ({ ctx, input, signal }): AsyncGenerator<{ at: number }> {
    await bindClient(ctx.db, input.clientId, ctx.customer.customer_id);
    const sync = ctx.sync;
    if (!sync) throw new Error('buildServer no recibió el canal de cambios');
    let pending = true;
    let wake: (() => void) | null = null;
    const unsubscribe = sync.feed.subscribe(() => {
      pending = true;
      wake?.();
    });
    const stop = () => wake?.();
    signal?.addEventListener('abort', stop);
    sync.closing.addEventListener('abort', stop);
    try {
      while (!signal?.aborted && !sync.closing.aborted) {
        if (pending) {
          pending = false;
          yield { at: Date.now() };
          continue;
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
    } finally {
      unsubscribe();
      signal?.removeEventListener('abort', stop);
      sync.closing.removeEventListener('abort', stop);
    }
  }),
});
