import { Button, Group, Modal, SimpleGrid, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { singleClassCreateInput, texts } from '@estudio/core';
import { api } from '../api.ts';
import { useSchemaForm } from '../form.ts';
import { DateField, TimeField } from '../date-fields.tsx';
import { FormError } from '../form-feedback.tsx';
import { ClassFields, classFieldsMissing, classFieldsPayload, emptyClassFields } from './ClassFields.tsx';
import { OverlapWarning, useOverlapWarning } from './OverlapWarning.tsx';

const t = texts.adminConsole;

/** A new class on a local date and time of the studio (from a drag over the week). */
export function ClassForm({ initial, onClose }: { initial: { date: string; time: string; duration: number }; onClose: () => void }) {
  const form = useSchemaForm({ date: initial.date, time: initial.time, ...emptyClassFields(initial.duration) });
  const v = form.values;
  const utils = api.useUtils();
  const overlap = useOverlapWarning(form.serverError, v, form.fieldError);
  const create = api.adminSchedule.create.useMutation({
    onSuccess: () => {
      notifications.show({ color: 'teal', message: 'Clase creada.' });
      void utils.schedule.invalidate();
      onClose();
    },
    onError: overlap.onError,
  });
  const submit = (allowOverlap = false) => {
    const input = form.validate(singleClassCreateInput, { date: v.date, time: v.time, ...classFieldsPayload(v) }, classFieldsMissing);
    if (input) create.mutate(allowOverlap ? { ...input, allow_overlap: true } : input);
  };
  return (
    <Modal opened onClose={onClose} title="Nueva clase" size="lg" centered>
      <Stack gap="sm" data-testid="class-form">
        <SimpleGrid cols={2}>
          <DateField label="Fecha" required value={v.date || null} onChange={(day) => form.set('date', day ?? '')} error={form.errors.date} testId="class-date" />
          <TimeField label="Hora" required value={v.time} onChange={(time) => form.set('time', time)} error={form.errors.time} testId="class-time" />
        </SimpleGrid>
        <ClassFields values={v} errors={form.errors} set={form.set} />
        <FormError message={form.formError} />
        <OverlapWarning clash={overlap.clash} onConfirm={() => submit(true)} loading={create.isPending} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.cancel}
          </Button>
          <Button onClick={() => submit()} loading={create.isPending} data-testid="class-save">
            {t.save}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
