import { createContext, useContext } from 'react';

// The server build (vite.config.ts) hands this module to every import of
// '@mantine/hooks': the same hooks, but a media query answers for the width
// the server renders for, since there is no window to ask.
export * from '@mantine/hooks';

/** The viewport width (CSS px) a pre-render is for: a phone's or a desktop's, guessed by the server from the User-Agent. */
export const ServerViewportWidth = createContext(1366);

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

export function useMediaQuery(query: string, initialValue?: boolean): boolean {
  const width = useContext(ServerViewportWidth);
  return widthMatches(query, width) ?? initialValue ?? false;
}
