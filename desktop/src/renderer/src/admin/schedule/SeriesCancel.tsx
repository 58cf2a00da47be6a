import { Alert, Button, Group, Paper, SegmentedControl, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { texts } from '@estudio/core';
import { useState } from 'react';
import { dateTimeOf, errorText, studioDayOf } from '../../format.ts';
import { api, type ApiOutputs } from '../api.ts';
import { DateField } from '../date-fields.tsx';
import { studioSlot } from './week.ts';
import { CancelMessage, CancelNoteField } from './CancelMessage.tsx';

const t = texts.adminConsole;
type SingleClass = ApiOutputs['schedule']['byId']['single_class'];

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

const weekdays = ['', 'lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'];

/**
 * The series' dates cancelled at once, or the series ended from a date: the
 * classes it takes, how many bookings and credits, and the message each group
 * will read (with the studio's note) are shown before the click; each class
 * is then cancelled as a single class is.
 */
export function SeriesCancel({ c, seriesId, onDone }: { c: SingleClass; seriesId: number; onDone: () => void }) {
  const [mode, setMode] = useState<'end' | 'range'>('end');
  const [start, setStart] = useState(studioSlot(c.class_date).date);
  const [end, setEnd] = useState(studioSlot(c.class_date).date);
  const [note, setNote] = useState('');
  const narrow = useMediaQuery('(max-width: 36em)');
  const [previewNote] = useDebouncedValue(note, 300);
  const utils = api.useUtils();
  const range = { class_series_id: seriesId, start_date: start, ...(mode === 'range' ? { end_date: end } : {}) };
  const preview = api.adminSchedule.seriesCancelPreview.useQuery(
    { ...range, ...(previewNote.trim() ? { note: previewNote } : {}) },
    { enabled: !!start && (mode === 'end' || !!end), placeholderData: (previous) => previous, retry: false },
  );
  const cancel = api.adminSchedule.seriesCancel.useMutation({
    onSuccess: (r) => {
      const n = r.single_class_ids.length;
      notifications.show({
        color: 'teal',
        title: mode === 'end' ? `Serie terminada: ${n === 1 ? '1 clase cancelada' : `${n} clases canceladas`}.` : n === 1 ? '1 clase cancelada.' : `${n} clases canceladas.`,
        message: `Reservaciones canceladas: ${r.reservations_cancelled}. Créditos devueltos: ${r.credits_returned}. Mensajes en la bandeja de salida: ${r.messages_queued}.`,
      });
      void utils.schedule.invalidate();
      void utils.reservations.invalidate();
      onDone();
    },
  });
  const p = preview.data;
  const series = p?.series;
  return (
    <Stack gap="sm" data-testid="series-cancel">
      <Text fw={700} size="lg">
        Cancelar fechas de la serie
      </Text>
      {series && (
        <Text size="sm" c="dimmed" data-testid="series-summary">
          {c.class_type.name}: {series.slots.map((s) => `${weekdays[s.weekday]} ${s.time}`).join(', ')} · del {studioDayOf(series.start_date)} al {studioDayOf(series.end_date)}
        </Text>
      )}
      <SegmentedControl
        fullWidth
        orientation={narrow ? 'vertical' : 'horizontal'}
        value={mode}
        onChange={(value) => setMode(value as 'end' | 'range')}
        data={[
          { value: 'end', label: 'Terminar la serie desde una fecha' },
          { value: 'range', label: 'Cancelar entre dos fechas' },
        ]}
        data-testid="series-cancel-mode"
      />
      <SimpleGrid cols={mode === 'range' ? 2 : 1}>
        <DateField label={mode === 'end' ? 'Cancelar a partir del' : 'Desde'} required value={start || null} onChange={(d) => setStart(d ?? '')} testId="series-cancel-start" />
        {mode === 'range' && <DateField label="Hasta" required value={end || null} onChange={(d) => setEnd(d ?? '')} testId="series-cancel-end" />}
      </SimpleGrid>
      <CancelNoteField value={note} onChange={setNote} testId="series-cancel-note" />
      {preview.error && (
        <Alert color="yellow" data-testid="series-cancel-nothing">
          {errorText(preview.error)}
        </Alert>
      )}
      {p && !preview.error && (
        <Stack gap="xs">
          <Text size="sm" data-testid="series-cancel-summary">
            {`Se cancelarán ${count(p.classes.length, 'clase', 'clases')} con ${count(p.reservations, 'reservación', 'reservaciones')}; ${
              p.credits_returned === 1 ? 'se devolverá 1 crédito' : `se devolverán ${p.credits_returned} créditos`
            }.`}
            {p.waitlisted ? ` Se vaciarán sus listas de espera (${p.waitlisted}).` : ''}
            {mode === 'end' ? ' La serie termina el día anterior.' : ''}
          </Text>
          <Paper withBorder radius="md" mah={180} style={{ overflowY: 'auto' }}>
            <Table fz="sm" verticalSpacing={4} data-testid="series-cancel-classes">
              <Table.Tbody>
                {p.classes.map((one) => (
                  <Table.Tr key={one.single_class_id}>
                    <Table.Td>{dateTimeOf(one.class_date)}</Table.Td>
                    <Table.Td ta="right" c={one.reservations ? 'orange.8' : 'dimmed'} fw={one.reservations ? 600 : undefined} style={{ whiteSpace: 'nowrap' }}>
                      {count(one.reservations, 'reservación', 'reservaciones')}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Paper>
          {p.messages.map((m) => (
            <CancelMessage key={m.was} message={m} testId={`series-cancel-message-${m.was}`} hint="Así, con la fecha de su propia clase:" />
          ))}
        </Stack>
      )}
      {cancel.error && <Alert color="red">{errorText(cancel.error)}</Alert>}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          {t.cancel}
        </Button>
        <Button
          color="red"
          disabled={!p || !!preview.error}
          loading={cancel.isPending}
          onClick={() => cancel.mutate({ ...range, ...(note.trim() ? { note } : {}) })}
          data-testid="series-cancel-confirm"
        >
          {p ? (p.classes.length === 1 ? 'Cancelar 1 clase' : `Cancelar ${p.classes.length} clases`) : 'Cancelar clases'}
        </Button>
      </Group>
    </Stack>
  );
}
