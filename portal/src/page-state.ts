import type { DehydratedState } from '@tanstack/react-query';
import type { configMap } from '@estudio/core';

/** The id of the <script type="application/json"> the server writes into every page (server/src/http/portal-shell). */
export const pageStateId = 'portal-state';

/** What the server hands the first render: GET /api/appconfig's answer and, for a pre-rendered page, the data it was rendered with. */
export interface PageState {
  appconfig: { config: Parameters<typeof configMap>[0] };
  /** react-query's dehydrated cache of the pre-render; absent when the page is not pre-rendered. */
  queries?: DehydratedState;
  /** The width and instant (ISO) the pre-render was made for, which the hydration renders with too; absent when not pre-rendered. */
  rendered?: { viewportWidth: number; at: string };
}

export function readPageState(doc: Document): PageState | null {
  const text = doc.getElementById(pageStateId)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as PageState;
  } catch {
    return null;
  }
}
