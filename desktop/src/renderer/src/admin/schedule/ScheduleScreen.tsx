import { placeLabel } from '@estudio/core';
import { Badge, Box, Button, Group, Paper, ScrollArea, Select, Text, Tooltip } from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import dayjs from 'dayjs';
import { api, type ApiOutputs } from '../api.ts';
import { Hint } from '../form-feedback.tsx';
import { Loaded } from '../list-widgets.tsx';
import { ClassDetail } from './ClassDetail.tsx';
import { ClassForm } from './ClassForm.tsx';
import { RepeatForm } from './RepeatForm.tsx';
import { classesByStudioDay, dayLabel, dayLanes, studioZone, firstHour, slotMinutes, slotPx, slotsPerDay, slotTime, studioSlot, todayMonday, weekDays, type DayLane } from './week.ts';
import { WeekNavigator } from './WeekNavigator.tsx';

export type ScheduleClass = ApiOutputs['schedule']['list']['single_classes'][number];

interface Drag {
  date: string;
  from: number;
  to: number;
}

/**
 * The week on the studio's clock. Dragging over empty time opens a new class
 * for that span; a class opens its detail (edit, cancel).
 */
export function ScheduleScreen() {
  const [monday, setMonday] = useState(todayMonday);
  const [locationId, setLocationId] = useState<string | null>(null);
  const [drag, setDrag] = useState<Drag | null>(null);
  const [creating, setCreating] = useState<{ date: string; time: string; duration: number } | null>(null);
  const [repeating, setRepeating] = useState(false);
  const [openId, setOpenId] = useState<number | null>(null);
  const days = weekDays(monday);
  const today = dayjs().tz(studioZone()).format('YYYY-MM-DD');
  const locations = api.locations.list.useQuery({});
  const week = api.schedule.list.useQuery({
    start_date: days[0] ?? monday,
    end_date: days[6] ?? monday,
    ...(locationId ? { location_id: Number(locationId) } : {}),
  });

  // The drag ends wherever the mouse is released, even outside the grid.
  useEffect(() => {
    if (!drag) return;
    const up = () => {
      const from = Math.min(drag.from, drag.to);
      const to = Math.max(drag.from, drag.to);
      setCreating({ date: drag.date, time: slotTime(from), duration: (to - from + 1) * slotMinutes });
      setDrag(null);
    };
    window.addEventListener('mouseup', up);
    return () => window.removeEventListener('mouseup', up);
  }, [drag]);

  const byDay = useMemo(() => classesByStudioDay(week.data?.single_classes ?? []), [week.data]);
  // Classes that overlap sit side by side, each as tall as the block it is drawn with (at least one slot).
  const lanes = useMemo(
    () =>
      new Map(
        [...byDay.values()].flatMap((classes) => [
          ...dayLanes(classes, (c) => {
            const start = studioSlot(c.class_date).minutes;
            return { start, end: start + Math.max(c.duration_minutes, slotMinutes) };
          }),
        ]),
      ),
    [byDay],
  );

  return (
    <>
      <Group justify="space-between">
        <WeekNavigator monday={monday} onChange={setMonday} testId="schedule-week" />
        <Group>
          <Select
            placeholder="Todas las sucursales"
            clearable
            data={(locations.data?.locations ?? []).map((l) => ({ value: String(l.location_id), label: l.name }))}
            value={locationId}
            onChange={setLocationId}
          />
          <Button leftSection={<IconRepeat size={16} />} variant="light" onClick={() => setRepeating(true)}>
            Repetir semanalmente
          </Button>
        </Group>
      </Group>
      <Hint>Arrastra sobre un horario vacío para crear una clase. Horario del estudio (Ciudad de México).</Hint>
      <Loaded query={week}>
        {() => (
          <ScrollArea h="calc(100vh - 260px)" type="auto">
            <Box style={{ display: 'grid', gridTemplateColumns: '56px repeat(7, 1fr)', userSelect: 'none' }} data-testid="schedule-grid">
              <div />
              {days.map((d) => (
                <Text key={d} ta="center" fw={600} size="sm" tt="capitalize" pb={4} bg={d === today ? 'teal.0' : undefined}>
                  {dayLabel(d)}
                </Text>
              ))}
              <Box>
                {Array.from({ length: slotsPerDay }, (_, i) => (
                  <Box key={i} h={slotPx} pr={4}>
                    {i % 2 === 0 && (
                      <Text size="xs" c="dimmed" ta="right">
                        {slotTime(i)}
                      </Text>
                    )}
                  </Box>
                ))}
              </Box>
              {days.map((date) => (
                <Box key={date} pos="relative" style={{ borderLeft: '1px solid var(--mantine-color-gray-3)' }}>
                  {Array.from({ length: slotsPerDay }, (_, i) => {
                    const inDrag = drag?.date === date && i >= Math.min(drag.from, drag.to) && i <= Math.max(drag.from, drag.to);
                    return (
                      <Box
                        key={i}
                        h={slotPx}
                        data-testid={`slot-${date}-${slotTime(i)}`}
                        bg={inDrag ? 'teal.1' : undefined}
                        style={{ borderTop: `1px ${i % 2 === 0 ? 'solid' : 'dotted'} var(--mantine-color-gray-2)`, cursor: 'crosshair' }}
                        onMouseDown={(e) => {
                          if (e.button === 0) setDrag({ date, from: i, to: i });
                        }}
                        onMouseEnter={() => setDrag((d) => (d && d.date === date ? { ...d, to: i } : d))}
                      />
                    );
                  })}
                  {(byDay.get(date) ?? []).map((c) => (
                    <ClassBlock key={c.single_class_id} c={c} lane={lanes.get(c) ?? { lane: 0, lanes: 1 }} onOpen={() => setOpenId(c.single_class_id)} />
                  ))}
                </Box>
              ))}
            </Box>
          </ScrollArea>
        )}
      </Loaded>
      {creating && <ClassForm initial={creating} onClose={() => setCreating(null)} />}
      {repeating && <RepeatForm onClose={() => setRepeating(false)} />}
      {openId !== null && <ClassDetail id={openId} onClose={() => setOpenId(null)} />}
    </>
  );
}

