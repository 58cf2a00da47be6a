import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { errorText } from '../format.ts';
import { trpc, type DeskOutputs } from '../trpc.ts';

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

/** One check-in result for the whole desk: a scan and a click on a roster name both show it in the big panel. */
export function CheckInProvider({ children }: { children: ReactNode }) {
  const [result, setResult] = useState<ScanResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const scanMutation = trpc.checkIn.scan.useMutation();
  const byIdMutation = trpc.checkIn.byReservation.useMutation();
  const run = useCallback(async (call: () => Promise<ScanResult>) => {
    try {
      setResult(await call());
      setError(null);
    } catch (e) {
      // The red verdict on the scan panel says it; a toast too would say it twice and cover the buttons.
      setResult(null);
      setError(errorText(e));
    }
  }, []);
  const value = useMemo<CheckInState>(
    () => ({
      result,
      error,
      busy: scanMutation.isPending || byIdMutation.isPending,
      scan: (code) => run(() => scanMutation.mutateAsync({ code })),
      checkIn: (id) => run(() => byIdMutation.mutateAsync({ class_reservation_id: id })),
      clear: () => {
        setResult(null);
        setError(null);
      },
    }),
    [result, error, scanMutation, byIdMutation, run],
  );
  return <CheckInContext.Provider value={value}>{children}</CheckInContext.Provider>;
}

export function useCheckIn(): CheckInState {
  const state = useContext(CheckInContext);
  if (!state) throw new Error('useCheckIn outside CheckInProvider');
  return state;
}
