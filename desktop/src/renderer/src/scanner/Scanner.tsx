import { ActionIcon, Alert, Badge, Button, CloseButton, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconAlertTriangle, IconCamera, IconCircleCheck, IconQrcode } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { dayOf, errorText, timeOf } from '../format.ts';
import { useDeskStatus, useSavedNotice } from '../saved.ts';
import { trpc } from '../trpc.ts';
import { CameraScanner } from './CameraScanner.tsx';
import { useCheckIn, type ScanResult } from './check-in.tsx';

const t = texts.desk;

const warningText = {
  'wrong-day': t.warningWrongDay,
  'reservation-cancelled': t.warningReservationCancelled,
  'class-cancelled': t.warningClassCancelled,
  'unpaid-cash': t.warningUnpaidCash,
  'already-attended': t.warningAlreadyAttended,
} as const;
const warningColor = { 'wrong-day': 'orange', 'reservation-cancelled': 'red', 'class-cancelled': 'red', 'unpaid-cash': 'yellow', 'already-attended': 'blue' } as const;

const isEditable = (el: Element | null) =>
  !!el && (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement || (el as HTMLElement).isContentEditable);

/**
 * The check-in bar. A keyboard-wedge scanner "types" the Código de Acceso
 * link and Enter: whatever staff are looking at, keystrokes that land on no
 * field go to this input, so a scan never needs a click first.
 */
export function Scanner() {
  const { scan, busy, result, error, clear } = useCheckIn();
  const [code, setCode] = useState('');
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

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const value = code.trim();
    if (!value) return;
    setCode('');
    await scan(value);
    input.current?.focus();
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="md">
        <form onSubmit={submit}>
          <Group align="flex-end" wrap="nowrap">
            <TextInput
              ref={input}
              flex={1}
              size="lg"
              autoFocus
              label={t.scannerLabel}
              placeholder={t.scannerPlaceholder}
              leftSection={<IconQrcode />}
              value={code}
              onChange={(e) => setCode(e.currentTarget.value)}
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
        {error && !result && (
          <Alert color="red" icon={<IconAlertTriangle />} withCloseButton onClose={clear} data-testid="scan-error">
            <Text size="xl" fw={600}>
              {error}
            </Text>
          </Alert>
        )}
      </Stack>
      <Modal opened={camera} onClose={() => setCamera(false)} title={t.cameraTitle} size="lg">
        {camera && (
          <CameraScanner
            onCode={(value) => {
              setCamera(false);
              void scan(value);
            }}
          />
        )}
      </Modal>
    </Paper>
  );
}

/** Who, which class, when — big enough to read from across the counter — and the warnings in colour. */
function ScanPanel({ result, onClose }: { result: ScanResult; onClose: () => void }) {
  const r = result.reservation;
  const saved = useSavedNotice();
  const status = useDeskStatus();
  const markPaid = trpc.actions.markReservationPaid.useMutation({
    onSuccess: () => saved(t.paymentRecorded),
    onError: (e) => notifications.show({ color: 'red', message: errorText(e) }),
  });
  const blocked = !result.checkedIn && !r.attend;
  const ok = result.checkedIn || (r.attend && !result.warnings.some((w) => w !== 'already-attended'));
  return (
    <Paper p="lg" radius="md" bg={blocked ? 'red.0' : 'teal.0'} data-testid="scan-result" data-checked-in={result.checkedIn}>
      <Group justify="space-between" align="flex-start" wrap="nowrap">
        <Stack gap={4}>
          <Group gap="sm">
            {ok ? <IconCircleCheck size={40} color="var(--mantine-color-teal-7)" /> : <IconAlertTriangle size={40} color="var(--mantine-color-red-7)" />}
            <Text fz={22} fw={700} c={ok ? 'teal.8' : 'red.8'}>
              {result.checkedIn || r.attend ? t.checkedIn : t.notCheckedIn}
            </Text>
          </Group>
          <Title order={1} fz={48} lh={1.1} data-testid="scan-name">
            {r.name} {r.last_name}
          </Title>
          {result.checkedIn && status && !status.online && (
            <Text c="orange.8" fw={600}>
              {t.queuedOffline}
            </Text>
          )}
          {r.guest && (
            <Text fz={24}>
              {t.guest}: {r.guest}
            </Text>
          )}
          <Text fz={30} fw={600} data-testid="scan-class">
            {r.class_type} · {timeOf(r.class_date)}
          </Text>
          <Text fz={20} c="dimmed">
            {dayOf(r.class_date)} · {r.location}
            {r.spot !== null ? ` · ${t.seat} ${r.spot}` : ''} · Folio {r.class_reservation_id}
          </Text>
        </Stack>
        <CloseButton size="lg" onClick={onClose} aria-label={t.close} />
      </Group>
      {result.warnings.length > 0 && (
        <Stack gap="xs" mt="md">
          {result.warnings.map((w) => (
            <Alert key={w} color={warningColor[w]} variant="filled" icon={<IconAlertTriangle />} data-warning={w}>
              <Group justify="space-between">
                <Text fz={22} fw={700}>
                  {warningText[w]}
                </Text>
                {w === 'unpaid-cash' && (
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
    </Paper>
  );
}
