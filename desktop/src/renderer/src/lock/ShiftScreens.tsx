import { ActionIcon, Alert, Anchor, Button, Center, Group, Menu, Modal, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconCheck, IconLock, IconLogout, IconSettings, IconUserCircle } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { useEffect, useState, type FormEvent } from 'react';
import { capitalized, dateTimeOf, errorText } from '../format.ts';
import { trpc, type DeskOutputs } from '../trpc.ts';

const t = texts.deskShift;
const d = texts.desk;

type User = NonNullable<DeskOutputs['session']['get']['user']>;
type Status = DeskOutputs['status']['get'];

/**
 * The lock screen: covers the desk until the signed-in person types
 * their PIN or password (checked by the desk, so it works offline), or another
 * staff member signs in (a shift change). The desk service refuses every
 * other call meanwhile, so nothing behind it can be read.
 */
export function LockScreen({ user, hasPin }: { user: User; hasPin: boolean }) {
  const utils = trpc.useUtils();
  const [mode, setMode] = useState<'pin' | 'password' | 'switch'>(hasPin ? 'pin' : 'password');
  const [pin, setPin] = useState('');
  const [password, setPassword] = useState('');
  const [email, setEmail] = useState('');
  const done = () => void utils.invalidate();
  const unlock = trpc.session.unlock.useMutation({ onSuccess: done, onError: () => setPin('') });
  const signIn = trpc.session.signIn.useMutation({ onSuccess: done });
  const error = mode === 'switch' ? signIn.error : unlock.error;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'switch') signIn.mutate({ email, password });
    else unlock.mutate(mode === 'pin' ? { pin } : { password });
  };
  const go = (next: typeof mode) => {
    setMode(next);
    setPassword('');
    setPin('');
    unlock.reset();
    signIn.reset();
  };

  return (
    <Center h="100vh" bg="dark.7" data-testid="lock-screen">
      <Paper withBorder shadow="md" p="xl" w={420} maw="calc(100vw - 24px)" component="form" onSubmit={submit}>
        <Stack>
          <Group gap="xs">
            <IconLock size={26} />
            <Title order={2}>{t.lockedTitle}</Title>
          </Group>
          <Text size="sm" c="dimmed">
            {mode === 'switch' ? t.switchHint : t.lockedBy(`${user.name} ${user.last_name}`)}
          </Text>
          {error && (
            <Alert color="red" role="alert">
              {errorText(error)}
            </Alert>
          )}
          {mode === 'pin' && (
            <PasswordInput
              label={t.pinLabel}
              inputMode="numeric"
              autoComplete="off"
              maxLength={6}
              autoFocus
              required
              value={pin}
              onChange={(e) => setPin(e.currentTarget.value.replace(/\D/g, ''))}
              data-testid="unlock-pin"
            />
          )}
          {mode === 'switch' && (
            <TextInput label={d.emailLabel} type="email" autoComplete="username" required autoFocus value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
          )}
          {mode !== 'pin' && (
            <PasswordInput
              label={d.passwordLabel}
              autoComplete="current-password"
              required
              autoFocus={mode === 'password'}
              value={password}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
          )}
          <Button type="submit" size="md" loading={unlock.isPending || signIn.isPending}>
            {mode === 'switch' ? d.signInButton : t.unlock}
          </Button>
          <Group justify="space-between">
            {mode === 'switch' ? (
              <Anchor component="button" type="button" size="sm" onClick={() => go(hasPin ? 'pin' : 'password')}>
                {t.back}
              </Anchor>
            ) : hasPin ? (
              <Anchor component="button" type="button" size="sm" onClick={() => go(mode === 'pin' ? 'password' : 'pin')}>
                {mode === 'pin' ? t.usePassword : t.usePin}
              </Anchor>
            ) : (
              <span />
            )}
            {mode !== 'switch' && (
              <Anchor component="button" type="button" size="sm" onClick={() => go('switch')}>
                {t.switchAccount}
              </Anchor>
            )}
          </Group>
        </Stack>
      </Paper>
    </Center>
  );
}

const AUTO_LOCK_KEY = 'desk.autoLockMinutes';
const autoLockChoices = [0, 2, 5, 10, 15] as const;

/**
 * The header's account controls: the name, 'Bloquear', the lock settings (PIN,
 * idle auto-lock, kept on this computer) and 'Cerrar sesión'. From 992 px wide
 * they sit in the header; narrower, they are the items of one menu button, so
 * each stays reachable and reads whole (a phone's 390 px cut the name and
 * 'Cerrar sesión').
 */
