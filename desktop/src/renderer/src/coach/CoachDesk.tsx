import { Alert, AppShell, Button, Group, Stack, Title } from '@mantine/core';
import { texts } from '@estudio/core';
import { LockControls } from '../lock/ShiftScreens.tsx';
import { trpc } from '../trpc.ts';
import { CoachSchedule } from './CoachSchedule.tsx';
import { CoachPay } from './CoachPay.tsx';

const t = texts.desk;

/**
 * The console of a coach (decision 045): only Horarios, its own classes and
 * their rosters, and what they pay (decision 139). No scanner, no customers, no sections of the admin, no sync
 * indicator (a coach's desk replicates nothing).
 */
export function CoachDesk({ userName, problem }: { userName: string; problem: string | null }) {
  const utils = trpc.useUtils();
  const signOut = trpc.session.signOut.useMutation({ onSuccess: () => utils.session.get.invalidate() });
  return (
    <AppShell header={{ height: 64 }} padding={{ base: 'xs', sm: 'md' }}>
      <AppShell.Header>
        <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
          <Title order={3} style={{ whiteSpace: 'nowrap' }}>
            {texts.coachConsole.appTitle}
          </Title>
          {/* A coach's desk replicates nothing: no outbox to leave behind. */}
          <LockControls userName={userName} onSignOut={() => signOut.mutate()} signingOut={signOut.isPending} pending={0} />
        </Group>
      </AppShell.Header>
      <AppShell.Main>
        <Stack gap="md" maw={900} mx="auto">
          {problem && (
            <Alert color="red" title={problem}>
              <Button size="xs" variant="light" color="red" onClick={() => signOut.mutate()}>
                {t.signOut}
              </Button>
            </Alert>
          )}
          <CoachSchedule />
          <CoachPay />
        </Stack>
      </AppShell.Main>
    </AppShell>
  );
}
