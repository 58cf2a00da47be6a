import { useCallback, useEffect, useRef } from 'react';

/** A little longer than Mantine's modal exit transition (200 ms). */
const MODAL_EXIT_MS = 250;

/** Where the keyboard is now, unless it fell out of the page (a dialog's content gone, nothing focused). */
function focusLost(): boolean {
  const active = document.activeElement;
  return !active || active === document.body || active === document.documentElement || !active.isConnected;
}

/**
 * Gives the keyboard back to what opened a dialog once it closes. The
 * portal's dialogs are mounted already open (a new key for each), so
 * Mantine's own focus return, which notes the focus when `opened` turns true,
 * never sees them, and the focus fell to <body>. `remember(key)` where the
 * dialog is asked for (the tapped card or button; `key`, a data attribute
 * such as `data-class-id`, finds it again if the page drew it anew meanwhile:
 * a week refreshed, a phone turned); `closed(stillOpen)` when it closes: after
 * the exit, unless another dialog opened meanwhile or the person already
 * moved the focus elsewhere.
 */
export function useFocusReturn() {
  const returnTo = useRef<(() => HTMLElement | null) | null>(null);
  const timer = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const remember = useCallback((key?: `data-${string}`) => {
    const active = document.activeElement;
    if (!(active instanceof HTMLElement) || active === document.body) {
      returnTo.current = null;
      return;
    }
    const value = key ? active.getAttribute(key) : null;
    const selector = key && value !== null ? `[${key}="${CSS.escape(value)}"]` : null;
    returnTo.current = () => (active.isConnected ? active : selector ? document.querySelector<HTMLElement>(selector) : null);
  }, []);

  const closed = useCallback((stillOpen: () => boolean) => {
    window.clearTimeout(timer.current);
    // With motion on, the closing dialog keeps the focus until its exit ends: look again a few times.
    const attempt = (left: number) => {
      timer.current = window.setTimeout(() => {
        if (stillOpen()) return;
        const inClosingDialog = document.activeElement?.closest('[role="dialog"]') != null;
        if (inClosingDialog && left > 0) return attempt(left - 1);
        const target = returnTo.current?.();
        if ((focusLost() || inClosingDialog) && target) target.focus();
      }, MODAL_EXIT_MS);
    };
    attempt(4);
  }, []);

  return { remember, closed };
}
