import { useEffect } from 'react';
import { Navigate, useLocation, useMatches, useNavigate } from 'react-router';
import { texts } from '@estudio/core';
import { useSession } from '../../session/SessionProvider.tsx';
import { signInPath } from '../../session/return-to.ts';
import { LoadingScreen } from '../../ui/LoadingScreen.tsx';
import { useHydrating } from '../../ssr/render-context.ts';
import type { RouteHandle } from '../../router.tsx';
import { AccessingHint } from './AccessingHint.tsx';
import { AccountLayout } from './AccountLayout.tsx';
import { OfflineScreen } from '../../offline/OfflinePass.tsx';
import { storedSessionUid } from '../../offline/access-passes.ts';
import { useOnline } from '../../offline/useOnline.ts';

/** A signed-out visitor sees 'Accediendo' briefly rather than a flash before /entrar. */
const SIGNED_OUT_REDIRECT_MS = 700;

function Accessing() {
  const { status } = useSession();
  const navigate = useNavigate();
  const { pathname, search } = useLocation();

  useEffect(() => {
    if (status !== 'signedOut') return;
    // The page asked for (a message's link to Mis Reservaciones) is where the sign-in comes back to.
    const timer = window.setTimeout(() => navigate(signInPath(pathname + search), { replace: true }), SIGNED_OUT_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [status, navigate, pathname, search]);

  return (
    <LoadingScreen caption={texts.auth.accessing}>
      <AccessingHint />
    </LoadingScreen>
  );
}

/**
 * /mystudio/*: the account layout once the customer is loaded, 'Accediendo' until then (spec).
 *
 * A page that shows without the customer (the calendar: its route pre-renders, decision 059) comes with its layout
 * from the server, and stays on screen while a stored session loads its customer: the name and the customer's own
 * parts fill in, rather than the page going through 'Accediendo'. A visitor with no session gets 'Accediendo' and
 * /entrar once the hydration has read the browser's storage.
 */
export default function AccountArea() {
  const { status, customer } = useSession();
  const hydrating = useHydrating();
  const pageShowsWithoutCustomer = (useMatches().at(-1)?.handle as RouteHandle | undefined)?.prerender === true;
  const online = useOnline();
  if (status === 'signedIn' && customer) return <AccountLayout customer={customer} />;
  // Opened with no connection (the installed app at the studio's door): her kept access codes, not a loader that never ends.
  if (!online && !hydrating && status !== 'signedOut' && storedSessionUid()) return <OfflineScreen />;
  if (status === 'needsProfile') return <Navigate to="/registro" replace />;
  if (pageShowsWithoutCustomer && (hydrating || status === 'signingIn')) return <AccountLayout customer={null} />;
  return <Accessing />;
}
