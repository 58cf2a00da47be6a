import { useEffect, useRef } from 'react';
import type { StatusStore } from './saved.ts';
import { scanQuietIn } from './scanner/scan-activity.ts';
import { trpc, type DeskOutputs } from './trpc.ts';

type DeskStatus = DeskOutputs['status']['get'];
type DeskEvent = { status: DeskStatus; tables: readonly string[] };

/** How long changes are gathered before the screens read again (a first sync sends many pages). */
const COALESCE_MS = 150;
/** The longest a redraw waits for scans in a row to pause: the rosters still follow a busy line. */
const MAX_WAIT_FOR_SCANS_MS = 2_000;

/**
 * The desk's live state: the sync status (into `store`) and a refresh of every replica read
 * whenever the service says something changed (pulled rows, a local
 * mutation, a rollback). Refreshes are coalesced so a first sync of many
 * pages does not re-render every screen per page, and wait while a scan's
 * verdict is on its way, so the verdict is never queued behind them. A
 * customer's photo is read again only when customers changed.
 */
export function useDeskLive(enabled: boolean, store: StatusStore): void {
  const utils = trpc.useUtils();
  // The status as it was when the desk opened, until the first event says otherwise.
  const initial = trpc.status.get.useQuery(undefined, { enabled });
  useEffect(() => {
    if (initial.data && !store.get()) store.set(initial.data);
  }, [initial.data, store]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef<{ since: number; customers: boolean } | null>(null);

  const refresh = () => {
    const due = pending.current;
    if (!due) return;
    const quietIn = scanQuietIn();
    if (quietIn > 0 && performance.now() - due.since < MAX_WAIT_FOR_SCANS_MS) {
      timer.current = setTimeout(refresh, quietIn);
      return;
    }
    timer.current = null;
    pending.current = null;
    void utils.today.invalidate();
    void utils.reservations.invalidate();
    void utils.session.get.invalidate();
    void utils.customers.invalidate(undefined, { predicate: (query) => due.customers || !isPhotoQuery(query.queryKey) });
  };

  trpc.status.changes.useSubscription(undefined, {
    enabled,
    onData(event: DeskEvent) {
      store.set(event.status);
      // Status-only events refresh too: an acknowledgement or a rollback changes what the rows show.
      const customers = event.tables.includes('customer');
      if (pending.current) pending.current.customers ||= customers;
      else pending.current = { since: performance.now(), customers };
      if (!timer.current) timer.current = setTimeout(refresh, COALESCE_MS);
    },
  });
  useEffect(() => () => {
    if (timer.current) clearTimeout(timer.current);
  }, []);
}

/** tRPC's query key: [path segments, { input, type }]. */
const isPhotoQuery = (key: readonly unknown[]) => Array.isArray(key[0]) && key[0][0] === 'customers' && key[0][1] === 'photo';
