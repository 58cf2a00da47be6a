import { createContext, useContext, useSyncExternalStore } from 'react';

/**
 * What the server rendered a pre-rendered page for, so the browser's first
 * render (a hydration of that HTML: decision 043) can
 * render exactly the same thing before it renders what it knows itself.
 */

/** The viewport width (CSS px) a pre-render is for: a phone's or a desktop's, guessed by the server from the User-Agent. */
export const ServerViewportWidth = createContext(1366);

/** The instant the server rendered the page at: the clock a hydration renders with (null: the browser's own clock). */
export const RenderedAt = createContext<Date | null>(null);

/**
 * Where a pre-render collects the page's title (usePageTitle), for the server to put in the page's `<title>`: the
 * browser sets it only once its app runs, and a page may be read without it (decision 054). Null in the browser.
 */
export const PageTitleSink = createContext<((title: string) => void) | null>(null);

const noSubscription = () => () => undefined;

/**
 * Whether the app has rendered what the browser knows since its hydration
 * (main.tsx provides it at the root and flips it once, as a transition). Its
 * default, true, is a render that hydrates nothing.
 */
export const HydrationSettled = createContext(true);

/** True only on the server and in a render that hydrates (React reads a store's server snapshot then). */
export function useHydratingNow(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => false,
    () => true,
  );
}

/**
 * True on the server and while the browser hydrates the server's HTML, until
 * the app's root says the hydration has settled; false in every render after
 * that, and in anything mounted later. What only the browser can know (a
 * session, a sanitizer, the clock) waits for it, so the hydration matches the
 * HTML it adopts.
 *
 * The flip is one state at the root, set in a transition: every part of the
 * page changes in the same render (a signed-in checkout never shows its forms
 * to a visitor for a moment), and React renders it in slices like the
 * hydration itself. A store whose server snapshot differs (useHydratingNow
 * alone) would re-render everything below it synchronously, in one long task.
 */
export function useHydrating(): boolean {
  const now = useHydratingNow();
  const settled = useContext(HydrationSettled);
  return now || !settled;
}

/** Whether `query` holds at `width`: min-width/max-width in px or em (16 px), all joined by 'and'; null for anything else. */
export function widthMatches(query: string, width: number): boolean | null {
  const parts = query.split(/\s+and\s+/i);
  let matches = true;
  for (const part of parts) {
    const m = /^\(?\s*(min|max)-width\s*:\s*([\d.]+)(px|em|rem)\s*\)?$/i.exec(part.trim());
    if (!m) return null;
    const px = Number(m[2]) * (m[3]!.toLowerCase() === 'px' ? 1 : 16);
    matches &&= m[1]!.toLowerCase() === 'min' ? width >= px : width <= px;
  }
  return matches;
}

/**
 * A width media query: in the browser the screen's answer from the first
 * render (no flash of the other layout), on the server and during a
 * hydration the answer for the width the page was rendered for.
 */
export function useViewportQuery(query: string): boolean {
  const serverWidth = useContext(ServerViewportWidth);
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    () => window.matchMedia(query).matches,
    () => widthMatches(query, serverWidth) ?? false,
  );
}
