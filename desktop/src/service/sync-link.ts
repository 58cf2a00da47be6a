import { DomainError } from '@estudio/core';
import type { SyncServerLink } from '@estudio/sync/client/types';

/** The server no longer accepts the ID token (restarted with a new signing key, revoked, clock skew): refresh and try again. */
const staleTokenCodes = new Set(['auth/id-token-expired', 'auth/invalid-id-token', 'auth/id-token-revoked']);
export const isStaleToken = (error: unknown) => error instanceof DomainError && staleTokenCodes.has(error.code);
/** The server answered that this account may not sync: its role was taken away (or its session is gone). */
const isRefusedAccount = (error: unknown) => error instanceof DomainError && (error.code === 'forbidden' || error.code === 'unauthenticated');

/**
 * The sync link with the desk's token handling: a stale token is refreshed and
 * the call tried once more; any answer of the server while the session has no
 * tokens (signed in offline) or refusing the account goes to `onRefused`.
 */
export function retryOnStaleToken(link: SyncServerLink, refresh: () => Promise<unknown>, onRefused: (error: DomainError) => void): SyncServerLink {
  const once =
    <A, R>(call: (input: A) => Promise<R>) =>
    async (input: A): Promise<R> => {
      try {
        return await call(input);
      } catch (error) {
        if (isRefusedAccount(error)) onRefused(error as DomainError);
        if (!isStaleToken(error)) throw error;
        await refresh();
        return call(input);
      }
    };
  return {
    pull: once((input) => link.pull(input)),
    push: once((input) => link.push(input)),
    position: once((input) => link.position(input)),
    snapshot: once((input) => link.snapshot(input)),
    subscribePoke: (input, handlers) =>
      link.subscribePoke(input, {
        onPoke: handlers.onPoke,
        onError: (error) => {
          if (isRefusedAccount(error)) onRefused(error as DomainError);
          // The client reconnects with backoff and asks for a token again: have a fresh one ready.
          if (isStaleToken(error)) void refresh();
          handlers.onError(error);
        },
      }),
  };
}
