import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { hydrate } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { configMap } from '@estudio/core';
import { App, appConfigKey, createQueryClient } from './App.tsx';
import { readPageState } from './page-state.ts';
import { routeHandles, routes } from './router.tsx';

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
void Promise.all(routeHandles(location.pathname).map((handle) => handle.page.preload()))
  .catch(() => undefined)
  .then(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <App queryClient={queryClient} router={<RouterProvider router={router} />} />
      </StrictMode>,
    ),
  );
