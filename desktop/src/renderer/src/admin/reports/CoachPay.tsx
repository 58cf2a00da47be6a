import { ActionIcon, Alert, Button, Group, Modal, SegmentedControl, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconTrash } from '@tabler/icons-react';
import { coachPayRuleInput, texts, type ReportRangeInput } from '@estudio/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { dateTimeOf, errorText, money, studioDayOf } from '../../format.ts';
import { api, type ApiOutputs } from '../api.ts';
import { DateField } from '../date-fields.tsx';
import { FormError } from '../form-feedback.tsx';
import { useSchemaForm } from '../form.ts';
import { ListTable, Loaded, type ListColumn } from '../list-widgets.tsx';

const t = texts.adminConsole;
type Payroll = ApiOutputs['reports']['coachPay'];
type Rule = ApiOutputs['coachPayRules']['list']['rules'][number];
type Kind = Rule['kind'];

const coachColumns: ListColumn<Payroll['coaches'][number]>[] = [
  { label: 'Coach', render: (c) => c.coach },
  { label: 'Clases', render: (c) => c.classes },
  { label: 'Asistentes', render: (c) => c.attendees },
  {
    label: 'A pagar',
    render: (c) => (
      <Text size="sm" fw={600} span>
        {money(c.amount)}
        {c.without_rule > 0 && (
          <Text span size="xs" c="orange.8" fw={500}>
            {` · ${c.without_rule === 1 ? '1 clase sin tarifa' : `${c.without_rule} clases sin tarifa`}`}
          </Text>
        )}
      </Text>
    ),
  },
];

/** The payroll of the report's period: what each coach is owed, each class taught, and the rules that pay them. */
export function CoachPayReport({ range }: { range: ReportRangeInput }) {
  const report = api.reports.coachPay.useQuery(range);
  const [rules, setRules] = useState(false);
  const [details, setDetails] = useState(false);
  return (
    <Stack gap="xs" data-testid="coach-pay">
      <Group justify="space-between" align="flex-end">
        <Title order={4}>Pago a coaches</Title>
        <Button size="xs" variant="light" onClick={() => setRules(true)} data-testid="coach-pay-rules-open">
          Tarifas de coaches
        </Button>
      </Group>
      <Loaded query={report}>
        {() => {
          const data = report.data;
          if (!data || data.classes.length === 0) return <Text c="dimmed">Ningún coach dio clases en el periodo.</Text>;
          return (
            <>
              <ListTable rows={data.coaches} rowKey={(c) => c.instructor_id} columns={coachColumns} hover={false} empty={null} testId="coach-pay-coaches" />
              <Group justify="space-between">
                <Text fw={700} data-testid="coach-pay-total">
                  Total: {money(data.total)}
                </Text>
                <Button size="xs" variant="subtle" onClick={() => setDetails((v) => !v)} data-testid="coach-pay-details">
                  {details ? 'Ocultar clases' : `Ver las ${data.classes.length} clases`}
                </Button>
              </Group>
              {details && <PayrollClasses classes={data.classes} />}
              <Text size="xs" c="dimmed">
                Cada clase la paga la tarifa del coach de ese día. Lo que vale una clase: el precio de cada paquete entre sus clases; una membresía ilimitada, su precio entre las
                clases reservadas con ella; una cortesía no suma.
              </Text>
            </>
          );
        }}
      </Loaded>
      {rules && <PayRules onClose={() => setRules(false)} />}
    </Stack>
  );
}

