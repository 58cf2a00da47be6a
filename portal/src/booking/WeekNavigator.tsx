import { ActionIcon, Button, Group, SegmentedControl, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { monthLabel, shiftMonth, shiftWeek, weekLabel, weeksOfMonth, type Week } from './week.ts';
import classes from './Schedule.module.css';

interface WeekNavigatorProps {
  month: string;
  week: Week;
  /** The current week: nothing before it can be booked, so navigation stops there. */
  currentWeek: Week;
  compact: boolean;
  onMonth: (month: string) => void;
  onWeek: (week: Week) => void;
}

function Arrow({ label, disabled, onClick, direction }: { label: string; disabled: boolean; onClick: () => void; direction: 'prev' | 'next' }) {
  return (
    // The browser's title on hover (a phone has no hover): a Tooltip would bring floating-ui to every schedule page.
    <ActionIcon variant="default" size="lg" radius="xl" aria-label={label} title={label} disabled={disabled} onClick={onClick}>
      {direction === 'prev' ? <IconChevronLeft size={18} /> : <IconChevronRight size={18} />}
    </ActionIcon>
  );
}

/** Month and week navigation of the schedule (weeks run Monday to Sunday). */
export function WeekNavigator({ month, week, currentWeek, compact, onMonth, onWeek }: WeekNavigatorProps) {
  const currentMonth = currentWeek.start_date.slice(0, 7);
  const weeks = weeksOfMonth(month).filter((w) => w.end_date >= currentWeek.start_date);
  const index = weeks.findIndex((w) => w.start_date === week.start_date);
  const atCurrentWeek = week.start_date <= currentWeek.start_date;

  return (
    <div className={classes.navigator}>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Group gap={6} wrap="nowrap">
          <Arrow label={texts.booking.previousMonth} direction="prev" disabled={month <= currentMonth} onClick={() => onMonth(shiftMonth(month, -1))} />
          <Text component="h2" fw={700} fz={{ base: 'lg', sm: 'xl' }} tt="capitalize" miw={compact ? 0 : 150} ta="center" aria-live="polite" m={0}>
            {monthLabel(month)}
          </Text>
          <Arrow label={texts.booking.nextMonth} direction="next" disabled={false} onClick={() => onMonth(shiftMonth(month, 1))} />
        </Group>
        <Button variant="light" size="compact-sm" radius="xl" disabled={atCurrentWeek} onClick={() => onWeek(currentWeek)}>
          {texts.booking.currentWeek}
        </Button>
      </Group>
      <Group gap="xs" wrap="nowrap" mt="sm" justify="space-between">
        <Arrow label={texts.booking.previousWeek} direction="prev" disabled={atCurrentWeek} onClick={() => onWeek(shiftWeek(week, -1))} />
        {compact || weeks.length === 0 || index < 0 ? (
          <Text fw={600} size="sm" ta="center" className={classes.weekLabel}>
            {texts.booking.weekOfMonth} {weekLabel(week)}
          </Text>
        ) : (
          <SegmentedControl
            className={classes.weeks}
            radius="xl"
            fullWidth
            value={week.start_date}
            onChange={(value) => {
              const next = weeks.find((w) => w.start_date === value);
              if (next) onWeek(next);
            }}
            data={weeks.map((w) => ({ value: w.start_date, label: weekLabel(w) }))}
            aria-label={texts.booking.weekOfMonth}
          />
        )}
        <Arrow label={texts.booking.nextWeek} direction="next" disabled={false} onClick={() => onWeek(shiftWeek(week, 1))} />
      </Group>
    </div>
  );
}