export function LockControls({ userName, onSignOut, signingOut, pending }: { userName: string; onSignOut: () => void; signingOut: boolean; pending: number }) {
  // Changes not sent yet stay in this desk's outbox until this account signs in again here: say so before leaving.
  const [confirmingSignOut, setConfirmingSignOut] = useState(false);
  const signOut = () => (pending > 0 ? setConfirmingSignOut(true) : onSignOut());
  const utils = trpc.useUtils();
  const lock = trpc.session.lock.useMutation({ onSuccess: () => void utils.invalidate() });
  const [pinOpen, setPinOpen] = useState(false);
  const [minutes, setMinutes] = useState<number>(() => Number(globalThis.localStorage?.getItem(AUTO_LOCK_KEY) ?? 0) || 0);

  useEffect(() => {
    if (!minutes) return;
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => lock.mutate(), minutes * 60_000);
    };
    const events = ['pointerdown', 'pointermove', 'keydown', 'wheel'] as const;
    for (const e of events) window.addEventListener(e, arm, { passive: true });
    arm();
    return () => {
      clearTimeout(timer);
      for (const e of events) window.removeEventListener(e, arm);
    };
    // Armed per choice of minutes only: re-arming on every render would reset the idle clock.
  }, [minutes]);

  const choose = (n: number) => {
    setMinutes(n);
    globalThis.localStorage?.setItem(AUTO_LOCK_KEY, String(n));
  };
  const autoLockItems = (
    <>
      <Menu.Label>{t.autoLock}</Menu.Label>
      {autoLockChoices.map((n) => (
        <Menu.Item key={n} onClick={() => choose(n)} rightSection={n === minutes ? <IconCheck size={14} /> : null}>
          {n ? t.autoLockMinutes(n) : t.autoLockNever}
        </Menu.Item>
      ))}
    </>
  );

  return (
    <>
      <Group gap="xs" wrap="nowrap" visibleFrom="md">
        <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
          {userName}
        </Text>
        <Group gap={0} wrap="nowrap">
          <Button variant="light" color="dark" leftSection={<IconLock size={16} />} onClick={() => lock.mutate()} loading={lock.isPending} data-testid="lock-button">
            {t.lock}
          </Button>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="subtle" color="dark" px={8} aria-label={t.pinMenu}>
                <IconSettings size={16} />
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item onClick={() => setPinOpen(true)}>{t.pinMenu}</Menu.Item>
              {autoLockItems}
            </Menu.Dropdown>
          </Menu>
        </Group>
        <Button variant="subtle" leftSection={<IconLogout size={16} />} onClick={signOut} loading={signingOut} style={{ flexShrink: 0 }}>
          {d.signOut}
        </Button>
      </Group>
      {/* Narrower than 992 px: one button, the same controls as menu items. */}
      <Menu position="bottom-end" withinPortal width={240}>
        <Menu.Target>
          <ActionIcon variant="light" color="dark" size="lg" hiddenFrom="md" aria-label={d.accountMenu} loading={lock.isPending || signingOut} data-testid="account-menu">
            <IconUserCircle size={20} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Text size="sm" fw={600} c="dark">
              {userName}
            </Text>
          </Menu.Label>
          <Menu.Item leftSection={<IconLock size={16} />} onClick={() => lock.mutate()} data-testid="lock-button-compact">
            {t.lock}
          </Menu.Item>
          <Menu.Item leftSection={<IconSettings size={16} />} onClick={() => setPinOpen(true)}>
            {t.pinMenu}
          </Menu.Item>
          {autoLockItems}
          <Menu.Divider />
          <Menu.Item leftSection={<IconLogout size={16} />} onClick={signOut}>
            {d.signOut}
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      {pinOpen && <PinModal opened onClose={() => setPinOpen(false)} />}
      <Modal opened={confirmingSignOut} onClose={() => setConfirmingSignOut(false)} title={t.signOutPendingTitle(pending)} centered>
        <Stack gap="md" data-testid="sign-out-pending">
          <Text size="sm">{t.signOutPendingBody(pending)}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirmingSignOut(false)} data-autofocus>
              {t.signOutStay}
            </Button>
            <Button
              color="red"
              onClick={() => {
                setConfirmingSignOut(false);
                onSignOut();
              }}
            >
              {t.signOutAnyway}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function PinModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const utils = trpc.useUtils();
  const [pin, setPin] = useState('');
  const [password, setPassword] = useState('');
  const save = trpc.session.setPin.useMutation({
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t.pinSaved });
      void utils.session.get.invalidate();
      setPin('');
      setPassword('');
      onClose();
    },
  });
  return (
    <Modal opened={opened} onClose={onClose} title={t.setPinTitle} centered>
      <Stack
        component="form"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          save.mutate({ pin, password });
        }}
      >
        <Text size="sm" c="dimmed">
          {t.setPinHint}
        </Text>
        {save.error && (
          <Alert color="red" role="alert">
            {errorText(save.error)}
          </Alert>
        )}
        <TextInput
          label={t.newPinLabel}
          inputMode="numeric"
          autoComplete="off"
          maxLength={6}
          required
          value={pin}
          onChange={(e) => setPin(e.currentTarget.value.replace(/\D/g, ''))}
          data-testid="new-pin"
        />
        <PasswordInput label={d.passwordLabel} autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
        <Button type="submit" loading={save.isPending}>
          {t.setPinButton}
        </Button>
      </Stack>
    </Modal>
  );
}

