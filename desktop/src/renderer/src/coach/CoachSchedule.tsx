import { Alert, Badge, Card, Group, Loader, Modal, Stack, Table, Text, Title } from '@mantine/core';
import { texts, type CoachClassOutput } from '@estudio/core';
import { useMemo, useState } from 'react';
import { errorText } from '../format.ts';
import { api } from '../admin/api.ts';
import { classesByStudioDay, dayLabel, studioSlot, todayMonday, weekDays } from '../admin/schedule/week.ts';
import { WeekNavigator } from '../admin/schedule/WeekNavigator.tsx';

const t = texts.coachConsole;

/**
 * Horarios of a coach (decision 045): its own classes of the week, day by
 * day, read from the server (the server decides which are its own); a class
 * opens its roster. Nothing here writes.
 */
export function CoachSchedule() {
  const [monday, setMonday] = useState(todayMonday);
  const [openId, setOpenId] = useState<number | null>(null);
  const days = weekDays(monday);
  const week = api.coach.classes.useQuery({ start_date: days[0] ?? monday, end_date: days[6] ?? monday });

  const byDay = useMemo(() => classesByStudioDay(week.data?.single_classes ?? []), [week.data]);

  return (
    <Stack gap="sm" data-testid="coach-schedule">
      <Title order={3}>{t.schedule}</Title>
      <WeekNavigator monday={monday} onChange={setMonday} testId="coach-week" />
      <Text size="sm" c="dimmed">
        {t.hint}
      </Text>
      {week.isPending ? (
        <Loader />
      ) : week.error ? (
        <Alert color="red">{errorText(week.error)}</Alert>
      ) : week.data.instructor === null ? (
        <Alert color="yellow" data-testid="coach-not-linked">
          {t.notLinked}
        </Alert>
      ) : week.data.single_classes.length === 0 ? (
        <Text c="dimmed">{t.noClasses}</Text>
      ) : (
        days
          .filter((d) => byDay.has(d))
          .map((d) => (
            <Stack key={d} gap={6}>
              <Text fw={700} tt="capitalize">
                {dayLabel(d)}
              </Text>
              {(byDay.get(d) ?? []).map((c) => (
                <ClassCard key={c.single_class_id} c={c} onOpen={() => setOpenId(c.single_class_id)} />
              ))}
            </Stack>
          ))
      )}
      {openId !== null && <Roster id={openId} onClose={() => setOpenId(null)} />}
    </Stack>
  );
}

function ClassCard({ c, onOpen }: { c: CoachClassOutput; onOpen: () => void }) {
  const cancelled = c.cancelledAt !== null;
  return (
    <Card
      withBorder
      padding="sm"
      component="button"
      onClick={onOpen}
      style={{ textAlign: 'left', cursor: 'pointer', width: '100%' }}
      data-testid="coach-class"
      data-class-id={c.single_class_id}
      data-cancelled={cancelled}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <div style={{ minWidth: 0 }}>
          <Text fw={700} td={cancelled ? 'line-through' : undefined}>
            {studioSlot(c.class_date).time} · {c.class_type.name}
          </Text>
          <Text size="sm" c="dimmed">
            {c.location.name} · {c.duration_minutes} min
          </Text>
        </div>
        <Stack gap={4} align="flex-end" style={{ flexShrink: 0 }}>
          <Badge variant="light">{t.places(c.reservation_count, c.capacity)}</Badge>
          {cancelled && <Badge color="red">{t.cancelled}</Badge>}
        </Stack>
      </Group>
    </Card>
  );
}

function Roster({ id, onClose }: { id: number; onClose: () => void }) {
  const roster = api.coach.roster.useQuery({ id });
  const c = roster.data?.single_class;
  return (
    <Modal opened onClose={onClose} title={t.roster} size="lg" centered closeButtonProps={{ 'aria-label': t.close }}>
      {roster.isPending ? (
        <Loader />
      ) : roster.error ? (
        <Alert color="red">{errorText(roster.error)}</Alert>
      ) : (
        c && (
          <Stack gap="sm" data-testid="coach-roster" data-class-id={c.single_class_id}>
            <Group justify="space-between" wrap="nowrap">
              <div>
                <Text fw={700}>{c.class_type.name}</Text>
                <Text size="sm" c="dimmed">
                  {dayLabel(studioSlot(c.class_date).date)} · {studioSlot(c.class_date).time} · {c.location.name}
                </Text>
              </div>
              <Badge variant="light" style={{ flexShrink: 0 }}>
                {t.places(c.reservation_count, c.capacity)}
              </Badge>
            </Group>
            {roster.data.class_reservations.length === 0 ? (
              <Text c="dimmed" size="sm">
                {t.noReservations}
              </Text>
            ) : (
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t.customer}</Table.Th>
                    <Table.Th>{t.spot}</Table.Th>
                    <Table.Th>{t.attended}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {roster.data.class_reservations.map((r, i) => (
                    <Table.Tr key={i} data-testid="coach-roster-row">
                      <Table.Td>
                        {r.name} {r.last_name}
                        {r.guest ? (
                          <Text span size="xs" c="dimmed">
                            {' '}
                            ({t.guest(r.guest)})
                          </Text>
                        ) : null}
                        {r.health.map((h) => (
                          <Text key={h.label} size="xs" c="red.8" data-testid="coach-roster-health" style={{ whiteSpace: 'pre-line' }}>
                            {t.health}: {h.text}
                          </Text>
                        ))}
                      </Table.Td>
                      <Table.Td>{r.spot ?? '—'}</Table.Td>
                      <Table.Td>{r.attend ? texts.adminConsole.yes : texts.adminConsole.no}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            )}
          </Stack>
        )
      )}
    </Modal>
  );
}
