import { Button, Group, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { addWeeks, todayMonday, weekLabel } from './week.ts';

const t = texts.coachConsole;

/**
 * The week's buttons (previous, this week, next) and its name, for the
 * owner's schedule and the coach's. On a phone the name goes under the
 * buttons instead of squeezing them.
 */
export function WeekNavigator({ monday, onChange, testId }: { monday: string; onChange: (monday: string) => void; testId: string }) {
  return (
    <Group gap="xs">
      <Group gap="xs" wrap="nowrap">
        <Button variant="default" onClick={() => onChange(addWeeks(monday, -1))} aria-label={t.previousWeek}>
          <IconChevronLeft size={16} />
        </Button>
        <Button variant="default" onClick={() => onChange(todayMonday())}>
          {t.thisWeek}
        </Button>
        <Button variant="default" onClick={() => onChange(addWeeks(monday, 1))} aria-label={t.nextWeek}>
          <IconChevronRight size={16} />
        </Button>
      </Group>
      <Text fw={600} data-testid={testId}>
        {weekLabel(monday)}
      </Text>
    </Group>
  );
}
