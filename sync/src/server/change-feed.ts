import type { DbHandle, DbOrTx } from '@estudio/db';
import { logPosition } from './pull.ts';

/** The channel the sync triggers notify (migration 0005). */
export const syncChannel = 'sync_change';
/** The channel the tables the public pages read notify (migration 0020). */
export const portalContentChannel = 'portal_content';

/**
 * "The log moved": what wakes a server's desks. Listeners may be called more
 * often than the log moves (a reconnect, a transaction that changed nothing a
 * desk can see yet); a desk answers with a pull, which is cheap when empty.
 */
export interface ChangeFeed {
  subscribe(listener: () => void): () => void;
  close(): Promise<void>;
}

function fanOut() {
  const listeners = new Set<() => void>();
  return {
    listeners,
    emit() {
      for (const listener of listeners) {
        try {
          listener();
        } catch {
          // One desk's broken subscriber must not keep the others asleep.
        }
      }
    },
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}

/**
 * LISTEN on the database, so a write through any server process (or a script)
 * wakes the desks of this one (or, on another `channel`, whatever listens to it:
 * the portal's pre-rendered pages listen to 'portal_content'). postgres.js keeps the listen on its own
 * connection and re-listens after a reconnect; notifications sent while it was
 * away are lost, so every (re)listen also wakes the desks.
 */
export async function createChangeFeed(handle: DbHandle, channel: string = syncChannel): Promise<ChangeFeed> {
  const feed = fanOut();
  if (handle.kind === 'pglite') {
    const unlisten = await handle.client.listen(channel, () => feed.emit());
    return {
      subscribe: feed.subscribe,
      async close() {
        feed.listeners.clear();
        if (!handle.client.closed) await unlisten();
      },
    };
  }
  const listening = await handle.client.listen(
    channel,
    () => feed.emit(),
    () => feed.emit(),
  );
  return {
    subscribe: feed.subscribe,
    async close() {
      feed.listeners.clear();
      await listening.unlisten();
    },
  };
}

/**
 * For a server given a database but not its handle: polls the log position
 * while someone listens. The position (not the newest change id) moves exactly
 * when a pull would hand out something new, including a late commit of an old
 * transaction.
 */
export function createPollingChangeFeed(db: DbOrTx, intervalMs = 1000): ChangeFeed {
  const feed = fanOut();
  let timer: ReturnType<typeof setInterval> | null = null;
  let last: string | null = null;
  let polling = false;
  const poll = async () => {
    if (polling) return;
    polling = true;
    try {
      const { cursor } = await logPosition(db);
      if (last !== null && cursor !== last) feed.emit();
      last = cursor;
    } catch {
      // A failed poll (database restarting) is retried on the next tick.
    } finally {
      polling = false;
    }
  };
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = null;
    last = null;
  };
  return {
    subscribe(listener) {
      const unsubscribe = feed.subscribe(listener);
      if (!timer) {
        timer = setInterval(() => void poll(), intervalMs);
        timer.unref();
        void poll();
      }
      return () => {
        unsubscribe();
        if (feed.listeners.size === 0) stop();
      };
    },
    async close() {
      feed.listeners.clear();
      stop();
    },
  };
}
