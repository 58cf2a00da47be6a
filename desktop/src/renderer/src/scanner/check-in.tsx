import { createContext, useContext, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { errorText } from '../format.ts';
import { trpc, type DeskOutputs } from '../trpc.ts';
import { duringScan } from './scan-activity.ts';

export type ScanResult = DeskOutputs['checkIn']['scan'];

/** What the big panel shows: the last verdict, or why a code was refused before any reservation was found. */
export interface CheckInShown {
  result: ScanResult | null;
  error: string | null;
}

export interface CheckInActions {
  scan(code: string): Promise<void>;
  checkIn(classReservationId: number): Promise<void>;
  clear(): void;
}

/**
 * One check-in result for the whole desk: a scan and a click on a roster name
 * both show it in the big panel. A store its readers subscribe to, not a
 * context value: a new value of a context makes React walk every component
 * under its provider (the rosters' rows among them) to find its readers, and
 * that walk was the largest part of drawing a verdict. The context below only
 * carries the store, which never changes.
 */
interface CheckInStore extends CheckInActions {
  shown(): CheckInShown;
  busy(): boolean;
  subscribe(listener: () => void): () => void;
}

/** How long a scan or a roster click may take before its button shows that it is working. */
const SPINNER_AFTER_MS = 300;

const nothingShown: CheckInShown = { result: null, error: null };

type DeskClient = ReturnType<typeof trpc.useUtils>['client'];

function createCheckInStore(client: DeskClient): CheckInStore {
  let shown = nothingShown;
  let busy = 0;
  const listeners = new Set<() => void>();
  const publish = () => {
    for (const listener of listeners) listener();
  };
  const show = (next: CheckInShown) => {
    shown = next;
    publish();
  };
  // The calls go straight to the desk's client, not through React Query's mutations: their pending states
  // re-rendered the desk before the scan's request had even left.
  const run = async (call: () => Promise<ScanResult>) => {
    // The spinner only for an answer that is slow to come: a verdict in a tenth of a second needs none, and drawing
    // it and taking it away drew the scan bar twice per scan while the verdict was on its way.
    let spinning = false;
    const spinner = setTimeout(() => {
      spinning = true;
      busy += 1;
      publish();
    }, SPINNER_AFTER_MS);
    try {
      show({ result: await duringScan(call), error: null });
    } catch (e) {
      // The red verdict on the scan panel says it; a toast too would say it twice and cover the buttons.
      show({ result: null, error: errorText(e) });
    } finally {
      clearTimeout(spinner);
      if (spinning) {
        busy -= 1;
        publish();
      }
    }
  };
  return {
    shown: () => shown,
    busy: () => busy > 0,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    scan: (code) => run(() => client.checkIn.scan.mutate({ code })),
    checkIn: (id) => run(() => client.checkIn.byReservation.mutate({ class_reservation_id: id })),
    clear: () => show(nothingShown),
  };
}

const CheckInContext = createContext<CheckInStore | null>(null);

export function CheckInProvider({ children }: { children: ReactNode }) {
  const client = trpc.useUtils().client;
  const [store] = useState(() => createCheckInStore(client));
  return <CheckInContext.Provider value={store}>{children}</CheckInContext.Provider>;
}

function useStore(): CheckInStore {
  const store = useContext(CheckInContext);
  if (!store) throw new Error('check-in hooks used outside CheckInProvider');
  return store;
}

/** Scan, check in from a roster, clear the panel: the same functions for the desk's whole life (never a redraw). */
export function useCheckInActions(): CheckInActions {
  return useStore();
}

/** The verdict on the panel: re-renders its reader when a scan is answered or the panel is closed. */
export function useCheckInShown(): CheckInShown {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, store.shown);
}

/** Whether a scan has waited long enough for its button to show a spinner. */
export function useCheckInBusy(): boolean {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, store.busy);
}

/**
 * The reservation just checked in, when it belongs to the class `singleClassId`: a roster redraws only when its
 * own highlight changes, not on every verdict.
 */
export function useCheckedInHere(singleClassId: number): number | undefined {
  const store = useStore();
  return useSyncExternalStore(store.subscribe, () => {
    const reservation = store.shown().result?.reservation;
    return reservation?.single_class_id === singleClassId ? reservation.class_reservation_id : undefined;
  });
}

/** Calls `onVerdict` with each new verdict, without redrawing its caller (which may change its own state). */
export function useEachVerdict(onVerdict: (result: ScanResult) => void): void {
  const store = useStore();
  useEffect(() => {
    let last = store.shown();
    return store.subscribe(() => {
      const shown = store.shown();
      if (shown === last) return;
      last = shown;
      if (shown.result) onVerdict(shown.result);
    });
  }, [store, onVerdict]);
}
