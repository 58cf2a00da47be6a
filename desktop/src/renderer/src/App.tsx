import { Alert, AppShell, Badge, Burger, Button, Center, Grid, Group, Loader, NavLink, ScrollArea, Stack, Tabs, Title, Tooltip } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconCheck, IconCloudOff, IconCloudCheck, IconDeviceDesktop, IconKey, IconRefresh } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { lazy, Suspense, useEffect, useState } from 'react';
import { api } from './admin/api.ts';
import { adminSections, type AdminSectionKey } from './admin/sections.ts';
import type { SettingsTabKey } from './admin/settings/fields.ts';
import { CashDrawer } from './cash/CashDrawer.tsx';
import { CustomersScreen } from './customers/CustomersScreen.tsx';
import { pendingText, setStudioZone } from './format.ts';
import { useDeskLive } from './live.ts';
import { createStatusStore, StatusContext, useDeskStatus } from './saved.ts';
import { CheckInProvider } from './scanner/check-in.tsx';
import { Scanner } from './scanner/Scanner.tsx';
import { Adoptions, LockControls, LockScreen, PasswordNeeded, Rejections, WaitingForOthers } from './lock/ShiftScreens.tsx';
import { CoachDesk } from './coach/CoachDesk.tsx';
import { ChangeServerButton, FirstRunServer } from './ServerAddress.tsx';
import { SignIn } from './SignIn.tsx';
import { TodayScreen } from './today/TodayScreen.tsx';
import { trpc, type DeskOutputs } from './trpc.ts';

const t = texts.desk;
// The console's screens (charts, date pickers, forms) are a chunk of their own, loaded when an admin opens one.
const AdminSection = lazy(() => import('./admin/AdminSection.tsx').then((m) => ({ default: m.AdminSection })));

export function App() {
  const session = trpc.session.get.useQuery();
  if (session.isPending) {
    return (
      <Center h="100vh">
        <Loader />
      </Center>
    );
  }
  // First run: the studio's server address before anything else (decision 019).
  if (session.data && !session.data.server.url) return <FirstRunServer />;
  if (session.data) setStudioZone(session.data.timeZone);
  if (!session.data?.user) return <SignIn problem={session.data?.problem ?? null} serverUrl={session.data?.serverUrl ?? null} />;
  // Locked, nothing of the desk is mounted (the service refuses its calls anyway).
  if (session.data.locked) return <LockScreen user={session.data.user} hasPin={session.data.hasPin} />;
  // The role builds the console (decision 045): a coach gets only Horarios (its classes and rosters), read from the server.
  if (session.data.user.role === 'coach') return <CoachDesk userName={`${session.data.user.name} ${session.data.user.last_name}`} problem={session.data.problem} />;
  return <Desk user={session.data.user} problem={session.data.problem} passwordNeeded={session.data.passwordNeeded} waitingForOthers={session.data.waitingForOthers} />;
}

