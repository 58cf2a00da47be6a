import { Alert, Badge, Button, Group, Modal, Paper, SimpleGrid, Stack, Table, Text, Textarea } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { singleClassUpdateInput, texts } from '@estudio/core';
import { useState } from 'react';
import { dateTimeOf } from '../../format.ts';
import { api, type ApiOutputs } from '../api.ts';
import { useSchemaForm } from '../form.ts';
import { DateField, TimeField } from '../date-fields.tsx';
import { ConfirmModal, FormError } from '../form-feedback.tsx';
import { Loaded } from '../list-widgets.tsx';
import { ClassFields, classFieldsMissing, classFieldsPayload } from './ClassFields.tsx';
import { studioSlot } from './week.ts';
import { OverlapWarning, useOverlapWarning } from './OverlapWarning.tsx';
import { SubstituteCoach } from './SubstituteCoach.tsx';

const t = texts.adminConsole;
type SingleClass = ApiOutputs['schedule']['byId']['single_class'];

/** One class: who booked it, edit it, or cancel it (every credit goes back and each customer gets a message). */
export function ClassDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const one = api.schedule.byId.useQuery({ id });
  const reservations = api.reservations.search.useQuery({ single_class_id: id, status: 'live' });
  const [editing, setEditing] = useState(false);
  const [substituting, setSubstituting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [note, setNote] = useState('');
  const [previewNote] = useDebouncedValue(note, 300);
  const utils = api.useUtils();
  const cancel = api.adminSchedule.cancel.useMutation({
    onSuccess: (r) => {
      notifications.show({
        color: 'teal',
        title: 'Clase cancelada.',
        message: `Reservaciones canceladas: ${r.reservations_cancelled}. Créditos devueltos: ${r.credits_returned}. Mensajes en cola: ${r.messages_queued}.`,
      });
      setConfirming(false);
      setNote('');
      void utils.schedule.invalidate();
      void utils.reservations.invalidate();
    },
  });
  const live = reservations.data?.class_reservations ?? [];
  // Counted by the server exactly as the cancel will do it (unlimited memberships have no credit to give back), with
  // each group's message as it will be written, the note included.
  const preview = api.adminSchedule.cancelPreview.useQuery({ id, ...(previewNote.trim() ? { note: previewNote } : {}) }, { enabled: confirming, placeholderData: (previous) => previous });

  return (
    <Modal opened onClose={onClose} title="Clase" size="xl" centered>
      <Loaded query={one}>
        {() => {
          const c = one.data?.single_class;
          if (!c) return null;
          if (editing) return <EditClass c={c} onDone={() => setEditing(false)} />;
          if (substituting) return <SubstituteCoach c={c} onDone={() => setSubstituting(false)} />;
          const cancelled = c.cancelledAt !== null;
          return (
            <Stack gap="sm" data-testid="class-detail" data-class-id={c.single_class_id}>
              <Group justify="space-between">
                <div>
                  <Text fw={700} size="lg">
                    {c.class_type.name}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {dateTimeOf(c.class_date)} · {c.duration_minutes} min · {c.location.name}
                  </Text>
                  <Text size="sm">{c.class_instructors.map((i) => `${i.name} ${i.last_name}`).join(', ') || 'Sin coach'}</Text>
                </div>
                <Stack gap={4} align="flex-end">
                  <Badge size="lg" variant="light">
                    {c.reservation_count}/{c.capacity} lugares
                  </Badge>
                  {cancelled && <Badge color="red">Cancelada</Badge>}
                </Stack>
              </Group>
              <Loaded query={reservations}>
                {() =>
                  live.length === 0 ? (
                    <Text c="dimmed" size="sm">
                      Sin reservaciones.
                    </Text>
                  ) : (
                    <Table>
                      <Table.Thead>
                        <Table.Tr>
                          <Table.Th>Cliente</Table.Th>
                          <Table.Th>Correo</Table.Th>
                          <Table.Th>Lugar</Table.Th>
                          <Table.Th>Asistió</Table.Th>
                        </Table.Tr>
                      </Table.Thead>
                      <Table.Tbody>
                        {live.map((r) => (
                          <Table.Tr key={r.class_reservation_id}>
                            <Table.Td>
                              {r.customer.name} {r.customer.last_name}
                              {r.guest ? ` + ${r.guest}` : ''}
                            </Table.Td>
                            <Table.Td>{r.customer.email}</Table.Td>
                            <Table.Td>{r.spot ?? '—'}</Table.Td>
                            <Table.Td>{r.attend ? t.yes : t.no}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  )
                }
              </Loaded>
              {!cancelled && (
                <Group justify="flex-end">
                  <Button variant="default" onClick={() => setEditing(true)}>
                    {t.edit}
                  </Button>
                  {c.class_instructors.length > 0 && Date.parse(c.class_date) > Date.now() && (
                    <Button variant="default" onClick={() => setSubstituting(true)} data-testid="class-substitute">
                      Sustituir coach
                    </Button>
                  )}
                  <Button color="red" onClick={() => setConfirming(true)} data-testid="class-cancel">
                    Cancelar clase
                  </Button>
                </Group>
              )}
              <ConfirmModal
                opened={confirming}
                title="Cancelar clase"
                confirmLabel="Cancelar clase"
                onConfirm={() => cancel.mutate({ id: c.single_class_id, ...(note.trim() ? { note } : {}) })}
                onClose={() => {
                  setConfirming(false);
                  cancel.reset();
                }}
                loading={cancel.isPending}
                error={cancel.error}
              >
                <Text size="sm" data-testid="cancel-summary">
                  {preview.data
                    ? `Se cancelarán ${preview.data.reservations} reservaciones y se devolverán ${preview.data.credits_returned} créditos. ` +
                      (preview.data.waitlisted ? `Se vaciará la lista de espera (${preview.data.waitlisted}). ` : '')
                    : 'Contando reservaciones… '}
                  Cada cliente recibe un mensaje. Una reservación hecha con membresía ilimitada no tiene crédito que devolver: la membresía sigue vigente.
                </Text>
                <Textarea
                  label={t.cancelNoteLabel}
                  description={t.cancelNoteHint}
                  placeholder={t.cancelNotePlaceholder}
                  value={note}
                  onChange={(e) => setNote(e.currentTarget.value)}
                  maxLength={300}
                  autosize
                  minRows={2}
                  data-testid="cancel-note"
                />
                {preview.data?.messages.map((m) => (
                  <Paper key={m.was} withBorder p="sm" radius="md" data-testid={`cancel-message-${m.was}`}>
                    <Text size="xs" c="dimmed" fw={600}>
                      {t.cancelMessageFor(m.was, m.customers)}
                    </Text>
                    <Text size="sm" fw={600} mt={4}>
                      {m.subject}
                    </Text>
                    {m.paragraphs.map((p) => (
                      <Text key={p} size="sm" mt={4}>
                        {p}
                      </Text>
                    ))}
                  </Paper>
                ))}
              </ConfirmModal>
              {cancel.data && (
                <Alert color="teal" data-testid="cancel-result">
                  {`Reservaciones canceladas: ${cancel.data.reservations_cancelled}. Créditos devueltos: ${cancel.data.credits_returned}.`}
                </Alert>
              )}
            </Stack>
          );
        }}
      </Loaded>
    </Modal>
  );
}

function EditClass({ c, onDone }: { c: SingleClass; onDone: () => void }) {
  const slot = studioSlot(c.class_date);
  const form = useSchemaForm({
    date: slot.date,
    time: slot.time,
    class_type_id: String(c.class_type_id) as string | null,
    location_id: String(c.location_id) as string | null,
    instructor_ids: c.class_instructors.map((i) => String(i.instructor_id)),
    capacity: c.capacity as number | string,
    duration_minutes: c.duration_minutes as number | string,
    description: c.description ?? '',
  });
  const v = form.values;
  const utils = api.useUtils();
  const overlap = useOverlapWarning(form.serverError, v);
  const update = api.adminSchedule.update.useMutation({
    onSuccess: () => {
      notifications.show({ color: 'teal', message: t.saved });
      void utils.schedule.invalidate();
      onDone();
    },
    onError: overlap.onError,
  });
  const submit = (allowOverlap = false) => {
    const input = form.validate(singleClassUpdateInput, { single_class_id: c.single_class_id, date: v.date, time: v.time, ...classFieldsPayload(v) }, classFieldsMissing);
    if (input) update.mutate(allowOverlap ? { ...input, allow_overlap: true } : input);
  };
  return (
    <Stack gap="sm">
      <SimpleGrid cols={2}>
        <DateField label="Fecha" required value={v.date || null} onChange={(day) => form.set('date', day ?? '')} error={form.errors.date} testId="class-edit-date" />
        <TimeField label="Hora" required value={v.time} onChange={(time) => form.set('time', time)} error={form.errors.time} testId="class-edit-time" />
      </SimpleGrid>
      <ClassFields values={v} errors={form.errors} set={form.set} />
      <FormError message={form.formError} />
      <OverlapWarning clash={overlap.clash} onConfirm={() => submit(true)} loading={update.isPending} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t.cancel}
        </Button>
        <Button onClick={() => submit()} loading={update.isPending}>
          {t.save}
        </Button>
      </Group>
    </Stack>
  );
}
