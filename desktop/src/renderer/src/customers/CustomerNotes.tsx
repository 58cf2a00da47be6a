import { ActionIcon, Alert, Badge, Button, Group, Modal, Paper, SegmentedControl, Stack, Text, Textarea, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconHeartbeat, IconLock, IconNote, IconPlus, IconTrash } from '@tabler/icons-react';
import { customerNoteBody, customerNoteMaxLength, mayRemoveCustomerNote, sortCustomerNotes, texts, type CustomerNoteKind } from '@estudio/core';
import { useEffect, useState, type ReactNode } from 'react';
import { api } from '../admin/api.ts';
import { dateTimeOf, errorText } from '../format.ts';
import { useDeskOnline } from '../saved.ts';
import { trpc, type DeskOutputs } from '../trpc.ts';

const t = texts.customerNotes;

const kindLook: Record<CustomerNoteKind, { color: string; icon: ReactNode }> = {
  alert: { color: 'red', icon: <IconAlertTriangle size={14} /> },
  health: { color: 'grape', icon: <IconHeartbeat size={14} /> },
  note: { color: 'gray', icon: <IconNote size={14} /> },
};

/** A note as the card lists it: the replica's notes and alerts, and the server's health notes in the same shape. */
type ShownNote = DeskOutputs['customers']['notes'][number];

/**
 * What the team knows about this person: alerts (also shown at every scan), health notes and plain notes. Notes and
 * alerts come from the replica and are written offline like any desk action; health notes are read and written on the
 * server only, so they never sit on the reception PC's disk (decision 087).
 */
