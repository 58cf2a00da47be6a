import type { Ref } from 'react';
import { useMergedRef } from '@mantine/hooks';

/**
 * What Mantine's ScrollArea takes from '@floating-ui/react' (its only use of
 * it), from '@mantine/hooks' instead: every page has a ScrollArea (modals,
 * drawers), and that one import made every page download all of floating-ui,
 * 15 KiB gzip. The vite config points ScrollArea's import here (decision 031).
 */
export function useMergeRefs<T>(refs: ReadonlyArray<Ref<T> | undefined>) {
  return useMergedRef<T>(...refs);
}