function Desk({
  user,
  problem,
  passwordNeeded,
  waitingForOthers,
}: {
  user: NonNullable<DeskOutputs['session']['get']['user']>;
  problem: string | null;
  passwordNeeded: boolean;
  waitingForOthers: DeskOutputs['session']['get']['waitingForOthers'];
}) {
  const utils = trpc.useUtils();
  // The status lives in a store the screens read part by part: the desk itself does not redraw when it changes.
  const [statusStore] = useState(createStatusStore);
  useDeskLive(true, statusStore);
  const [tab, setTab] = useState<string | null>('today');
  const [openCustomer, setOpenCustomer] = useState<{ customerId: number; at: number } | null>(null);
  // Only admins see the console's sections (the server refuses their routes to anyone else anyway).
  const isAdmin = user.role === 'admin';
  const [section, setSection] = useState<AdminSectionKey | 'reception'>('reception');
  // Configuración's tab when Primeros pasos opens it at one.
  const [settingsTab, setSettingsTab] = useState<SettingsTabKey | undefined>(undefined);
  // Below 576 px the admin's side menu folds behind a button in the header (it took 210 of a phone's 390 px).
  const [navOpened, nav] = useDisclosure(false);
  const goTo = (next: AdminSectionKey | 'reception', tab?: SettingsTabKey) => {
    setSection(next);
    setSettingsTab(tab);
    nav.close();
  };
  // An owner whose studio is not published yet starts on Primeros pasos (decision 129); once, so Recepción stays a click away.
  const setup = api.setup.status.useQuery(undefined, { enabled: isAdmin });
  const [firstRunSeen, setFirstRunSeen] = useState(false);
  useEffect(() => {
    if (firstRunSeen || !setup.data) return;
    setFirstRunSeen(true);
    if (!setup.data.published) setSection((current) => (current === 'reception' ? 'firstSteps' : current));
  }, [firstRunSeen, setup.data]);
  const signOut = trpc.session.signOut.useMutation({ onSuccess: () => utils.session.get.invalidate() });
  const openCustomerCard = (customerId: number) => {
    setTab('customers');
    setOpenCustomer({ customerId, at: Date.now() });
  };

  return (
    <StatusContext.Provider value={statusStore}>
      <CheckInProvider>
        <AppShell header={{ height: 64 }} navbar={isAdmin ? { width: 210, breakpoint: 'sm', collapsed: { mobile: !navOpened } } : undefined} padding={{ base: 'xs', sm: 'md' }}>
          <AppShell.Header>
            <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap" gap="xs">
              <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                {isAdmin && <Burger opened={navOpened} onClick={nav.toggle} hiddenFrom="sm" size="sm" aria-label={t.adminMenu} />}
                <Title order={3} style={{ whiteSpace: 'nowrap' }}>
                  {t.appTitle}
                </Title>
                <SyncIndicator passwordNeeded={passwordNeeded} />
              </Group>
              <LiveLockControls userName={`${user.name} ${user.last_name}`} onSignOut={() => signOut.mutate()} signingOut={signOut.isPending} />
            </Group>
          </AppShell.Header>
          {isAdmin && (
            <AppShell.Navbar p="xs" data-testid="admin-nav">
              <ScrollArea>
                <NavLink
                  component="button"
                  label={texts.adminConsole.nav.reception}
                  leftSection={<IconDeviceDesktop size={18} />}
                  active={section === 'reception'}
                  onClick={() => goTo('reception')}
                />
                {adminSections.map((s) => (
                  <NavLink key={s.key} component="button" label={s.label} leftSection={<s.icon size={18} />} active={section === s.key} onClick={() => goTo(s.key)} />
                ))}
                <ChangeServerButton />
              </ScrollArea>
            </AppShell.Navbar>
          )}
          <AppShell.Main>
            {section !== 'reception' ? (
              <Suspense
                fallback={
                  <Center py="xl">
                    <Loader />
                  </Center>
                }
              >
                <AdminSection section={section} tab={settingsTab} onOpen={goTo} />
              </Suspense>
            ) : (
            <Stack gap="md">
              <StatusNotices
                user={user}
                problem={problem}
                passwordNeeded={passwordNeeded}
                waitingForOthers={waitingForOthers}
                onSignOut={() => signOut.mutate()}
                onOpenCustomer={openCustomerCard}
              />
              {/* Side by side from 992 px wide (the scan panel on the left): at 1024×768 the roster starts above the fold. */}
              <Grid align="flex-start">
                <Grid.Col span={{ base: 12, md: 5, xl: 4 }} data-testid="scan-column">
                  <Scanner />
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 7, xl: 8 }}>
              <Tabs value={tab} onChange={setTab} keepMounted={false} keepMountedMode="display-none">
                <Tabs.List>
                  <Tabs.Tab value="today">{t.tabToday}</Tabs.Tab>
                  <Tabs.Tab value="customers">{t.tabCustomers}</Tabs.Tab>
                  <Tabs.Tab value="cash">{t.tabCashDrawer}</Tabs.Tab>
                </Tabs.List>
                {/* Hoy stays mounted, hidden, while Clientes or Caja is open: coming back shows its rosters as they are
                    instead of drawing every one again, and leaving does not delete them. Hidden by CSS alone
                    (keepMountedMode above): Mantine's default, React's Activity, takes down every row's effects on
                    leaving and sets them up again on coming back, most of a second on a large day. */}
                <Tabs.Panel value="today" pt="md" keepMounted>
                  <TodayScreen />
                </Tabs.Panel>
                <Tabs.Panel value="customers" pt="md">
                  <CustomersScreen open={openCustomer} />
                </Tabs.Panel>
                <Tabs.Panel value="cash" pt="md">
                  <CashDrawer />
                </Tabs.Panel>
              </Tabs>
                </Grid.Col>
              </Grid>
            </Stack>
            )}
          </AppShell.Main>
        </AppShell>
      </CheckInProvider>
    </StatusContext.Provider>
  );
}

