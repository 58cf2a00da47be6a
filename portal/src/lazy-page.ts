import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface LazyPage extends LazyExoticComponent<ComponentType> {
  /** The page's module as Vite's manifest names it ('src/pages/…'): the server preloads its chunk. */
  module: string;
  /** Loads the module now; once it is in, the page renders without suspending. */
  preload: () => Promise<unknown>;
}

/**
 * A route's page in its own chunk. Unlike a bare React.lazy, a page loaded by
 * `preload()` renders at once: the first render of a pre-rendered page
 * (main.tsx) must not show the loader over the HTML the server sent.
 */
export function lazyPage(module: string, load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loaded: { default: ComponentType } | null = null;
  let loading: Promise<{ default: ComponentType }> | null = null;
  const preload = () => (loading ??= load().then((m) => (loaded = m)));
  // React reads a thenable that is already fulfilled synchronously (no suspension); a Promise never is.
  const page = lazy(() => (loaded ? ({ then: (resolve: (m: { default: ComponentType }) => void) => resolve(loaded!) } as Promise<{ default: ComponentType }>) : preload())) as LazyPage;
  page.module = module;
  page.preload = preload;
  return page;
}
