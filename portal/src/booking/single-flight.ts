import { useCallback, useRef } from 'react';

/**
 * Runs an action at most once at a time. A mutation's isPending reaches the
 * button only after React renders, so a double click (or a double tap) lands
 * its second click on a button that still looks idle; the ref is set in the
 * click itself, before any render.
 */
export function useSingleFlight(): <T>(action: () => Promise<T>) => Promise<T | undefined> {
  const running = useRef(false);
  return useCallback(async <T,>(action: () => Promise<T>) => {
    if (running.current) return undefined;
    running.current = true;
    try {
      return await action();
    } finally {
      running.current = false;
    }
  }, []);
}