/** Signed in offline and the server is back: one password, online, and the waiting changes go out. */
export function PasswordNeeded({ user, pending }: { user: User; pending: number }) {
  const utils = trpc.useUtils();
  const [password, setPassword] = useState('');
  const signIn = trpc.session.signIn.useMutation({ onSuccess: () => void utils.invalidate() });
  return (
    <Alert color="yellow" title={t.passwordNeededTitle} data-testid="password-needed">
      <Stack
        gap="xs"
        component="form"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          signIn.mutate({ email: user.email, password });
        }}
      >
        <Text size="sm">{t.passwordNeededHint(pending)}</Text>
        {signIn.error && (
          <Text size="sm" c="red" role="alert">
            {errorText(signIn.error)}
          </Text>
        )}
        <Group align="flex-end" wrap="wrap">
          <PasswordInput label={d.passwordLabel} autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} w={260} />
          <Button type="submit" loading={signIn.isPending}>
            {t.reconnect}
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

/**
 * Customers registered here offline whose e-mail or phone the server already had (decision 113): what was done
 * went to that account; staff read whose, open her card to correct her details, and press 'Entendido'.
 */
export function Adoptions({ status, onOpen }: { status: Status; onOpen: (customerId: number) => void }) {
  const dismiss = trpc.status.dismissAdoption.useMutation();
  if (!status.adoptions.length) return null;
  return (
    <Alert color="yellow" title={d.adoptedTitle} data-testid="adoptions">
      <Stack gap="sm">
        {status.adoptions.map((a) => (
          // Text and buttons wrap under each other on a narrow window rather than push past it.
          <Group key={a.mutationId} justify="space-between" align="flex-start" wrap="wrap" gap="xs" data-testid="adoption">
            <Text size="sm" style={{ flex: '1 1 320px', minWidth: 0 }}>
              {a.notice}
            </Text>
            <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
              <Button size="xs" variant="default" onClick={() => onOpen(a.customerId)}>
                {d.adoptedOpen}
              </Button>
              <Button size="xs" variant="light" color="yellow" onClick={() => dismiss.mutate({ mutationId: a.mutationId })} loading={dismiss.isPending && dismiss.variables?.mutationId === a.mutationId}>
                {d.dismiss}
              </Button>
            </Group>
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}

/** Changes the server refused, naming whom to call and which class, until staff press 'Entendido' (kept across restarts). */
export function Rejections({ status }: { status: Status }) {
  const dismiss = trpc.status.dismiss.useMutation();
  if (!status.rejections.length) return null;
  return (
    <Alert color="red" title={d.rejectedTitle} data-testid="rejections">
      <Stack gap="sm">
        {status.rejections.map((r) => {
          const s = r.subject;
          return (
            <Group key={r.mutationId} justify="space-between" align="flex-start" wrap="nowrap" data-testid="rejection">
              {/* The text takes what is left; 'Entendido' keeps its width (a phone cut it to 'Ent'). */}
              <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                <Text size="sm" fw={700}>
                  {d.mutationNames[r.name]}
                  {s?.customer ? `: ${s.customer.name}` : ''}
                </Text>
                {s?.customer && (
                  <Text size="sm">
                    {t.rejectedCall} {s.customer.name} · {s.customer.phone ?? t.rejectedNoPhone}
                  </Text>
                )}
                {s?.class && (
                  <Text size="sm">
                    {t.rejectedClass}: {s.class.name} · {capitalized(dateTimeOf(s.class.start))}
                  </Text>
                )}
                {s?.package && (
                  <Text size="sm">
                    {t.rejectedPackage}: {s.package}
                  </Text>
                )}
                {s?.amount != null && <Text size="sm">{t.rejectedAmount(s.amount)}</Text>}
                {!s && <Text size="sm">{t.rejectedUnknown}</Text>}
                <Text size="sm">
                  {t.rejectedBy}: {r.message}
                </Text>
              </Stack>
              <Button size="xs" variant="light" color="red" style={{ flexShrink: 0 }} onClick={() => dismiss.mutate({ mutationId: r.mutationId })} loading={dismiss.isPending && dismiss.variables?.mutationId === r.mutationId}>
                {d.dismiss}
              </Button>
            </Group>
          );
        })}
      </Stack>
    </Alert>
  );
}

/** Changes other staff made on this desk that wait for them to sign in again (their own sync client sends them). */
export function WaitingForOthers({ waiting }: { waiting: { name: string; pending: number }[] }) {
  if (!waiting.length) return null;
  return (
    <Alert color="blue" data-testid="waiting-for-others">
      <Stack gap={2}>
        {waiting.map((w) => (
          <Text key={w.name} size="sm">
            {t.waitingForOthers(w.name, w.pending)}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}
