import { Alert, Button, Checkbox, Group, SegmentedControl, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { singleClassSubstituteInput, texts } from '@estudio/core';
import dayjs from 'dayjs';
import { api, type ApiOutputs } from '../api.ts';
import { useSchemaForm } from '../form.ts';
import { DateField } from '../date-fields.tsx';
import { FormError } from '../form-feedback.tsx';
import { OverlapWarning, useOverlapWarning } from './OverlapWarning.tsx';
import { studioSlot } from './week.ts';

const t = texts.adminConsole;
type SingleClass = ApiOutputs['schedule']['byId']['single_class'];

/**
 * Another coach gives this class, or every class of its coach between two
 * dates: the people booked are told when the box is ticked. A substitute who
 * already teaches at that time is named as a warning, kept only if confirmed.
 */
export function SubstituteCoach({ c, onDone }: { c: SingleClass; onDone: () => void }) {
  const day = studioSlot(c.class_date).date;
  const form = useSchemaForm({
    from_instructor_id: String(c.class_instructors[0]?.instructor_id ?? '') as string | null,
    to_instructor_id: null as string | null,
    scope: 'class' as 'class' | 'range',
    start_date: day,
    end_date: dayjs(day).add(6, 'day').format('YYYY-MM-DD'),
    notify: true,
  });
  const v = form.values;
  const instructors = api.instructors.list.useQuery();
  const utils = api.useUtils();
  const overlap = useOverlapWarning(form.serverError, v);
  const substitute = api.adminSchedule.substitute.useMutation({
    onSuccess: (r) => {
      const n = r.single_class_ids.length;
      notifications.show({
        color: 'teal',
        title: n === 1 ? 'Coach cambiado en 1 clase.' : `Coach cambiado en ${n} clases.`,
        message: v.notify ? `Mensajes en la bandeja de salida: ${r.messages_queued}.` : 'No se avisó a nadie.',
      });
      void utils.schedule.invalidate();
      onDone();
    },
    onError: overlap.onError,
  });
  const submit = (allowOverlap = false) => {
    const payload = {
      from_instructor_id: v.from_instructor_id ? Number(v.from_instructor_id) : undefined,
      to_instructor_id: v.to_instructor_id ? Number(v.to_instructor_id) : undefined,
      ...(v.scope === 'class' ? { single_class_id: c.single_class_id } : { start_date: v.start_date, end_date: v.end_date }),
      notify: v.notify,
      ...(allowOverlap ? { allow_overlap: true } : {}),
    };
    const input = form.validate(singleClassSubstituteInput, payload, { from_instructor_id: 'Elige al coach que no podrá dar la clase.', to_instructor_id: 'Elige al coach que la dará.' });
    if (input) substitute.mutate(input);
  };
  const coaches = instructors.data?.instructors ?? [];
  const own = c.class_instructors.map((i) => ({ value: String(i.instructor_id), label: `${i.name} ${i.last_name}` }));
  return (
    <Stack gap="sm" data-testid="substitute-form">
      <Text fw={700} size="lg">
        Sustituir coach
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select label="No podrá darla" required data={own} value={v.from_instructor_id} onChange={(value) => form.set('from_instructor_id', value)} error={form.errors.from_instructor_id} allowDeselect={false} data-testid="substitute-from" />
        <Select
          label="La da"
          required
          searchable
          data={coaches.filter((i) => String(i.instructor_id) !== v.from_instructor_id).map((i) => ({ value: String(i.instructor_id), label: `${i.name} ${i.last_name}` }))}
          value={v.to_instructor_id}
          onChange={(value) => form.set('to_instructor_id', value)}
          error={form.errors.to_instructor_id}
          data-testid="substitute-to"
        />
      </SimpleGrid>
      <SegmentedControl
        fullWidth
        value={v.scope}
        onChange={(value) => form.set('scope', value as 'class' | 'range')}
        data={[
          { value: 'class', label: 'Solo esta clase' },
          { value: 'range', label: 'Entre dos fechas' },
        ]}
        data-testid="substitute-scope"
      />
      {v.scope === 'range' && (
        <SimpleGrid cols={2}>
          <DateField label="Desde" required value={v.start_date || null} onChange={(d) => form.set('start_date', d ?? '')} error={form.errors.start_date} testId="substitute-from-date" />
          <DateField label="Hasta" required value={v.end_date || null} onChange={(d) => form.set('end_date', d ?? '')} error={form.errors.end_date} testId="substitute-to-date" />
        </SimpleGrid>
      )}
      <Checkbox label="Avisar a las personas con reservación (correo y WhatsApp)" checked={v.notify} onChange={(e) => form.set('notify', e.currentTarget.checked)} data-testid="substitute-notify" />
      {form.errors.single_class_id && <Alert color="red">{form.errors.single_class_id}</Alert>}
      <FormError message={form.formError} />
      <OverlapWarning clash={overlap.clash} onConfirm={() => submit(true)} loading={substitute.isPending} />
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t.cancel}
        </Button>
        <Button onClick={() => submit()} loading={substitute.isPending} data-testid="substitute-save">
          Sustituir
        </Button>
      </Group>
    </Stack>
  );
}
