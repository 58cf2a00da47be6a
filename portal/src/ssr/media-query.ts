import { useContext } from 'react';
import { ServerViewportWidth, widthMatches } from './render-context.ts';

// The server build (vite.config.ts) hands this module to every import of
// '@mantine/hooks': the same hooks, but a media query answers for the width
// the server renders for, since there is no window to ask.
export * from '@mantine/hooks';
export { ServerViewportWidth, widthMatches };

export function useMediaQuery(query: string, initialValue?: boolean): boolean {
  const width = useContext(ServerViewportWidth);
  return widthMatches(query, width) ?? initialValue ?? false;
}
