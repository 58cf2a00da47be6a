import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { inferRouterOutputs } from '@trpc/server';
import { trpc, type AppRouter } from '../api/trpc.ts';
import { apiErrors } from '../api/api-errors.ts';
import { errorFacts } from '../api/errors.ts';
import { showError } from '../ui/alerts.ts';
import { idTokenEndedCodes, sessionEndingCodes } from './auth-client.ts';
import type { SessionStore, StoredSession } from './session-store.ts';
import { useHydrating } from '../ssr/render-context.ts';

export type Customer = inferRouterOutputs<AppRouter>['customer']['me']['customer'];

/**
 * Spec: signed out, signing in (spinner), signed in with the customer loaded.
 * 'needsProfile': the identity signed in but has no customer yet (a sign-up
 * stopped between the two steps); the sign-up page lets the person finish it.
 */
export type SessionStatus = 'signedOut' | 'signingIn' | 'signedIn' | 'needsProfile';

export interface SessionValue {
  status: SessionStatus;
  customer: Customer | null;
  tokens: StoredSession | null;
  store: SessionStore;
  signIn(email: string, password: string): Promise<void>;
  signOut(): void;
}

const SessionContext = createContext<SessionValue | null>(null);

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/**
 * Loads the customer of the signed-in identity and signs out when that fails,
 * when the provider has no user, or when any call answers that the session
 * ended (expired, revoked or invalid ID token).
 */
export function SessionProvider({ store, children }: { store: SessionStore; children: ReactNode }) {
  // The server's pre-render (decision 026) knows no session (its store's snapshot is null); the browser's hydration of
  // it starts signed out too, and renders the stored session right after, as a transition (decision 043).
  const hydrating = useHydrating();
  const stored = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const tokens = hydrating ? null : stored;
  const queryClient = useQueryClient();
  const utils = trpc.useUtils();

  const me = trpc.customer.me.useQuery(undefined, {
    enabled: tokens !== null,
    retry: false,
    staleTime: 5 * 60_000,
  });

  const signOut = useCallback(() => {
    store.signOut();
  }, [store]);

  // Sign-out clears the user: nothing of the previous customer stays cached.
  const wasSignedIn = useRef(tokens !== null);
  useEffect(() => {
    if (tokens) {
      wasSignedIn.current = true;
      return;
    }
    if (!wasSignedIn.current) return;
    wasSignedIn.current = false;
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'appconfig' });
  }, [tokens, queryClient]);

  // A new identity (sign-in, or another tab switching accounts) loads its own customer.
  const uid = tokens?.uid;
  useEffect(() => {
    if (uid) void utils.customer.me.invalidate();
  }, [uid, utils]);

  const needsProfile = me.isError && errorFacts(me.error).code === 'customer/not-found';
  useEffect(() => {
    // An identity without its customer stays signed in, so the sign-up page can complete it.
    if (!me.isError || !tokens || needsProfile) return;
    const facts = errorFacts(me.error);
    // No answer at all (no connection): the session stays, as the store keeps it through a failed refresh; the
    // customer loads when the connection is back (queries refetch on reconnect), and the account shows what it kept.
    if (facts.status === undefined && facts.code === undefined) return;
    if (!facts.code || !sessionEndingCodes.has(facts.code)) showError(facts.message);
    store.signOut();
  }, [me.isError, me.error, tokens, store, needsProfile]);

  useEffect(
    () =>
      apiErrors.subscribe((error) => {
        const { code } = errorFacts(error);
        if (code && idTokenEndedCodes.has(code)) store.signOut();
      }),
    [store],
  );

  const signIn = useCallback(
    async (email: string, password: string) => {
      const answer = await store.authClient.signIn(email, password);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'appconfig' });
      store.start(answer);
    },
    [store, queryClient],
  );

  const customer = tokens ? (me.data?.customer ?? null) : null;
  const status: SessionStatus = !tokens ? 'signedOut' : customer && !me.isError ? 'signedIn' : needsProfile ? 'needsProfile' : 'signingIn';

  const value = useMemo<SessionValue>(
    () => ({ status, customer: status === 'signedIn' ? customer : null, tokens, store, signIn, signOut }),
    [status, customer, tokens, store, signIn, signOut],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