/** Each class of the payroll, with what it was worth and what it pays (also the coach's own view). */
export function PayrollClasses({ classes, showCoach = true }: { classes: Payroll['classes']; showCoach?: boolean }) {
  const narrow = useMediaQuery('(max-width: 36em)');
  // On a phone each class is two lines, its pay at the right: a wide table would hide the amount off screen.
  if (narrow) {
    return (
      <Stack gap={0} data-testid="coach-pay-classes">
        {classes.map((c) => (
          <Group key={`${c.single_class_id}-${c.instructor_id}`} justify="space-between" wrap="nowrap" py={6} style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }} data-row>
            <div>
              <Text size="sm">
                {dateTimeOf(c.class_date)} · {c.class_type}
              </Text>
              <Text size="xs" c={c.rule ? 'dimmed' : 'orange.8'}>
                {showCoach ? `${c.coach} · ` : ''}
                {c.attendees === 1 ? '1 asistente' : `${c.attendees} asistentes`} · {c.rule ?? 'Sin tarifa'}
              </Text>
            </div>
            <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
              {c.amount === null ? '—' : money(c.amount)}
            </Text>
          </Group>
        ))}
      </Stack>
    );
  }
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table fz="sm" striped data-testid="coach-pay-classes">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Clase</Table.Th>
            {showCoach && <Table.Th>Coach</Table.Th>}
            <Table.Th>Reservaciones</Table.Th>
            <Table.Th>Asistentes</Table.Th>
            <Table.Th>Valor</Table.Th>
            <Table.Th>Tarifa</Table.Th>
            <Table.Th ta="right">Pago</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {classes.map((c) => (
            <Table.Tr key={`${c.single_class_id}-${c.instructor_id}`} data-row>
              <Table.Td>
                {dateTimeOf(c.class_date)} · {c.class_type}
              </Table.Td>
              {showCoach && <Table.Td>{c.coach}</Table.Td>}
              <Table.Td>{c.reservations}</Table.Td>
              <Table.Td>{c.attendees}</Table.Td>
              <Table.Td>{money(c.revenue)}</Table.Td>
              <Table.Td c={c.rule ? undefined : 'orange.8'}>{c.rule ?? 'Sin tarifa'}</Table.Td>
              <Table.Td ta="right" fw={600}>
                {c.amount === null ? '—' : money(c.amount)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const kindLabels: Record<Kind, string> = { per_class: 'Por clase', per_attendee: 'Por asistente', revenue_share: '% de la clase' };

/** Each coach's rules by start day, and a new one (the same coach and day replaces it). */
function PayRules({ onClose }: { onClose: () => void }) {
  const rules = api.coachPayRules.list.useQuery({});
  const instructors = api.instructors.list.useQuery();
  const utils = api.useUtils();
  const narrow = useMediaQuery('(max-width: 36em)');
  const form = useSchemaForm({
    instructor_id: null as string | null,
    kind: 'per_class' as Kind,
    amount: '',
    percent: '',
    minimum: '',
    maximum: '',
    effective_from: dayjs().startOf('month').format('YYYY-MM-DD'),
  });
  const v = form.values;
  const done = () => {
    void utils.coachPayRules.invalidate();
    void utils.reports.coachPay.invalidate();
  };
  const save = api.coachPayRules.save.useMutation({
    onSuccess: (r) => {
      notifications.show({ color: 'teal', message: `Tarifa guardada: ${r.rule.coach}, ${r.rule.text}, desde el ${studioDayOf(r.rule.effective_from)}.` });
      form.reset({ ...v, amount: '', percent: '', minimum: '', maximum: '' });
      done();
    },
    onError: form.serverError,
  });
  const remove = api.coachPayRules.remove.useMutation({ onSuccess: done, onError: (e) => notifications.show({ color: 'red', message: errorText(e) }) });
  const submit = () => {
    const optional = (s: string) => (s.trim() === '' ? null : s.trim());
    const input = form.validate(
      coachPayRuleInput,
      {
        instructor_id: v.instructor_id ? Number(v.instructor_id) : undefined,
        kind: v.kind,
        effective_from: v.effective_from,
        ...(v.kind === 'revenue_share' ? { percent: optional(v.percent) } : { amount: optional(v.amount) }),
        ...(v.kind === 'per_class' ? {} : { minimum: optional(v.minimum), maximum: optional(v.maximum) }),
      },
      { instructor_id: 'Elige al coach.' },
    );
    if (input) save.mutate(input);
  };
  const coaches = (instructors.data?.instructors ?? []).map((i) => ({ value: String(i.instructor_id), label: `${i.name} ${i.last_name}` }));
  return (
    <Modal opened onClose={onClose} title="Tarifas de coaches" size="xl" centered>
      <Stack gap="sm" data-testid="coach-pay-rules">
        <Loaded query={rules}>
          {() =>
            rules.data?.rules.length ? (
              <Table fz="sm" data-testid="coach-pay-rules-list">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Coach</Table.Th>
                    <Table.Th>Desde</Table.Th>
                    <Table.Th>Tarifa</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {rules.data.rules.map((r) => (
                    <Table.Tr key={r.coach_pay_rule_id}>
                      <Table.Td>{r.coach}</Table.Td>
                      <Table.Td style={{ whiteSpace: 'nowrap' }}>{studioDayOf(r.effective_from)}</Table.Td>
                      <Table.Td>{r.text}</Table.Td>
                      <Table.Td ta="right">
                        <ActionIcon variant="subtle" color="red" aria-label={`Quitar la tarifa de ${r.coach}`} loading={remove.isPending && remove.variables?.id === r.coach_pay_rule_id} onClick={() => remove.mutate({ id: r.coach_pay_rule_id })}>
                          <IconTrash size={16} />
                        </ActionIcon>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : (
              <Alert color="yellow">Aún no hay tarifas: el pago a coaches muestra sus clases sin monto.</Alert>
            )
          }
        </Loaded>
        <Title order={5}>Nueva tarifa</Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select label="Coach" required searchable data={coaches} value={v.instructor_id} onChange={(value) => form.set('instructor_id', value)} error={form.errors.instructor_id} data-testid="pay-rule-coach" />
          <DateField label="Desde" required value={v.effective_from || null} onChange={(d) => form.set('effective_from', d ?? '')} error={form.errors.effective_from} testId="pay-rule-from" />
        </SimpleGrid>
        <SegmentedControl
          fullWidth
          orientation={narrow ? 'vertical' : 'horizontal'}
          value={v.kind}
          onChange={(value) => form.set('kind', value as Kind)}
          data={(Object.keys(kindLabels) as Kind[]).map((k) => ({ value: k, label: kindLabels[k] }))}
          data-testid="pay-rule-kind"
        />
        <SimpleGrid cols={{ base: 1, sm: v.kind === 'per_class' ? 1 : 3 }}>
          {v.kind === 'revenue_share' ? (
            <TextInput label="Porcentaje" required rightSection="%" inputMode="decimal" value={v.percent} onChange={(e) => form.set('percent', e.currentTarget.value)} error={form.errors.percent} data-testid="pay-rule-percent" />
          ) : (
            <TextInput
              label={v.kind === 'per_class' ? 'Monto por clase' : 'Monto por asistente'}
              required
              leftSection="$"
              inputMode="decimal"
              value={v.amount}
              onChange={(e) => form.set('amount', e.currentTarget.value)}
              error={form.errors.amount}
              data-testid="pay-rule-amount"
            />
          )}
          {v.kind !== 'per_class' && (
            <>
              <TextInput label="Mínimo por clase" leftSection="$" inputMode="decimal" value={v.minimum} onChange={(e) => form.set('minimum', e.currentTarget.value)} error={form.errors.minimum} data-testid="pay-rule-minimum" />
              <TextInput label="Máximo por clase" leftSection="$" inputMode="decimal" value={v.maximum} onChange={(e) => form.set('maximum', e.currentTarget.value)} error={form.errors.maximum} data-testid="pay-rule-maximum" />
            </>
          )}
        </SimpleGrid>
        <FormError message={form.formError} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t.close}
          </Button>
          <Button onClick={submit} loading={save.isPending} data-testid="pay-rule-save">
            Guardar tarifa
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
