import { pullInput, pushInput, snapshotInput } from '@estudio/core';
import type { Db } from '@estudio/db';
import { bindClient, logPosition, pullChanges, pushMutations, snapshotPage, type ApplyMutation, type ChangeFeed, type SyncStaff } from '../server/index.ts';
import type { SyncServerLink } from './types.ts';

export interface DirectServerLinkOptions<S extends SyncStaff> {
  /** The server's database. */
  db: Db;
  /** The signed-in staff account the desk acts as. */
  staff: S;
  /** The server's desk mutations (applyDeskMutation of @estudio/server). */
  apply: ApplyMutation<S>;
  /** What pokes the desk; without one the desk only syncs when asked. */
  feed?: ChangeFeed;
}

/**
 * A link that calls the server's sync functions in-process, with the same
 * input parsing as the tRPC procedures (defaults included). For tests and
 * tools that hold the server's database; a desk uses createHttpServerLink.
 */
export function createDirectServerLink<S extends SyncStaff>(options: DirectServerLinkOptions<S>): SyncServerLink {
  const { db, staff } = options;
  return {
    pull: async (input) => pullChanges(db, pullInput.parse(input), staff.customer_id),
    push: async (input) => pushMutations(db, pushInput.parse(input), staff, options.apply),
    position: async (input) => {
      await bindClient(db, input.clientId, staff.customer_id);
      return logPosition(db);
    },
    snapshot: async (input) => {
      const parsed = snapshotInput.parse(input);
      await bindClient(db, parsed.clientId, staff.customer_id);
      return snapshotPage(db, parsed);
    },
    subscribePoke(_input, handlers) {
      let open = true;
      const unsubscribe = options.feed?.subscribe(() => {
        if (open) handlers.onPoke();
      });
      // Like the SSE procedure: one poke on connect, so the desk pulls what it missed while away.
      queueMicrotask(() => {
        if (open) handlers.onPoke();
      });
      return () => {
        open = false;
        unsubscribe?.();
      };
    },
  };
}