type User = NonNullable<DeskOutputs['session']['get']['user']>;

/** What the sync status asks of staff above the desk: the password, refused changes, merged walk-ins, the first sync. */
function StatusNotices({
  user,
  problem,
  passwordNeeded,
  waitingForOthers,
  onSignOut,
  onOpenCustomer,
}: {
  user: User;
  problem: string | null;
  passwordNeeded: boolean;
  waitingForOthers: DeskOutputs['session']['get']['waitingForOthers'];
  onSignOut: () => void;
  onOpenCustomer: (customerId: number) => void;
}) {
  const status = useDeskStatus();
  return (
    <>
      {passwordNeeded ? (
        <PasswordNeeded user={user} pending={status?.pending ?? 0} />
      ) : problem && (
        <Alert color="red" title={problem}>
          <Button size="xs" variant="light" color="red" onClick={onSignOut}>
            {t.signOut}
          </Button>
        </Alert>
      )}
      {status && <Rejections status={status} />}
      {status && <Adoptions status={status} onOpen={onOpenCustomer} />}
      <WaitingForOthers waiting={waitingForOthers} />
      {status && !status.ready && (
        <Alert color="blue" icon={<Loader size="xs" />}>
          {t.firstSync}
        </Alert>
      )}
    </>
  );
}

/** The lock and sign-out buttons, with the changes not sent yet (signing out asks first when there are). */
function LiveLockControls(props: { userName: string; onSignOut: () => void; signingOut: boolean }) {
  return <LockControls {...props} pending={useDeskStatus()?.pending ?? 0} />;
}

/**
 * The connection and the changes not sent yet. From 576 px wide they read in
 * full ('EN LÍNEA', 'TODO ENVIADO'); on a phone each is a short badge (an icon,
 * the number of changes) whose tooltip and accessible name say it in full.
 */
function SyncIndicator({ passwordNeeded }: { passwordNeeded: boolean }) {
  const status = useDeskStatus();
  // Mantine's sm breakpoint (36em = 576 px).
  const wide = useMediaQuery('(min-width: 36em)', true);
  if (!status) return null;
  // The server answers but refuses this session until the password is typed: not 'Sin conexión'.
  const label = passwordNeeded ? texts.deskShift.passwordNeededBadge : status.online ? t.online : t.offline;
  const pending = status.pending ? pendingText(status.pending) : t.allSent;
  return (
    <Group gap={6} wrap="nowrap" data-testid="sync-indicator" data-online={status.online} data-pending={status.pending}>
      <Tooltip
        label={passwordNeeded ? texts.deskShift.passwordNeededBadgeHint : (status.lastError ?? (status.lastSyncAt ? t.lastSync(new Date(status.lastSyncAt).toLocaleTimeString('es-MX')) : label))}
      >
        <Badge
          size="lg"
          variant="light"
          color={passwordNeeded ? 'yellow' : status.online ? 'teal' : 'red'}
          leftSection={passwordNeeded ? <IconKey size={16} /> : status.online ? <IconCloudCheck size={16} /> : <IconCloudOff size={16} />}
          role="status"
          aria-label={label}
          data-testid="connection-status"
          style={{ flexShrink: 0, overflow: 'visible' }}
        >
          {wide ? label : null}
        </Badge>
      </Tooltip>
      <Tooltip label={pending} disabled={wide}>
        <Badge
          size="lg"
          variant={status.pending ? 'filled' : 'light'}
          color={status.pending ? 'orange' : 'gray'}
          role="status"
          aria-label={pending}
          data-testid="pending-count"
          leftSection={status.pending ? undefined : <IconCheck size={16} />}
          style={{ flexShrink: 0, overflow: 'visible' }}
        >
          {wide ? pending : status.pending || null}
        </Badge>
      </Tooltip>
      {status.syncing && <IconRefresh size={16} aria-label={t.syncing} />}
    </Group>
  );
}
