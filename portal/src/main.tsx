import { startTransition, StrictMode, useEffect, useState, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { hydrate } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router';
import './mantine-styles.ts';
import '@mantine/notifications/styles.css';
import { configMap, isStudioPublished, portalPageOpensBeforePublishing, studioPublishedKey } from '@estudio/core';
import { App, appConfigKey, createQueryClient } from './App.tsx';
import { nextTask } from './next-task.ts';
import { readPageState } from './page-state.ts';
import { routeHandles, routes } from './router.tsx';
import { HydrationSettled, RenderedAt, ServerViewportWidth, useHydratingNow } from './ssr/render-context.ts';

/**
 * Runs `run` once the app is on screen as the browser knows it: after the first
 * commit, or after a hydration's first commit and the render of what only the
 * browser knows (useHydrating), so a held tap reaches a signed-in customer's
 * page, not the signed-out one it was hydrated as. It wraps the app rather
 * than standing beside it: a sibling would change the ids React derives for a
 * hydration (useId), which must be the server's.
 */
function AfterFirstCommit({ run, children }: { run: () => void; children: ReactNode }) {
  const hydratingNow = useHydratingNow();
  const [settled, setSettled] = useState(!hydratingNow);
  useEffect(() => {
    if (settled) run();
    // After a hydration's commit: what only the browser knows renders now, in slices (decision 043).
    else startTransition(() => setSettled(true));
  }, [settled, run]);
  return <HydrationSettled.Provider value={settled}>{children}</HydrationSettled.Provider>;
}

/**
 * Starts the app in `container` (boot.ts decides when).
 *
 * A pre-rendered page is hydrated: React adopts the server's HTML instead of
 * building it again, rendering with what the server rendered with (its data,
 * width and instant, from the page's state) and as a transition, in slices of
 * a few milliseconds between the browser's own tasks; its commit only attaches
 * handlers, with no new DOM to style and lay out (decision 043). What only the
 * browser knows (the session, the sanitized HTML, the screen) renders right
 * after. Its route's chunks are in first, so nothing suspends over the page.
 * A page that does not match is rendered again by React itself, as before.
 *
 * A page with nothing on screen renders at once: its layout (the account's
 * header) shows while the page's own chunk is still arriving, each behind its
 * own loader (decision 036).
 *
 * The steps of a hydration are tasks of their own (the page's state and the
 * router; the route's modules; the hydration's first slice), so the start is
 * several short tasks rather than one long one (decision 048).
 */
export async function startApp({ container, prerendered, releaseTaps }: { container: HTMLElement; prerendered: boolean; releaseTaps: () => void }): Promise<void> {
  const queryClient = createQueryClient();
  // The studio's configuration (and a pre-rendered page's data) came with the page: no round trip before the first render.
  const state = readPageState(document);
  if (state) {
    queryClient.setQueryData(appConfigKey, configMap(state.appconfig.config));
    if (state.queries) hydrate(queryClient, state.queries);
  }
  const router = createBrowserRouter(routes);
  // Before the studio is published only a few pages open (signing in, setting a password): a link from one of them to
  // any other page loads it from the server, which answers "Próximamente" (decision 129).
  if (state?.appconfig.config.some((e) => e.key === studioPublishedKey && !isStudioPublished(e.value))) {
    router.subscribe(({ location: to }) => {
      if (!portalPageOpensBeforePublishing(to.pathname)) window.location.assign(`${to.pathname}${to.search}`);
    });
  }
  const started = () => {
    // A tap on the server's page meanwhile goes to the app's same button now (decision 031), in a task of its own: a
    // click given to React from inside a commit's effects was not delivered to the card.
    setTimeout(releaseTaps);
    // The page is the app's now: what a test (or a monitor) waits for before acting on it.
    document.documentElement.dataset.app = 'started';
  };
  const app = (
    <StrictMode>
      <AfterFirstCommit run={started}>
        <App queryClient={queryClient} router={<RouterProvider router={router} />} />
      </AfterFirstCommit>
    </StrictMode>
  );
  const rendered = prerendered ? state?.rendered : undefined;
  if (!rendered) return void createRoot(container).render(app);
  const asRendered = (
    <ServerViewportWidth.Provider value={rendered.viewportWidth}>
      <RenderedAt.Provider value={new Date(rendered.at)}>{app}</RenderedAt.Provider>
    </ServerViewportWidth.Provider>
  );
  await nextTask();
  await Promise.all(routeHandles(location.pathname).map((handle) => handle.page.preload())).catch(() => undefined);
  await nextTask();
  startTransition(() => void hydrateRoot(container, asRendered, { onRecoverableError: reportMismatch }));
}

/**
 * A hydration that did not match the server's HTML: React renders that part
 * again from scratch (the page still works), at the cost the hydration was
 * meant to save. Said in the console, where the speed spec looks for it.
 */
function reportMismatch(error: unknown): void {
  console.warn('hidratación: la página no coincidió con la del servidor; React la volvió a construir.', error);
}
