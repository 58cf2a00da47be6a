import { notifications } from '@mantine/notifications';
import { texts } from '@estudio/core';
import { createContext, useCallback, useContext, useSyncExternalStore } from 'react';
import { scanQuietIn } from './scanner/scan-activity.ts';
import type { DeskOutputs } from './trpc.ts';

type DeskStatus = DeskOutputs['status']['get'];

/**
 * The desk's sync status, shared by the screens (the header indicator, the
 * notices after a change). A store rather than a context value: the status
 * changes several times per scan (a change counted, a round started, sent,
 * ended), and each change re-rendered the whole desk while the scan's verdict
 * waited to be drawn. Each screen now reads the part it shows.
 */
export interface StatusStore {
  get(): DeskStatus | null;
  set(next: DeskStatus): void;
  subscribe(listener: () => void): () => void;
}

/** Status changes that arrive together (a round's start, its answer, its end) are drawn once. */
const STATUS_COALESCE_MS = 16;

export function createStatusStore(): StatusStore {
  let latest: DeskStatus | null = null;
  let shown: DeskStatus | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const listeners = new Set<() => void>();
  const publish = () => {
    // A scan's verdict on its way is drawn first; the header's counters follow it.
    const wait = scanQuietIn();
    if (wait > 0) {
      timer = setTimeout(publish, wait);
      return;
    }
    timer = null;
    shown = latest;
    for (const listener of listeners) listener();
  };
  return {
    get: () => shown,
    set(next) {
      latest = next;
      // The first status is drawn at once: the desk waits for it to show its notices.
      if (shown === null && !timer) return publish();
      timer ??= setTimeout(publish, STATUS_COALESCE_MS);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const StatusContext = createContext<StatusStore>(createStatusStore());

/** The whole status: re-renders on every change (the header's indicator, the drawer's pending count). */
export function useDeskStatus(): DeskStatus | null {
  const store = useContext(StatusContext);
  return useSyncExternalStore(store.subscribe, store.get);
}

/** Whether the desk reaches the server: re-renders only when that changes. */
export function useDeskOnline(): boolean {
  const store = useContext(StatusContext);
  return useSyncExternalStore(store.subscribe, () => store.get()?.online ?? true);
}

/**
 * The notice after a change: the spec's success text, and, while offline, that
 * the change is kept here and will be sent (so staff do not do it twice).
 */
export function useSavedNotice(): (message: string) => void {
  const online = useDeskOnline();
  return useCallback(
    (message: string) =>
      online
        ? notifications.show({ color: 'teal', message })
        : notifications.show({ color: 'orange', title: message, message: texts.desk.queuedOffline }),
    [online],
  );
}
