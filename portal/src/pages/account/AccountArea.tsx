import { useEffect, useState } from 'react';
import { Anchor, Text } from '@mantine/core';
import { Navigate, useNavigate } from 'react-router';
import { texts } from '@estudio/core';
import { useSession } from '../../session/SessionProvider.tsx';
import { LoadingScreen } from '../../ui/LoadingScreen.tsx';
import { AccountLayout } from './AccountLayout.tsx';

/** Spec: the loading-screen hint appears after 30 seconds. */
const HINT_AFTER_MS = 30_000;
/** A signed-out visitor sees 'Accediendo' briefly rather than a flash before /entrar. */
const SIGNED_OUT_REDIRECT_MS = 700;

function Accessing() {
  const { status, signOut } = useSession();
  const navigate = useNavigate();
  const [showHint, setShowHint] = useState(false);

  useEffect(() => {
    const timer = window.setTimeout(() => setShowHint(true), HINT_AFTER_MS);
    return () => window.clearTimeout(timer);
  }, []);

  useEffect(() => {
    if (status !== 'signedOut') return;
    const timer = window.setTimeout(() => navigate('/entrar', { replace: true }), SIGNED_OUT_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [status, navigate]);

  return (
    <LoadingScreen caption={texts.auth.accessing}>
      {showHint && (
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
      )}
    </LoadingScreen>
  );
}

/** /mystudio/*: the account layout once the customer is loaded, 'Accediendo' until then. */
export default function AccountArea() {
  const { status, customer } = useSession();
  if (status === 'signedIn' && customer) return <AccountLayout customer={customer} />;
  if (status === 'needsProfile') return <Navigate to="/registro" replace />;
  return <Accessing />;
}
