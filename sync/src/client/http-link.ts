import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink, TRPCClientError } from '@trpc/client';
import { EventSource } from 'eventsource';
import { DomainError, isDomainErrorCode, trpcMaxBatchSize } from '@estudio/core';
import type { AppRouter } from '@estudio/server/router';
import type { SyncServerLink } from './types.ts';

export interface HttpServerLinkOptions {
  /** The server's tRPC endpoint, e.g. 'http://127.0.0.1:3000/trpc'. */
  url: string;
  /** The signed-in account's ID token; asked before every request, so a refreshed token is used at once. */
  getToken(): string | null | Promise<string | null>;
  /** fetch for the batch requests and the event stream (tests, proxies); defaults to the global one. */
  fetch?: typeof globalThis.fetch;
}

/**
 * A server's answer (a DomainError code in the error shape) becomes the same
 * DomainError here, so the sync client tells a refusal from a network
 * failure; a failure without an answer is rethrown as it is.
 */
export function toDomainError(err: unknown): unknown {
  if (err instanceof TRPCClientError) {
    const data = err.data as { domainCode?: unknown } | undefined;
    const code = data?.domainCode;
    if (typeof code === 'string') return new DomainError(isDomainErrorCode(code) ? code : 'internal', err.message);
  }
  return err;
}

async function mapErrors<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toDomainError(err);
  }
}

/**
 * The desk's link to the server: tRPC over HTTP. Pull, push, position and
 * snapshot go through one batching link; the poke is an SSE subscription
 * (the `eventsource` package, since Node has no EventSource), its requests
 * carrying the bearer token through EventSource's `fetch` option.
 */
export function createHttpServerLink(options: HttpServerLinkOptions): SyncServerLink {
  const fetchImpl = options.fetch ?? globalThis.fetch;
  const authorization = async (): Promise<Record<string, string>> => {
    const token = await options.getToken();
    return token ? { authorization: `Bearer ${token}` } : {};
  };
  const client = createTRPCClient<AppRouter>({
    links: [
      splitLink({
        condition: (op) => op.type === 'subscription',
        true: httpSubscriptionLink({
          url: options.url,
          EventSource,
          eventSourceOptions: async () => {
            const headers = await authorization();
            return {
              fetch: (url, init) => fetchImpl(url, { ...init, headers: { ...init.headers, ...headers } }),
            };
          },
        }),
        // The server refuses batches larger than trpcMaxBatchSize (decision 012).
        false: httpBatchLink({ url: options.url, headers: authorization, fetch: fetchImpl, maxItems: trpcMaxBatchSize }),
      }),
    ],
  });

  return {
    pull: (input) => mapErrors(() => client.sync.pull.query(input)),
    push: (input) => mapErrors(() => client.sync.push.mutate(input)),
    position: (input) => mapErrors(() => client.sync.position.query(input)),
    snapshot: (input) => mapErrors(() => client.sync.snapshot.query(input)),
    subscribePoke(input, handlers) {
      let closed = false;
      let wasOpen = false;
      const subscription = client.sync.poke.subscribe(input, {
        onData: () => {
          if (!closed) handlers.onPoke();
        },
        onError: (err) => {
          if (!closed) handlers.onError(toDomainError(err));
        },
        // A server shutting down ends its pokes cleanly; for a desk that is the server going away.
        onComplete: () => {
          if (!closed) handlers.onError(new Error('El servidor cerró el canal de avisos.'));
        },
        // EventSource reconnects by itself; the client still has to know it is offline meanwhile.
        // A channel that drops after being open reports 'connecting' with no error at all (the
        // stream just ended), so the drop itself is the signal, not only an error.
        onConnectionStateChange: (state) => {
          const dropped = state.state === 'connecting' && (state.error !== null || wasOpen);
          if (state.state === 'pending') wasOpen = true;
          if (!closed && dropped) {
            wasOpen = false;
            handlers.onError(state.error ? toDomainError(state.error) : new Error('El canal de avisos del servidor se cerró.'));
          }
        },
      });
      return () => {
        closed = true;
        subscription.unsubscribe();
      };
    },
  };
}
