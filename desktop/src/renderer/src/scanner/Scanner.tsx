import { ActionIcon, Alert, Avatar, Badge, Button, CloseButton, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconCamera, IconCircleCheck, IconCircleX, IconClockExclamation, IconQrcode } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { notifications } from '@mantine/notifications';
import { memo, useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { dayOf, errorText, timeOf } from '../format.ts';
import { useDeskOnline, useSavedNotice } from '../saved.ts';
import { trpc } from '../trpc.ts';
import { CameraScanner } from './CameraScanner.tsx';
import { useCheckInActions, useCheckInBusy, useCheckInShown, type ScanResult } from './check-in.tsx';

const t = texts.desk;

const isEditable = (el: Element | null) =>
  !!el && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || (el as HTMLElement).isContentEditable);

/**
 * The check-in bar. A keyboard-wedge scanner "types" the Código de Acceso
 * link and Enter: whatever staff are looking at, keystrokes that land on no
 * field go to this input, so a scan never needs a click first.
 */
export function Scanner() {
  const { scan, clear } = useCheckInActions();
  const busy = useCheckInBusy();
  const { result, error } = useCheckInShown();
  const [camera, setCamera] = useState(false);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.key.length !== 1) return;
      if (isEditable(document.activeElement) || document.querySelector('[role="dialog"]')) return;
      input.current?.focus();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, []);

  // The field is not React state: a scanner types sixty characters in a burst, and each would have drawn the desk
  // again, as would clearing it; the scan leaves before anything is drawn.
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const field = input.current;
    const value = field?.value.trim() ?? '';
    if (!field || !value) return;
    field.value = '';
    await scan(value);
    input.current?.focus();
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        <form onSubmit={submit}>
          <Group align="flex-end" wrap="wrap">
            <TextInput
              ref={input}
              flex={1}
              miw={260}
              size="lg"
              autoFocus
              label={t.scannerLabel}
              placeholder={t.scannerPlaceholder}
              leftSection={<IconQrcode />}
              data-testid="scanner-input"
              autoComplete="off"
              spellCheck={false}
            />
            <Button size="lg" type="submit" loading={busy}>
              {t.checkInAction}
            </Button>
            <ActionIcon size={50} variant="light" onClick={() => setCamera(true)} aria-label={t.cameraButton} title={t.cameraButton}>
              <IconCamera />
            </ActionIcon>
          </Group>
        </form>
        {result && <ScanPanel result={result} onClose={clear} />}
        {error && !result && <CodeRefused message={error} onClose={clear} />}
      </Stack>
      <Modal opened={camera} onClose={() => setCamera(false)} title={t.cameraTitle} size="lg">
        {camera && (
          <CameraScanner
            onCode={(value) => {
              setCamera(false);
              void scan(value).then(() => input.current?.focus());
            }}
          />
        )}
      </Modal>
    </Paper>
  );
}

type Outcome = ScanResult['outcome'];

/** Colour, icon and words together: the verdict reads at a glance and without relying on colour. */
const outcomeLook: Record<Outcome, { color: string; bg: string; Icon: typeof IconCircleCheck; title: string }> = {
  admitted: { color: 'green', bg: 'green.0', Icon: IconCircleCheck, title: t.outcomeAdmitted },
  already: { color: 'orange', bg: 'yellow.0', Icon: IconClockExclamation, title: t.outcomeAlready },
  refused: { color: 'red', bg: 'red.0', Icon: IconCircleX, title: t.outcomeRefused },
};

const initials = (name: string, lastName: string) => `${name.trim().charAt(0)}${lastName.trim().charAt(0)}`.toUpperCase();

/** The frame of every verdict: a thick border and tint in the outcome's colour, its icon and its word. */
function Verdict({ outcome, detail, children, onClose, testId, checkedIn }: { outcome: Outcome; detail: string; children?: ReactNode; onClose: () => void; testId: string; checkedIn?: boolean }) {
  const look = outcomeLook[outcome];
  return (
    <Paper
      p="md"
      pos="relative"
      radius="md"
      bg={look.bg}
      style={{ border: `6px solid var(--mantine-color-${look.color}-7)` }}
      data-testid={testId}
      data-outcome={outcome}
      data-checked-in={checkedIn}
      role="status"
      aria-live="assertive"
    >
      <CloseButton size="lg" onClick={onClose} aria-label={t.close} pos="absolute" top={8} right={8} />
      <Group gap="sm" wrap="nowrap" align="center" pr={36}>
        <look.Icon size={56} stroke={2.2} color={`var(--mantine-color-${look.color}-8)`} style={{ flexShrink: 0 }} aria-hidden />
        <Stack gap={0}>
          <Text fz={{ base: 30, sm: 36 }} fw={900} lh={1.05} c={`${look.color}.9`} data-testid="scan-outcome">
            {look.title}
          </Text>
          <Text fz={{ base: 18, sm: 20 }} fw={700} c={`${look.color}.9`} data-testid="scan-outcome-detail">
            {detail}
          </Text>
        </Stack>
      </Group>
      {children}
    </Paper>
  );
}

