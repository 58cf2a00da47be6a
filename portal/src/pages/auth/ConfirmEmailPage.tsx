import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorFacts } from '../../api/errors.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { AuthLayout } from './AuthLayout.tsx';

type Outcome = { state: 'pending' } | { state: 'done' } | { state: 'failed'; message: string };

/**
 * /confirmar-correo?token=…, the link mailed to the new address: applies the
 * e-mail change on load. The server ends every session of the account, so this
 * one is dropped too and the visitor signs in with the new e-mail.
 */
export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const { signOut } = useSession();
  const confirm = trpc.auth.confirmEmailChange.useMutation();
  const [outcome, setOutcome] = useState<Outcome>(token ? { state: 'pending' } : { state: 'failed', message: texts.profile.emailConfirmInvalid });
  // The code works once: a second call (StrictMode's double effect, a re-render) would report it as used.
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (!token || sent.current === token) return;
    sent.current = token;
    confirm.mutateAsync({ token }).then(
      () => {
        signOut();
        setOutcome({ state: 'done' });
      },
      (error: unknown) => {
        const { code, message } = errorFacts(error);
        setOutcome({ state: 'failed', message: code === 'auth/invalid-action-code' ? texts.profile.emailConfirmInvalid : message });
      },
    );
  }, [token, confirm, signOut]);

  return (
    <AuthLayout heading={texts.profile.emailConfirmHeading}>
      {outcome.state === 'pending' && (
        <Group justify="center" gap="sm">
          <Loader size="sm" />
          <Text size="sm">{texts.profile.emailConfirming}</Text>
        </Group>
      )}
      {outcome.state === 'done' && (
        <Stack gap="md">
          <Alert color="teal" variant="light" role="status">
            {texts.profile.emailConfirmed}
          </Alert>
          <Button component={Link} to="/entrar" size="md" fullWidth>
            {texts.profile.goToLogin}
          </Button>
        </Stack>
      )}
      {outcome.state === 'failed' && (
        <Stack gap="md">
          <Alert color="red" variant="light" role="alert">
            {outcome.message}
          </Alert>
          <Button component={Link} to="/mystudio/informacion" size="md" fullWidth>
            {texts.profile.backToProfile}
          </Button>
        </Stack>
      )}
    </AuthLayout>
  );
}
