import { createTRPCReact } from '@trpc/react-query';
import { createTRPCClient, httpBatchLink, httpLink, type TRPCClient } from '@trpc/client';
import { trpcMaxBatchSize } from '@estudio/core';
import type { AppRouter } from '@estudio/server/router';
import type { SessionStore } from '../session/session-store.ts';

export type { AppRouter };

/** React hooks for every procedure of the server. */
export const trpc = createTRPCReact<AppRouter>();

export type PublicTrpcClient = TRPCClient<AppRouter>;

/** Per-call context: a token to use instead of the session's (sign-up, before the session starts). */
export interface CallContext extends Record<string, unknown> {
  idToken?: string;
}

/**
 * A client without the session: configuration and the sign-in provider's own
 * calls (sign-in, refresh), which must not trigger another refresh.
 */
export function createPublicClient(): PublicTrpcClient {
  return createTRPCClient<AppRouter>({ links: [httpLink({ url: '/trpc' })] });
}

/**
 * The links of the signed-in client: every call carries the bearer token
 * (refreshed first when it is about to expire), and every successful answer
 * lets the session refresh its token, throttled to once per 15 s.
 */
export function sessionLinks(store: SessionStore) {
  return [
    httpBatchLink({
      url: '/trpc',
      // The server refuses larger batches (decision 012); a page with more queries sends two requests.
      maxItems: trpcMaxBatchSize,
      async headers({ opList }) {
        const explicit = opList.map((op) => (op.context as CallContext).idToken).find(Boolean);
        const token = explicit ?? (await store.idToken());
        return token ? { Authorization: `Bearer ${token}` } : {};
      },
      async fetch(url, init) {
        const response = await fetch(url, init as RequestInit);
        if (response.ok) store.noteApiSuccess();
        return response;
      },
    }),
  ];
}