/** A code refused before any reservation was found (old folio, another site, unknown): red, with the reason. */
function CodeRefused({ message, onClose }: { message: string; onClose: () => void }) {
  return <Verdict outcome="refused" detail={message} onClose={onClose} testId="scan-error" />;
}

/**
 * Who, which class, when — big enough to read from across the counter — under the verdict, and the warnings in words.
 * Memoised: clearing the scanner's field after a scan does not draw the last verdict again before the scan leaves.
 */
const ScanPanel = memo(function ScanPanel({ result, onClose }: { result: ScanResult; onClose: () => void }) {
  const r = result.reservation;
  // No request for a customer without a photo: the next scan does not wait behind it in the desk service.
  const photo = trpc.customers.photo.useQuery({ customer_id: r.customer_id }, { staleTime: Infinity, enabled: r.hasPhoto !== false });
  const saved = useSavedNotice();
  const online = useDeskOnline();
  const markPaid = trpc.actions.markReservationPaid.useMutation({
    onSuccess: () => saved(t.paymentRecorded),
    onError: (e) => notifications.show({ color: 'red', message: errorText(e) }),
  });
  const reasons = result.notices.filter((n) => n.blocks);
  const detail =
    result.outcome === 'admitted'
      ? `${t.outcomeAdmittedDetail} · ${timeOf(r.attendedAt ?? result.at)}`
      : result.outcome === 'already'
        ? t.outcomeAlreadyDetail(timeOf(r.attendedAt ?? result.at))
        : (reasons.map((n) => n.text).join(' ') || t.outcomeRefusedDetail);
  const others = result.notices.filter((n) => !n.blocks && n.code !== 'already-attended');
  const look = outcomeLook[result.outcome];
  return (
    <Verdict outcome={result.outcome} detail={detail} onClose={onClose} testId="scan-result" checkedIn={result.checkedIn}>
      <Group gap="md" mt="sm" wrap="nowrap" align="center" data-testid="scan-person">
        {/* The customer's photo (kept by the desk once seen, customer-photos.ts); the initials stand in until then or when there is none. */}
        <Avatar
          src={photo.data ?? null}
          alt={`${r.name} ${r.last_name}`}
          size={photo.data ? 120 : 76}
          radius={photo.data ? 'md' : 76}
          color={look.color}
          variant="filled"
          title={photo.data ? undefined : t.noPhoto}
          data-testid="scan-avatar"
          data-photo={photo.data ? 'yes' : 'no'}
          style={{ flexShrink: 0 }}
        >
          <Text fz={30} fw={800} c="white">
            {initials(r.name, r.last_name)}
          </Text>
        </Avatar>
        <Stack gap={2} miw={0}>
          <Title order={1} fz={{ base: 32, sm: 40 }} lh={1.1} data-testid="scan-name">
            {r.name} {r.last_name}
          </Title>
          {r.guest && (
            <Text fz={22}>
              {t.guest}: {r.guest}
            </Text>
          )}
          <Text fz={{ base: 22, sm: 26 }} fw={600} data-testid="scan-class">
            {r.class_type} · {timeOf(r.class_date)}
          </Text>
          <Text fz={18} c="dimmed">
            {dayOf(r.class_date)} · {r.location}
            {r.spot !== null ? ` · ${t.seat} ${r.spot}` : ''}
          </Text>
        </Stack>
      </Group>
      {result.checkedIn && !online && (
        <Text c="orange.9" fw={700} mt="xs">
          {t.queuedOffline}
        </Text>
      )}
      {others.length > 0 && (
        <Stack gap="xs" mt="sm">
          {others.map((n) => (
            <Alert key={n.code} color={n.tone} variant="filled" icon={<IconAlertTriangle />} data-warning={n.code} py={8}>
              <Group justify="space-between" wrap="nowrap">
                <Text fz={20} fw={700} c={n.tone === 'yellow' ? 'dark' : undefined}>
                  {n.text}
                </Text>
                {n.code === 'unpaid-cash' && (
                  <Button color="dark" onClick={() => markPaid.mutate({ class_reservation_id: r.class_reservation_id })} loading={markPaid.isPending} disabled={markPaid.isSuccess}>
                    {t.markPaid}
                  </Button>
                )}
              </Group>
            </Alert>
          ))}
        </Stack>
      )}
      {r.is_cash && r.is_paid && (
        <Badge mt="sm" color="teal" variant="light">
          {t.cashPaid}
        </Badge>
      )}
    </Verdict>
  );
});
