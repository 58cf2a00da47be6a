import { useEffect, useState } from 'react';
import { Anchor, Text } from '@mantine/core';
import { Navigate, useMatches, useNavigate } from 'react-router';
import { texts } from '@estudio/core';
import { useSession } from '../../session/SessionProvider.tsx';
import { LoadingScreen } from '../../ui/LoadingScreen.tsx';
import { useHydrating } from '../../ssr/render-context.ts';
import type { RouteHandle } from '../../router.tsx';
import { AccountLayout } from './AccountLayout.tsx';

/** Spec: the loading-screen hint appears after 30 seconds. */
const HINT_AFTER_MS = 30_000;
/** A signed-out visitor sees 'Accediendo' briefly rather than a flash before /entrar. */
const SIGNED_OUT_REDIRECT_MS = 700;

/** The spec's way out of an account area that does not load: after 30 seconds, a link that signs out and goes to /entrar. */
export function AccessingHint() {
  const { signOut } = useSession();
  const navigate = useNavigate();
  const [shown, setShown] = useState(false);

  useEffect(() => {
    const timer = window.setTimeout(() => setShown(true), HINT_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, []);

  if (!shown) return null;
  return (
    <Text size="sm" c="dimmed" ta="center">
      <Anchor
        component="button"
        type="button"
        inherit
        onClick={() => {
          signOut();
          navigate('/entrar', { replace: true });
        }}
      >
        {texts.shell.accessingLink}
      </Anchor>{' '}
      {texts.auth.accessingHint}
    </Text>
  );
}

function Accessing() {
  const { status } = useSession();
  const navigate = useNavigate();

  useEffect(() => {
    if (status !== 'signedOut') return;
    const timer = window.setTimeout(() => navigate('/entrar', { replace: true }), SIGNED_OUT_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [status, navigate]);

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
  if (status === 'signedIn' && customer) return <AccountLayout customer={customer} />;
  if (status === 'needsProfile') return <Navigate to="/registro" replace />;
  if (pageShowsWithoutCustomer && (hydrating || status === 'signingIn')) return <AccountLayout customer={null} />;
  return <Accessing />;
}
