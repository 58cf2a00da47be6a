import { Alert, Badge, Button, Checkbox, Group, Modal, SegmentedControl, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { placeLabel, singleClassUpdateInput, texts, type SeriesScope } from '@estudio/core';
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
import { SeriesCancel } from './SeriesCancel.tsx';
import { CancelMessage, CancelNoteField } from './CancelMessage.tsx';

const t = texts.adminConsole;
type SingleClass = ApiOutputs['schedule']['byId']['single_class'];

/** One class: who booked it, edit it, or cancel it (every credit goes back and each customer gets a message). */
export function ClassDetail({ id, onClose }: { id: number; onClose: () => void }) {
  const one = api.schedule.byId.useQuery({ id });
  const reservations = api.reservations.search.useQuery({ single_class_id: id, status: 'live' });
  const [editing, setEditing] = useState(false);
  const [substituting, setSubstituting] = useState(false);
  const [endingSeries, setEndingSeries] = useState(false);
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
          if (endingSeries && c.class_series_id !== null) return <SeriesCancel c={c} seriesId={c.class_series_id} onDone={() => setEndingSeries(false)} />;
          const cancelled = c.cancelledAt !== null;
          return (
            <Stack gap="sm" data-testid="class-detail" data-class-id={c.single_class_id}>
              <Group justify="space-between">
                <div>
                  <Text fw={700} size="lg">
                    {c.class_type.name}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {dateTimeOf(c.class_date)} · {c.duration_minutes} min · {placeLabel(c.location.name, c.room?.name)}
                  </Text>
                  <Text size="sm">{c.class_instructors.map((i) => `${i.name} ${i.last_name}`).join(', ') || 'Sin coach'}</Text>
                </div>
                <Stack gap={4} align="flex-end">
                  <Badge size="lg" variant="light">
                    {c.reservation_count}/{c.capacity} lugares
                  </Badge>
                  {cancelled && <Badge color="red">Cancelada</Badge>}
                  {c.class_series_id !== null && (
                    <Badge variant="outline" color="gray" data-testid="class-series-badge">
                      Serie semanal
                    </Badge>
                  )}
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
                  {c.class_series_id !== null && (
                    <Button variant="default" color="red" onClick={() => setEndingSeries(true)} data-testid="series-cancel-open">
                      Cancelar fechas de la serie
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
                <CancelNoteField value={note} onChange={setNote} testId="cancel-note" />
                {preview.data?.messages.map((m) => <CancelMessage key={m.was} message={m} testId={`cancel-message-${m.was}`} />)}
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
    room_id: c.room_id === null ? null : (String(c.room_id) as string | null),
    instructor_ids: c.class_instructors.map((i) => String(i.instructor_id)),
    capacity: c.capacity as number | string,
    duration_minutes: c.duration_minutes as number | string,
    description: c.description ?? '',
    scope: 'this' as SeriesScope,
    notify: true,
  });
  const v = form.values;
  const inSeries = c.class_series_id !== null;
  // On a phone the three choices stack: side by side they do not fit.
  const narrow = useMediaQuery('(max-width: 36em)');
  const utils = api.useUtils();
  const overlap = useOverlapWarning(form.serverError, v, form.fieldError);
  const update = api.adminSchedule.update.useMutation({
    onSuccess: (r) => {
      const n = r.single_class_ids.length;
      notifications.show({
        color: 'teal',
        title: n === 1 ? t.saved : `Guardado en ${n} clases de la serie.`,
        message: r.messages_queued ? `Mensajes en la bandeja de salida para quienes reservaron: ${r.messages_queued}.` : undefined,
      });
      void utils.schedule.invalidate();
      onDone();
    },
    onError: overlap.onError,
  });
  const submit = (allowOverlap = false) => {
    // In a series each class keeps its own day: the date sent is this class's, as the field shows it.
    const date = v.scope === 'this' ? v.date : slot.date;
    const input = form.validate(
      singleClassUpdateInput,
      { single_class_id: c.single_class_id, scope: v.scope, notify: v.notify, date, time: v.time, ...classFieldsPayload(v) },
      classFieldsMissing,
    );
    if (input) update.mutate(allowOverlap ? { ...input, allow_overlap: true } : input);
  };
  return (
    <Stack gap="sm">
      {inSeries && (
        <Stack gap={4}>
          <Text size="sm" fw={600}>
            Esta clase es parte de una serie semanal. Aplicar los cambios a:
          </Text>
          <SegmentedControl
            fullWidth
            orientation={narrow ? 'vertical' : 'horizontal'}
            value={v.scope}
            onChange={(value) => form.set('scope', value as SeriesScope)}
            data={[
              { value: 'this', label: 'Solo esta clase' },
              { value: 'following', label: 'Esta y las siguientes' },
              { value: 'all', label: 'Toda la serie' },
            ]}
            data-testid="class-edit-scope"
          />
          {v.scope !== 'this' && (
            <Text size="xs" c="dimmed" data-testid="class-edit-scope-hint">
              {v.scope === 'all' ? 'Cambia todas las clases de la serie que aún no empiezan.' : 'Cambia esta clase y las que siguen.'} Cada clase conserva su día; la hora nueva
              es la de cada una. Las reservaciones se conservan.
            </Text>
          )}
        </Stack>
      )}
      <SimpleGrid cols={2}>
        <DateField
          label="Fecha"
          required
          value={(v.scope === 'this' ? v.date : slot.date) || null}
          onChange={(day) => form.set('date', day ?? '')}
          error={form.errors.date}
          disabled={v.scope !== 'this'}
          testId="class-edit-date"
        />
        <TimeField label="Hora" required value={v.time} onChange={(time) => form.set('time', time)} error={form.errors.time} testId="class-edit-time" />
      </SimpleGrid>
      <ClassFields values={v} errors={form.errors} set={form.set} />
      <Checkbox
        label="Avisar a quienes reservaron si cambian la hora, el lugar o el coach (correo y WhatsApp)"
        checked={v.notify}
        onChange={(e) => form.set('notify', e.currentTarget.checked)}
        data-testid="class-edit-notify"
      />
      <FormError message={form.formError} />
      <OverlapWarning clash={overlap.clash} onConfirm={() => submit(true)} loading={update.isPending} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t.cancel}
        </Button>
        <Button onClick={() => submit()} loading={update.isPending} data-testid="class-edit-save">
          {t.save}
        </Button>
      </Group>
    </Stack>
  );
}
