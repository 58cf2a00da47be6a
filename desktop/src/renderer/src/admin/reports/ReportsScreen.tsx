import { BarChart } from '@mantine/charts';
import { Alert, Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { notifications } from '@mantine/notifications';
import { IconDownload } from '@tabler/icons-react';
import { exportKinds, paymentKindText, reportRangeInput, texts, toCents, type CashShiftOutput, type ExportKind, type ReportRangeInput } from '@estudio/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { CloseModal, differenceColor, differenceText } from '../../cash/CashDrawer.tsx';
import { errorText, money, timeOf } from '../../format.ts';
import { api, type ApiOutputs } from '../api.ts';
import { ListTable, Loaded, type ListColumn } from '../list-widgets.tsx';
import { CoachPayReport } from './CoachPay.tsx';

type Range = [string | null, string | null];
const m = texts.adminMoney;

/** Money strings as numbers for the chart axis only; the tables show the exact strings. */
const pesos = (amount: string) => Number(amount);

type Outputs = ApiOutputs['reports'];

const byCoachColumns: ListColumn<Outputs['attendance']['by_instructor'][number]>[] = [
  { label: 'Coach', render: (r) => `${r.name} ${r.last_name ?? ''}`.trim() },
  { label: 'Clases', render: (r) => r.classes },
  { label: 'Reservaciones', render: (r) => r.reservations },
  { label: 'Asistencias', render: (r) => r.attended },
  { label: 'Faltas', render: (r) => r.no_shows },
  { label: 'Ocupación', render: (r) => `${r.occupancy}%` },
];

const byPackageColumns: ListColumn<Outputs['sales']['by_package'][number]>[] = [
  { label: 'Paquete', render: (p) => p.title },
  { label: 'Ventas', render: (p) => p.count },
  { label: 'Total', render: (p) => money(p.total) },
];

const byProductColumns: ListColumn<Outputs['sales']['by_product'][number]>[] = [
  { label: 'Producto', render: (p) => p.title },
  { label: 'Piezas', render: (p) => p.units },
  { label: 'Ventas', render: (p) => p.count },
  { label: 'Total', render: (p) => money(p.total) },
];

const noShowColumns: ListColumn<Outputs['noShows']['customers'][number]>[] = [
  { label: 'Cliente', render: (c) => `${c.name} ${c.last_name ?? ''}`.trim() },
  { label: 'Correo', render: (c) => c.email },
  { label: 'Reservaciones', render: (c) => c.reservations },
  { label: 'Faltas', render: (c) => c.no_shows },
];

/** The studio's numbers over a date range, computed by the server's SQL aggregates. */
export function ReportsScreen() {
  const [range, setRange] = useState<Range>([dayjs().subtract(29, 'day').format('YYYY-MM-DD'), dayjs().format('YYYY-MM-DD')]);
  const parsed = reportRangeInput.safeParse({ start_date: range[0], end_date: range[1] });
  const input = parsed.success ? parsed.data : null;
  const enabled = input !== null;
  const fallback = { start_date: '2000-01-01', end_date: '2000-01-01' };
  const attendance = api.reports.attendance.useQuery(input ?? fallback, { enabled });
  const sales = api.reports.sales.useQuery(input ?? fallback, { enabled });
  const noShows = api.reports.noShows.useQuery(input ?? fallback, { enabled });
  const memberships = api.reports.memberships.useQuery({});

  return (
    <Stack gap="lg" data-testid="reports">
      <Group align="flex-end">
        <DatePickerInput
          type="range"
          label="Periodo"
          value={range}
          onChange={(v) => setRange([v[0] ? dayjs(v[0]).format('YYYY-MM-DD') : null, v[1] ? dayjs(v[1]).format('YYYY-MM-DD') : null])}
          valueFormat="D MMM YYYY"
          w={300}
        />
      </Group>
      {!parsed.success && range[1] && <Alert color="red">{parsed.error.issues[0]?.message}</Alert>}
      {input && <ExportButtons range={input} />}

      <Loaded query={memberships}>
        {() => (
          <SimpleGrid cols={{ base: 2, sm: 3, lg: 5 }}>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Membresías ilimitadas vigentes
              </Text>
              <Text fw={700} size="xl">
                {memberships.data?.unlimited_members}
              </Text>
            </Card>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Suscripciones activas
              </Text>
              <Text fw={700} size="xl">
                {memberships.data?.active_subscriptions}
              </Text>
            </Card>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                Ventas del periodo
              </Text>
              <Text fw={700} size="xl" data-testid="sales-total">
                {sales.data ? `${money(sales.data.total)} (${sales.data.count})` : '—'}
              </Text>
            </Card>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                {m.refunds}
              </Text>
              <Text fw={700} size="xl" data-testid="refunds-total">
                {sales.data ? `${money(sales.data.refunds.total)} (${sales.data.refunds.count})` : '—'}
              </Text>
            </Card>
            <Card withBorder>
              <Text size="sm" c="dimmed">
                {m.net}
              </Text>
              <Text fw={700} size="xl" data-testid="sales-net">
                {sales.data ? money(sales.data.net) : '—'}
              </Text>
            </Card>
          </SimpleGrid>
        )}
      </Loaded>

      {enabled && (
        <>
          <Title order={4}>{m.byMethod}</Title>
          <Loaded query={sales}>
            {() => <ByMethod data={sales.data} />}
          </Loaded>
          <CashUp />
          <Title order={4}>Asistencia por tipo de clase</Title>
          <Loaded query={attendance}>
            {() => (
              <BarChart
                h={260}
                data={attendance.data?.by_class_type ?? []}
                dataKey="name"
                series={[
                  { name: 'reservations', label: 'Reservaciones', color: 'teal.6' },
                  { name: 'attended', label: 'Asistencias', color: 'blue.6' },
                  { name: 'no_shows', label: 'Faltas', color: 'red.6' },
                ]}
                withLegend
              />
            )}
          </Loaded>
          <Title order={4}>Asistencia por coach</Title>
          <Loaded query={attendance}>
            {() => (
              <ListTable rows={attendance.data?.by_instructor ?? []} rowKey={(r) => r.instructor_id} columns={byCoachColumns} hover={false} empty={null} />
            )}
          </Loaded>
          {input && <CoachPayReport range={input} />}
          <Title order={4}>Ventas por mes</Title>
          <Loaded query={sales}>
            {() => (
              <BarChart
                h={240}
                data={(sales.data?.by_month ?? []).map((m) => ({ month: m.month, total: pesos(m.total), count: m.count }))}
                dataKey="month"
                series={[{ name: 'total', label: 'Ventas (MXN)', color: 'teal.6' }]}
                valueFormatter={(v) => money(v.toFixed(2))}
              />
            )}
          </Loaded>
          <Title order={4}>Ventas por paquete</Title>
          <Loaded query={sales}>
            {() => (
              <ListTable rows={sales.data?.by_package ?? []} rowKey={(p) => p.class_package_id} columns={byPackageColumns} hover={false} empty={null} />
            )}
          </Loaded>
          {/* What the counter sold besides classes; nothing shown while the studio sells none. */}
          {sales.data?.by_product.length ? (
            <>
              <Title order={4}>Ventas de productos en recepción</Title>
              <ListTable rows={sales.data.by_product} rowKey={(p) => p.product_id} columns={byProductColumns} hover={false} empty={null} testId="sales-by-product" />
            </>
          ) : null}
          <Title order={4}>Clientes con más faltas</Title>
          <Loaded query={noShows}>
            {() =>
              noShows.data?.customers.length ? (
                <ListTable rows={noShows.data.customers} rowKey={(c) => c.customer_id} columns={noShowColumns} hover={false} empty={null} />
              ) : (
                <Text c="dimmed">Sin faltas en el periodo.</Text>
              )
            }
          </Loaded>
        </>
      )}
    </Stack>
  );
}

type Sales = ApiOutputs['reports']['sales'];

/** Sales and refunds of the period by payment method (decision 034): gifts count but took no money. */
function ByMethod({ data }: { data: Sales | undefined }) {
  if (!data) return null;
  const methods = [...new Set([...data.by_method.map((r) => r.method), ...data.refunds.by_method.map((r) => r.method)])];
  if (!methods.length) return <Text c="dimmed">Sin ventas en el periodo.</Text>;
  return (
    <Table.ScrollContainer minWidth={440}>
    <Table striped data-testid="sales-by-method">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{m.method}</Table.Th>
          <Table.Th>{m.count}</Table.Th>
          <Table.Th>{m.sales}</Table.Th>
          <Table.Th>{m.refunds}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {methods.map((method) => {
          const sold = data.by_method.find((r) => r.method === method);
          const back = data.refunds.by_method.find((r) => r.method === method);
          return (
            <Table.Tr key={method} data-testid={`method-${method}`}>
              <Table.Td>{paymentKindText[method]}</Table.Td>
              <Table.Td>{sold?.count ?? 0}</Table.Td>
              <Table.Td>{money(sold?.total ?? '0.00')}</Table.Td>
              <Table.Td>{back ? `−${money(back.total)}` : '—'}</Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
    </Table.ScrollContainer>
  );
}

/** The day's cash-up: what should be in the drawer, line by line. */
function CashUp() {
  const [day, setDay] = useState<string | null>(dayjs().format('YYYY-MM-DD'));
  const cash = api.reports.cashUp.useQuery({ date: day ?? '2000-01-01' }, { enabled: day !== null });
  return (
    <Card withBorder data-testid="cash-up">
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end">
          <Title order={4}>{m.cashUp}</Title>
          <DatePickerInput label={m.cashUpDay} value={day} onChange={(v) => setDay(v ? dayjs(v).format('YYYY-MM-DD') : null)} valueFormat="D MMM YYYY" w={180} />
        </Group>
        <Loaded query={cash}>
          {() =>
            cash.data ? (
              <>
                <SimpleGrid cols={{ base: 1, xs: 3 }}>
                  <div>
                    <Text size="sm" c="dimmed">
                      {m.cashSales}
                    </Text>
                    <Text fw={600}>{`${money(cash.data.sales.total)} (${cash.data.sales.count})`}</Text>
                  </div>
                  <div>
                    <Text size="sm" c="dimmed">
                      {m.cashRefunds}
                    </Text>
                    <Text fw={600}>{`${cash.data.refunds.count ? '−' : ''}${money(cash.data.refunds.total)} (${cash.data.refunds.count})`}</Text>
                  </div>
                  <div>
                    <Text size="sm" c="dimmed">
                      {m.expectedCash}
                    </Text>
                    <Text fw={700} size="xl" data-testid="expected-cash">
                      {money(cash.data.expected_cash)}
                    </Text>
                  </div>
                </SimpleGrid>
                {cash.data.lines.length === 0 ? (
                  <Text c="dimmed">{m.noCash}</Text>
                ) : (
                  <Table.ScrollContainer minWidth={480}>
                    <Table striped data-testid="cash-up-lines">
                      <Table.Tbody>
                        {cash.data.lines.map((l) => (
                          <Table.Tr key={`${l.kind}-${l.purchase_id ?? `p${l.product_sale_id}`}`}>
                            <Table.Td>{dayjs(l.at).format('HH:mm')}</Table.Td>
                            <Table.Td>{l.kind === 'sale' ? m.sale : m.refunds}</Table.Td>
                            <Table.Td>{l.customer}</Table.Td>
                            <Table.Td>{l.title}</Table.Td>
                            <Table.Td ta="right">{l.kind === 'sale' ? money(l.amount) : `−${money(l.amount)}`}</Table.Td>
                          </Table.Tr>
                        ))}
                      </Table.Tbody>
                    </Table>
                  </Table.ScrollContainer>
                )}
              </>
            ) : null
          }
        </Loaded>
        {day && <CashShifts day={day} />}
      </Stack>
    </Card>
  );
}

const cd = texts.cashDrawer;

/** The day's shifts at the drawer, everyone's: who, the float, what was expected, the count and why it differed. */
function CashShifts({ day }: { day: string }) {
  const shifts = api.cashShifts.list.useQuery({ from: day, to: day });
  const [closing, setClosing] = useState<CashShiftOutput | null>(null);
  return (
    <Stack gap="xs" data-testid="cash-shifts">
      <Title order={5}>{cd.shiftsTitle}</Title>
      <Loaded query={shifts}>
        {() =>
          shifts.data?.cash_shifts.length ? (
            <Table.ScrollContainer minWidth={720}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{cd.staff}</Table.Th>
                    <Table.Th>{cd.openedAt}</Table.Th>
                    <Table.Th>{cd.closedAt}</Table.Th>
                    <Table.Th ta="right">{cd.openingFloat}</Table.Th>
                    <Table.Th ta="right">{cd.expected}</Table.Th>
                    <Table.Th ta="right">{cd.counted}</Table.Th>
                    <Table.Th>{cd.difference}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {shifts.data.cash_shifts.map((s) => {
                    const cents = s.difference === null ? null : toCents(s.difference);
                    return (
                      <Table.Tr key={s.cash_shift_id} data-testid="cash-shift-row">
                        <Table.Td>{s.staff_name ?? '—'}</Table.Td>
                        <Table.Td>{timeOf(s.opened_at)}</Table.Td>
                        <Table.Td>
                          {s.closed_at ? (
                            timeOf(s.closed_at)
                          ) : (
                            <Button size="compact-xs" variant="light" onClick={() => setClosing(s)}>
                              {cd.close}
                            </Button>
                          )}
                        </Table.Td>
                        <Table.Td ta="right">{money(s.opening_float)}</Table.Td>
                        <Table.Td ta="right">{money(s.expected_cash)}</Table.Td>
                        <Table.Td ta="right">{s.counted_cash ? money(s.counted_cash) : '—'}</Table.Td>
                        <Table.Td>
                          {cents === null ? (
                            <Badge variant="light">{cd.stillOpen}</Badge>
                          ) : (
                            <Stack gap={2}>
                              <Badge variant="light" color={differenceColor(cents)}>
                                {differenceText(cents)}
                              </Badge>
                              {s.note && (
                                <Text size="xs" c="dimmed">
                                  {s.note}
                                </Text>
                              )}
                            </Stack>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          ) : (
            <Text c="dimmed">{cd.shiftsEmpty}</Text>
          )
        }
      </Loaded>
      {closing && <CloseModal shift={closing} title={cd.closeFor(closing.staff_name ?? '')} onClose={() => setClosing(null)} onClosed={() => undefined} />}
    </Stack>
  );
}

/** One button per export: the server writes the CSV (UTF-8 with BOM, commas) and the browser saves it under its name. */
function ExportButtons({ range }: { range: ReportRangeInput }) {
  const utils = api.useUtils();
  const [busy, setBusy] = useState<ExportKind | null>(null);
  const download = async (kind: ExportKind) => {
    setBusy(kind);
    try {
      const file = await utils.reports.exportCsv.fetch({ kind, ...range });
      const url = URL.createObjectURL(new Blob([file.content], { type: file.content_type }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.filename;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      notifications.show({ color: 'teal', message: m.exported(file.filename) });
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(error) });
    } finally {
      setBusy(null);
    }
  };
  return (
    <Group gap="xs" data-testid="exports">
      <Text size="sm" fw={500}>
        {m.export}:
      </Text>
      {exportKinds.map((kind) => (
        <Button key={kind} size="xs" variant="light" leftSection={<IconDownload size={14} />} loading={busy === kind} onClick={() => void download(kind)} data-testid={`export-${kind}`}>
          {m.exportKinds[kind]}
        </Button>
      ))}
    </Group>
  );
}
