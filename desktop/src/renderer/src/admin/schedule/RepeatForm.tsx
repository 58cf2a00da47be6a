import { Alert, Button, Chip, Group, Modal, SimpleGrid, Stack, Text } from '@mantine/core';
import { singleClassRepeatInput, texts } from '@estudio/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { api } from '../api.ts';
import { useSchemaForm } from '../form.ts';
import { DateField, TimeListField } from '../date-fields.tsx';
import { FormError } from '../form-feedback.tsx';
import { ClassFields, classFieldsMissing, classFieldsPayload, emptyClassFields } from './ClassFields.tsx';
import { OverlapWarning, useOverlapWarning } from './OverlapWarning.tsx';

const t = texts.adminConsole;
const weekdays = ['Lun', 'Mar', 'Mié', 'Jue', 'Vie', 'Sáb', 'Dom'];

/** A weekly template (days × times) repeated over a date range; slots that already have their class are skipped by the server. */
export function RepeatForm({ onClose }: { onClose: () => void }) {
  const form = useSchemaForm({
    start_date: dayjs().format('YYYY-MM-DD'),
    end_date: dayjs().add(4, 'week').format('YYYY-MM-DD'),
    weekdays: [] as string[],
    times: '07:00',
    ...emptyClassFields(),
  });
  const v = form.values;
  const [result, setResult] = useState<{ created: number; skipped: number } | null>(null);
  const utils = api.useUtils();
  const overlap = useOverlapWarning(form.serverError, v, form.fieldError);
  const repeat = api.adminSchedule.repeat.useMutation({
    onSuccess: (r) => {
      setResult({ created: r.created, skipped: r.skipped });
      void utils.schedule.invalidate();
    },
    onError: overlap.onError,
  });
  const submit = (allowOverlap = false) => {
    const times = v.times.split(',').map((x) => x.trim()).filter(Boolean);
    const slots = v.weekdays.flatMap((weekday) => times.map((time) => ({ weekday: Number(weekday), time })));
    const input = form.validate(singleClassRepeatInput, { start_date: v.start_date, end_date: v.end_date, slots, ...classFieldsPayload(v) }, classFieldsMissing);
    if (input) repeat.mutate(allowOverlap ? { ...input, allow_overlap: true } : input);
  };
  return (
    <Modal opened onClose={onClose} title="Repetir semanalmente" size="lg" centered>
      <Stack gap="sm" data-testid="repeat-form">
        <SimpleGrid cols={2}>
          <DateField label="Desde" required value={v.start_date || null} onChange={(day) => form.set('start_date', day ?? '')} error={form.errors.start_date} testId="repeat-from" />
          <DateField label="Hasta" required value={v.end_date || null} onChange={(day) => form.set('end_date', day ?? '')} error={form.errors.end_date} testId="repeat-to" />
        </SimpleGrid>
        <div>
          <Text size="sm" fw={500} mb={4}>
            Días
          </Text>
          <Chip.Group multiple value={v.weekdays} onChange={(x) => form.set('weekdays', x)}>
            <Group gap={6}>
              {weekdays.map((label, i) => (
                <Chip key={label} value={String(i + 1)} size="sm">
                  {label}
                </Chip>
              ))}
            </Group>
          </Chip.Group>
          {form.errors.slots && (
            <Text c="red" size="xs" mt={4}>
              {form.errors.slots}
            </Text>
          )}
        </div>
        <TimeListField label="Horas de inicio" value={v.times} onChange={(times) => form.set('times', times)} testId="repeat-times" />
        <ClassFields values={v} errors={form.errors} set={form.set} />
        <FormError message={form.formError} />
        <OverlapWarning clash={overlap.clash} onConfirm={() => submit(true)} loading={repeat.isPending} />
        {result && (
          <Alert color="teal" data-testid="repeat-result">
            {`Clases creadas: ${result.created}. Ya existían: ${result.skipped}.`}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.close}
          </Button>
          <Button onClick={() => submit()} loading={repeat.isPending}>
            Crear clases
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
