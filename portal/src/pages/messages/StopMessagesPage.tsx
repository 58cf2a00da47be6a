import { Alert, Button, List, Loader, Group, Stack, Text } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorFacts } from '../../api/errors.ts';
import { AuthLayout } from '../auth/AuthLayout.tsx';

const t = texts.customerMessages;

function BackToProfile() {
  return (
    <Button component={Link} to="/mystudio/informacion" size="md" variant="light" fullWidth>
      {t.goToProfile}
    </Button>
  );
}

/** The optional messages are off (just now, or already): what the alert says, where to turn them back on, and the way there. */
function NothingToStop({ icon, children }: { icon?: ReactNode; children: ReactNode }) {
  return (
    <Stack gap="md">
      <Alert color="teal" variant="light" role="status" icon={icon}>
        {children}
      </Alert>
      <Text size="sm" ta="center">
        {t.stopTurnBackOn}
      </Text>
      <BackToProfile />
    </Stack>
  );
}

/**
 * /mensajes/baja?token=…, the stop link of every optional message.
 * Opening it changes nothing (mail scanners open links before people do): it
 * shows what would stop, and only the button turns the optional messages off.
 * Then it says what still arrives and where to turn them back on.
 */
export default function StopMessagesPage() {
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const preview = trpc.messages.stopPreview.useQuery({ token }, { enabled: token !== '', retry: false, refetchOnWindowFocus: false });
  const stop = trpc.messages.stop.useMutation();


  if (!token || preview.isError) {
    const facts = preview.error ? errorFacts(preview.error) : null;
    const message = facts?.message ?? t.stopMissingToken;
    return (
      <AuthLayout heading={t.stopInvalidHeading}>
        <Stack gap="md">
          <Alert color="orange" variant="light" role="alert">
            {message}
          </Alert>
          <BackToProfile />
        </Stack>
      </AuthLayout>
    );
  }

  if (stop.isSuccess) {
    return (
      <AuthLayout heading={t.stopDoneHeading}>
        <NothingToStop icon={<IconCircleCheck />}>{t.stopDone}</NothingToStop>
      </AuthLayout>
    );
  }

  const data = preview.data;
  if (!data) {
    return (
      <AuthLayout heading={t.stopHeading}>
        <Group justify="center" py="md">
          <Loader size="sm" aria-label="Cargando" />
        </Group>
      </AuthLayout>
    );
  }

  const channels = [
    ...(data.email_enabled && data.email ? [t.stopEmail(data.email)] : []),
    ...(data.whatsapp_enabled && data.phone ? [t.stopWhatsapp(data.phone)] : []),
  ];
  return (
    <AuthLayout heading={t.stopHeading}>
      {channels.length === 0 ? (
        <NothingToStop>{t.stopAlreadyOff}</NothingToStop>
      ) : (
        <Stack gap="md">
          <Text>{t.stopIntro(data.studio_name)}</Text>
          <div>
            <Text size="sm" fw={700} mb={4}>
              {t.stopWhere}
            </Text>
            <List size="sm" spacing={4}>
              {channels.map((c) => (
                <List.Item key={c}>{c}</List.Item>
              ))}
            </List>
          </div>
          <Text size="sm" c="dimmed">
            {t.stopDone}
          </Text>
          {stop.isError && (
            <Alert color="red" variant="light" role="alert">
              {errorFacts(stop.error).message}
            </Alert>
          )}
          <Button size="md" fullWidth loading={stop.isPending} onClick={() => stop.mutate({ token })}>
            {t.stopButton}
          </Button>
        </Stack>
      )}
    </AuthLayout>
  );
}
