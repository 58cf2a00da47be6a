import { useEffect, useRef, useState } from 'react';
import { trpc, type DeskOutputs } from './trpc.ts';

type DeskStatus = DeskOutputs['status']['get'];

/**
 * The desk's live state: the sync status and a refresh of every replica read
 * whenever the service says something changed (pulled rows, a local
 * mutation, a rollback). Refreshes are coalesced so a first sync of many
 * pages does not re-render every screen per page.
 */
export function useDeskLive(enabled: boolean): DeskStatus | null {
  const utils = trpc.useUtils();
  const [status, setStatus] = useState<DeskStatus | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  trpc.status.changes.useSubscription(undefined, {
    enabled,
    onData(event) {
      setStatus(event.status);
      // Status-only events refresh too: an acknowledgement or a rollback changes what the rows show.
      if (timer.current) return;
      timer.current = setTimeout(() => {
        timer.current = null;
        void utils.today.invalidate();
        void utils.customers.invalidate();
        void utils.reservations.invalidate();
        void utils.session.get.invalidate();
      }, 150);
    },
  });
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
  return status;
}
