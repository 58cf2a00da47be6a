import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { dehydrate, type DehydratedState, type Query } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { configMap } from '@estudio/core';
import { App, appConfigKey, createQueryClient } from './App.tsx';
import type { PageState } from './page-state.ts';
import { routeHandles, routes } from './router.tsx';
import { PageTitleSink, RenderedAt, ServerViewportWidth } from './ssr/render-context.ts';

export { pageStateId } from './page-state.ts';

/**
 * The server's side of decision 026: the public pages (the same for every
 * visitor) rendered to HTML with the studio's data, so a phone paints the page
 * before the JavaScript arrives. The browser then hydrates that HTML with the
 * data, the width and the instant it was rendered with (main.tsx, decision 043).
 */
export interface PrerenderRequest {
  /** Path and query of the page ('/calendario?semana=2026-05-04'). */
  url: string;
  appconfig: PageState['appconfig'];
  /** The viewport width (CSS px) to render for; there is no window on the server. */
  viewportWidth: number;
  /** Runs a tRPC query procedure ('instructors.home') as an anonymous visitor. */
  query: (path: string, input: unknown) => Promise<unknown>;
}

export interface Prerendered {
  html: string;
  queries: DehydratedState;
  /** What the browser's hydration renders with besides the queries (page-state.ts). */
  rendered: { viewportWidth: number; at: string };
  /** The page's title as its app sets it (usePageTitle); null for a page that names none (the studio's name then). */
  title: string | null;
}

/** The modules (Vite manifest keys) a path's page needs, outermost first: the server preloads their chunks. */
export function pageModules(pathname: string): string[] {
  return routeHandles(pathname).map((handle) => handle.page.module);
}

/** Whether the server pre-renders the page at this path (its routes say so: public, the same for everyone). */
export function prerenders(pathname: string): boolean {
  const handles = routeHandles(pathname);
  return handles.length > 0 && handles.every((handle) => handle.prerender);
}

type TrpcKey = [string[], { input?: unknown; type?: string }?];

function isTrpcQuery(query: Query): boolean {
  const [path, meta] = query.queryKey as TrpcKey;
  return Array.isArray(path) && meta?.type === 'query';
}

function isEnabled(query: Query): boolean {
  const enabled = (query.options as { enabled?: boolean | ((q: Query) => boolean) }).enabled;
  return typeof enabled === 'function' ? enabled(query) : enabled !== false;
}

async function renderToHtml(element: React.ReactElement): Promise<string> {
  // Every boundary inline, however large: React otherwise sends a large one (the account's calendar, ~25 KB) after the
  // page with a script that moves it in place, and the portal's CSP refuses inline scripts, so the visitor would keep
  // the boundary's loader until the hydration rebuilt the page (decision 059).
  const { prelude } = await prerenderToNodeStream(element, { progressiveChunkSize: Number.POSITIVE_INFINITY });
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/** Most pages ask for everything in their first render; a query that depends on another's answer needs one more. */
const MAX_PASSES = 3;

/**
 * Renders the page, runs the queries it asked for, and renders again with
 * their answers, until it asks for nothing new. A query that fails is left to
 * the browser (the page shows its skeleton for it). Null when the path is not
 * one the server pre-renders.
 */
export async function prerenderPage({ url, appconfig, viewportWidth, query }: PrerenderRequest): Promise<Prerendered | null> {
  const pathname = new URL(url, 'http://portal').pathname;
  if (!prerenders(pathname)) return null;
  await Promise.all(routeHandles(pathname).map((handle) => handle.page.preload()));
  const queryClient = createQueryClient();
  queryClient.setQueryData(appConfigKey, configMap(appconfig.config));
  const router = createMemoryRouter(routes, { initialEntries: [url] });
  const asked = new Set<string>();
  // One instant for every pass and for the browser's hydration: a class starting meanwhile is on both or on neither.
  const renderedAt = new Date();
  let html = '';
  let title: string | null = null;
  const setTitle = (pageTitle: string) => void (title = pageTitle);
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    // The last pass's title: the one rendered with every answer.
    title = null;
    html = await renderToHtml(
      <ServerViewportWidth.Provider value={viewportWidth}>
        <RenderedAt.Provider value={renderedAt}>
          <PageTitleSink.Provider value={setTitle}>
            <StrictMode>
              <App queryClient={queryClient} router={<RouterProvider router={router} />} />
            </StrictMode>
          </PageTitleSink.Provider>
        </RenderedAt.Provider>
      </ServerViewportWidth.Provider>,
    );
    const waiting = queryClient
      .getQueryCache()
      .getAll()
      .filter((q) => q.state.status === 'pending' && isTrpcQuery(q) && isEnabled(q) && !asked.has(q.queryHash));
    if (waiting.length === 0 || pass === MAX_PASSES) break;
    await Promise.all(
      waiting.map(async (q) => {
        asked.add(q.queryHash);
        const [path, meta] = q.queryKey as TrpcKey;
        try {
          queryClient.setQueryData(q.queryKey, await query(path.join('.'), meta?.input));
        } catch {
          // Left to the browser, which asks again and shows the page's own error.
        }
      }),
    );
  }
  const queries = dehydrate(queryClient, { shouldDehydrateQuery: (q) => q.state.status === 'success' && q.queryKey[0] !== appConfigKey[0] });
  return { html, queries, rendered: { viewportWidth, at: renderedAt.toISOString() }, title };
}
