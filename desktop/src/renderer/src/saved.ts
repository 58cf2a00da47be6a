import { notifications } from '@mantine/notifications';
import { texts } from '@estudio/core';
import { createContext, useCallback, useContext } from 'react';
import type { DeskOutputs } from './trpc.ts';

/** The desk's sync status, shared by the screens (the header indicator, the notices after a change). */
export const StatusContext = createContext<DeskOutputs['status']['get'] | null>(null);

export function useDeskStatus() {
  return useContext(StatusContext);
}

/**
 * The notice after a change: the spec's success text, and, while offline, that
 * the change is kept here and will be sent (so staff do not do it twice).
 */
export function useSavedNotice(): (message: string) => void {
  const status = useDeskStatus();
  const online = status?.online ?? true;
  return useCallback(
    (message: string) =>
      online
        ? notifications.show({ color: 'teal', message })
        : notifications.show({ color: 'orange', title: message, message: texts.desk.queuedOffline }),
    [online],
  );
}
