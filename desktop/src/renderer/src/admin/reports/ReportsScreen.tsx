import { BarChart } from '@mantine/charts';
import { Alert, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { reportRangeInput } from '@estudio/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { money } from '../../format.ts';
import { api } from '../api.ts';
import { Loaded } from '../widgets.tsx';

type Range = [string | null, string | null];

/** Money strings as numbers for the chart axis only; the tables show the exact strings. */
const pesos = (amount: string) => Number(amount);

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

      <Loaded query={memberships}>
        {() => (
          <SimpleGrid cols={3}>
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
          </SimpleGrid>
        )}
      </Loaded>

      {enabled && (
        <>
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
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Coach</Table.Th>
                    <Table.Th>Clases</Table.Th>
                    <Table.Th>Reservaciones</Table.Th>
                    <Table.Th>Asistencias</Table.Th>
                    <Table.Th>Faltas</Table.Th>
                    <Table.Th>Ocupación</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {attendance.data?.by_instructor.map((r) => (
                    <Table.Tr key={r.instructor_id}>
                      <Table.Td>
                        {r.name} {r.last_name}
                      </Table.Td>
                      <Table.Td>{r.classes}</Table.Td>
                      <Table.Td>{r.reservations}</Table.Td>
                      <Table.Td>{r.attended}</Table.Td>
                      <Table.Td>{r.no_shows}</Table.Td>
                      <Table.Td>{r.occupancy}%</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Loaded>
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
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Paquete</Table.Th>
                    <Table.Th>Ventas</Table.Th>
                    <Table.Th>Total</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {sales.data?.by_package.map((p) => (
                    <Table.Tr key={p.class_package_id}>
                      <Table.Td>{p.title}</Table.Td>
                      <Table.Td>{p.count}</Table.Td>
                      <Table.Td>{money(p.total)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Loaded>
          <Title order={4}>Clientes con más faltas</Title>
          <Loaded query={noShows}>
            {() =>
              noShows.data?.customers.length ? (
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Cliente</Table.Th>
                      <Table.Th>Correo</Table.Th>
                      <Table.Th>Reservaciones</Table.Th>
                      <Table.Th>Faltas</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {noShows.data.customers.map((c) => (
                      <Table.Tr key={c.customer_id}>
                        <Table.Td>
                          {c.name} {c.last_name}
                        </Table.Td>
                        <Table.Td>{c.email}</Table.Td>
                        <Table.Td>{c.reservations}</Table.Td>
                        <Table.Td>{c.no_shows}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
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
