import { useEffect, useState } from 'react';
import { Anchor, Text } from '@mantine/core';
import { useNavigate } from 'react-router';
import { texts } from '@estudio/core';
import { useSession } from '../../session/SessionProvider.tsx';

/** Spec: the loading-screen hint appears after 30 seconds. */
const HINT_AFTER_MS = 30_000;

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