function ClassBlock({ c, lane, onOpen }: { c: ScheduleClass; lane: DayLane; onOpen: () => void }) {
  const { minutes, time } = studioSlot(c.class_date);
  const top = ((minutes - firstHour * 60) / slotMinutes) * slotPx;
  const height = Math.max(slotPx, (c.duration_minutes / slotMinutes) * slotPx - 2);
  const cancelled = c.cancelledAt !== null;
  const coaches = c.class_instructors.map((i) => i.name).join(', ');
  return (
    <Tooltip label={`${c.class_type.name} · ${placeLabel(c.location.name, c.room?.name)}${coaches ? ` · ${coaches}` : ''}`} openDelay={400}>
      <Paper
        pos="absolute"
        top={Math.max(0, top)}
        left={`calc(${(lane.lane * 100) / lane.lanes}% + 2px)`}
        w={`calc(${100 / lane.lanes}% - 4px)`}
        h={height}
        p={4}
        radius="sm"
        bg={cancelled ? 'gray.2' : 'teal.6'}
        c={cancelled ? 'dimmed' : 'white'}
        style={{ overflow: 'hidden', cursor: 'pointer', zIndex: 1 }}
        onMouseDown={(e) => e.stopPropagation()}
        onClick={onOpen}
        data-testid="schedule-class"
        data-class-id={c.single_class_id}
        data-cancelled={cancelled}
        data-lane={`${lane.lane + 1}/${lane.lanes}`}
      >
        <Text size="xs" fw={700} lh={1.2} td={cancelled ? 'line-through' : undefined}>
          {time} {c.class_type.name}
        </Text>
        <Text size="xs" lh={1.2}>
          {c.reservation_count}/{c.capacity}
          {cancelled && (
            <Badge size="xs" color="red" ml={4}>
              Cancelada
            </Badge>
          )}
        </Text>
        {/* The room, when the class is in one: two classes side by side are told apart by it. */}
        {c.room && (
          <Text size="xs" lh={1.2} truncate data-testid="schedule-class-place">
            {placeLabel(c.location.name, c.room.name)}
          </Text>
        )}
      </Paper>
    </Tooltip>
  );
}
