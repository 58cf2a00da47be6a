import { startTransition, StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { hydrate } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { configMap } from '@estudio/core';
import { App, appConfigKey, createQueryClient } from './App.tsx';
import { readPageState } from './page-state.ts';
import { routeHandles, routes } from './router.tsx';

/** Runs once the app's first render is on screen. */
function AfterFirstCommit({ run }: { run: () => void }) {
  useEffect(run, [run]);
  return null;
}

/**
 * Starts the app in `container` (boot.ts decides when). Its first render
 * replaces what the server sent (a pre-rendered page, or nothing) in one
 * commit: the route's chunks are in first (asked for beside this module), so
 * no loader flashes over the page. A chunk that fails to load is left to the
 * route's own fallback.
 */
export function startApp({ container, prerendered, releaseTaps }: { container: HTMLElement; prerendered: boolean; releaseTaps: () => void }): void {
  const queryClient = createQueryClient();
  // The studio's configuration (and a pre-rendered page's data) came with the page: no round trip before the first render.
  const state = readPageState(document);
  if (state) {
    queryClient.setQueryData(appConfigKey, configMap(state.appconfig.config));
    if (state.queries) hydrate(queryClient, state.queries);
  }
  const router = createBrowserRouter(routes);
  const started = () => {
    // A tap on the server's page meanwhile goes to the app's same button now (decision 031).
    releaseTaps();
    // The page is the app's now: what a test (or a monitor) waits for before acting on it.
    document.documentElement.dataset.app = 'started';
  };
  const render = () => {
    const root = createRoot(container);
    const app = (
      <StrictMode>
        <App queryClient={queryClient} router={<RouterProvider router={router} />} />
        <AfterFirstCommit run={started} />
      </StrictMode>
    );
    // A pre-rendered page is already on screen: its replacement renders as a transition, which React works in slices
    // of a few milliseconds between the browser's own tasks (no long task while a phone scrolls), and commits at the end.
    if (prerendered) startTransition(() => root.render(app));
    else root.render(app);
  };
  // A pre-rendered page is replaced once its route's chunks are in, so no loader flashes over it. A page with nothing on
  // screen renders at once: its layout (the account's header) shows while the page's own chunk is still arriving, each
  // behind its own loader (decision 036).
  if (!prerendered) return render();
  void Promise.all(routeHandles(location.pathname).map((handle) => handle.page.preload()))
    .catch(() => undefined)
    .then(render);
}
