import { createContext, startTransition, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { errorText } from '../format.ts';
import { trpc, type DeskOutputs } from '../trpc.ts';
import { duringScan } from './scan-activity.ts';

export type ScanResult = DeskOutputs['checkIn']['scan'];

interface CheckInState {
  result: ScanResult | null;
  error: string | null;
  busy: boolean;
  scan(code: string): Promise<void>;
  checkIn(classReservationId: number): Promise<void>;
  clear(): void;
}

const CheckInContext = createContext<CheckInState | null>(null);

/** How long a scan or a roster click may take before its button shows that it is working. */
const SPINNER_AFTER_MS = 300;

/**
 * One check-in result for the whole desk: a scan and a click on a roster name
 * both show it in the big panel. The calls go straight to the desk's client,
 * not through React Query's mutations: their pending states re-rendered the
 * desk before the scan's request had even left.
 */
export function CheckInProvider({ children }: { children: ReactNode }) {
  const client = trpc.useUtils().client;
  const [shown, setShown] = useState<{ result: ScanResult | null; error: string | null }>({ result: null, error: null });
  const [busy, setBusy] = useState(0);
  const run = useCallback(async (call: () => Promise<ScanResult>) => {
    // The spinner only for an answer that is slow to come: a verdict in a tenth of a second needs none, and drawing
    // it and taking it away re-rendered the whole desk twice per scan while the verdict was on its way.
    let spinning = false;
    const spinner = setTimeout(() => {
      spinning = true;
      startTransition(() => setBusy((n) => n + 1));
    }, SPINNER_AFTER_MS);
    try {
      const result = await duringScan(call);
      setShown({ result, error: null });
    } catch (e) {
      // The red verdict on the scan panel says it; a toast too would say it twice and cover the buttons.
      setShown({ result: null, error: errorText(e) });
    } finally {
      clearTimeout(spinner);
      if (spinning) setBusy((n) => n - 1);
    }
  }, []);
  const value = useMemo<CheckInState>(
    () => ({
      ...shown,
      busy: busy > 0,
      scan: (code) => run(() => client.checkIn.scan.mutate({ code })),
      checkIn: (id) => run(() => client.checkIn.byReservation.mutate({ class_reservation_id: id })),
      clear: () => setShown({ result: null, error: null }),
    }),
    [shown, busy, client, run],
  );
  return <CheckInContext.Provider value={value}>{children}</CheckInContext.Provider>;
}

export function useCheckIn(): CheckInState {
  const state = useContext(CheckInContext);
  if (!state) throw new Error('useCheckIn outside CheckInProvider');
  return state;
}