export function CustomerNotes({ customerId }: { customerId: number }) {
  const local = trpc.customers.notes.useQuery({ customer_id: customerId });
  const remote = api.customer.notes.useQuery({ id: customerId }, { retry: false, staleTime: 30_000 });
  // Back online: the health notes are read again at once, not when the last answer goes stale.
  const online = useDeskOnline();
  const { refetch } = remote;
  const failed = remote.isError;
  useEffect(() => {
    if (online && failed) void refetch();
  }, [online, failed, refetch]);
  const session = trpc.session.get.useQuery();
  const me = session.data?.user ?? null;
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<ShownNote | null>(null);
  const health: ShownNote[] = (remote.data?.notes ?? [])
    .filter((n) => n.kind === 'health')
    .map((n) => ({ ...n, pending: false, removable: me !== null && mayRemoveCustomerNote(me.role, n, me.customer_id) }));
  const notes = sortCustomerNotes([...(local.data ?? []), ...health]);
  return (
    <Stack gap="xs" mt="md" data-testid="customer-notes">
      <Group justify="space-between">
        <Title order={4}>{t.title}</Title>
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} onClick={() => setAdding(true)}>
          {t.add}
        </Button>
      </Group>
      {notes.length === 0 && !remote.error && (
        <Text size="sm" c="dimmed">
          {t.empty}
        </Text>
      )}
      {notes.map((n) => (
        <Paper key={`${n.kind}-${n.customer_note_id}`} withBorder p="xs" radius="sm" data-note-kind={n.kind} data-testid="customer-note">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <Stack gap={4} miw={0}>
              <Group gap={6}>
                <Badge size="sm" color={kindLook[n.kind].color} variant={n.kind === 'alert' ? 'filled' : 'light'} leftSection={kindLook[n.kind].icon}>
                  {t.kinds[n.kind]}
                </Badge>
                {n.kind === 'health' && (
                  <Tooltip label={t.kindHints.health}>
                    <IconLock size={14} aria-label={t.kindHints.health} />
                  </Tooltip>
                )}
                {n.pending && (
                  <Badge size="sm" color="orange" variant="light">
                    {t.pending}
                  </Badge>
                )}
              </Group>
              <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
                {n.body}
              </Text>
              <Text size="xs" c="dimmed">
                {t.byWhom(n.created_by_name, dateTimeOf(n.created_at))}
              </Text>
            </Stack>
            {n.removable && (
              <Tooltip label={t.removeLabel(t.kinds[n.kind])}>
                <ActionIcon variant="subtle" color="gray" aria-label={t.removeLabel(t.kinds[n.kind])} onClick={() => setRemoving(n)}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        </Paper>
      ))}
      {remote.error && (
        <Text size="xs" c="dimmed" data-testid="health-notes-offline">
          {t.healthOffline}
        </Text>
      )}
      {adding && <AddNoteModal customerId={customerId} onClose={() => setAdding(false)} healthAvailable={!remote.error} />}
      {removing && <RemoveNoteModal customerId={customerId} note={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}

function AddNoteModal({ customerId, onClose, healthAvailable }: { customerId: number; onClose: () => void; healthAvailable: boolean }) {
  const [kind, setKind] = useState<CustomerNoteKind>('alert');
  const [body, setBody] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const online = useDeskOnline();
  const serverUtils = api.useUtils();
  const queue = trpc.actions.addCustomerNote.useMutation();
  const send = api.customer.addNote.useMutation();
  const save = async () => {
    // The schema's own rule and words ('Escribe la nota.'), before anything is sent.
    const checked = customerNoteBody.safeParse(body);
    if (!checked.success) return setProblem(checked.error.issues.map((issue) => issue.message).join(' '));
    const text = checked.data;
    setProblem(null);
    try {
      if (kind === 'health') {
        await send.mutateAsync({ customer_id: customerId, kind, body: text });
        await serverUtils.customer.notes.invalidate({ id: customerId });
        notifications.show({ color: 'teal', message: t.saved });
      } else {
        await queue.mutateAsync({ customer_id: customerId, kind, body: text });
        notifications.show(online ? { color: 'teal', message: t.saved } : { color: 'orange', message: t.savedOffline });
      }
      onClose();
    } catch (e) {
      setProblem(errorText(e));
    }
  };
  return (
    <Modal opened onClose={onClose} title={t.add} data-testid="add-note">
      <Stack>
        <SegmentedControl
          fullWidth
          aria-label={t.kindLabel}
          value={kind}
          onChange={(v) => setKind(v as CustomerNoteKind)}
          data={(['alert', 'note', 'health'] as const).map((k) => ({ value: k, label: t.kinds[k], disabled: k === 'health' && !healthAvailable }))}
        />
        <Text size="sm" c="dimmed">
          {kind === 'health' && !healthAvailable ? t.healthOffline : t.kindHints[kind]}
        </Text>
        <Textarea
          label={t.bodyLabel}
          placeholder={t.bodyPlaceholder}
          autosize
          minRows={3}
          maxLength={customerNoteMaxLength}
          value={body}
          onChange={(e) => {
            setBody(e.currentTarget.value);
            setProblem(null);
          }}
          description={`${body.length}/${customerNoteMaxLength}`}
          data-autofocus
        />
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button onClick={() => void save()} loading={queue.isPending || send.isPending}>
            {t.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function RemoveNoteModal({ customerId, note, onClose }: { customerId: number; note: ShownNote; onClose: () => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const serverUtils = api.useUtils();
  const queue = trpc.actions.removeCustomerNote.useMutation();
  const send = api.customer.removeNote.useMutation();
  const remove = async () => {
    try {
      if (note.kind === 'health') {
        await send.mutateAsync({ id: note.customer_note_id, customer_id: customerId });
        await serverUtils.customer.notes.invalidate({ id: customerId });
      } else {
        await queue.mutateAsync({ customer_note_id: note.customer_note_id, customer_id: customerId });
      }
      notifications.show({ color: 'teal', message: t.removed });
      onClose();
    } catch (e) {
      setProblem(errorText(e));
    }
  };
  return (
    <Modal opened onClose={onClose} title={t.removeLabel(t.kinds[note.kind])} data-testid="remove-note">
      <Stack>
        <Text size="sm">{t.removeConfirm}</Text>
        <Paper withBorder p="xs">
          <Text size="sm" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
            {note.body}
          </Text>
        </Paper>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.keep}
          </Button>
          <Button color="red" onClick={() => void remove()} loading={queue.isPending || send.isPending}>
            {t.removeYes}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
