import { StrictMode, useEffect } from 'react';
import { createRoot } from 'react-dom/client';
import { hydrate } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { configMap } from '@estudio/core';
import { App, appConfigKey, createQueryClient } from './App.tsx';
import { readPageState } from './page-state.ts';
import { routeHandles, routes } from './router.tsx';
import { holdTapsUntilStarted } from './taps-before-start.ts';

const queryClient = createQueryClient();
// The studio's configuration (and a pre-rendered page's data) came with the page: no round trip before the first render.
const state = readPageState(document);
if (state) {
  queryClient.setQueryData(appConfigKey, configMap(state.appconfig.config));
  if (state.queries) hydrate(queryClient, state.queries);
}
const router = createBrowserRouter(routes);

/**
 * The first render replaces what the server sent (a pre-rendered page, or
 * nothing) in one commit: the route's chunks are in first (the server asked
 * for them with modulepreload), so no loader flashes over the page.
 * A chunk that fails to load is left to the route's own fallback.
 */
const container = document.getElementById('root')!;
// A tap on a pre-rendered page's buttons before the app has replaced it is given to the app's same button after its
// first commit. (Rendering that replacement as a transition, in slices, would shorten the long tasks after the first
// paint, but it widens the moment the page swaps under a finger or a test; decision 026 leaves it for later.)
const prerendered = container.hasChildNodes();
const releaseTaps = prerendered ? holdTapsUntilStarted(container) : () => undefined;

/** Runs once the app's first render is on screen. */
function AfterFirstCommit({ run }: { run: () => void }) {
  useEffect(run, [run]);
  return null;
}
void Promise.all(routeHandles(location.pathname).map((handle) => handle.page.preload()))
  .catch(() => undefined)
  .then(() =>
    createRoot(container).render(
      <StrictMode>
        <App queryClient={queryClient} router={<RouterProvider router={router} />} />
        <AfterFirstCommit run={releaseTaps} />
      </StrictMode>,
    ),
  );
