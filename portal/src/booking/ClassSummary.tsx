import { Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconCalendarEvent, IconMapPin, IconUser } from '@tabler/icons-react';
import { formatDateTime, texts } from '@estudio/core';
import { coachNames, useStudioTimeZone } from './time.ts';
import type { ClassSummaryData } from './types.ts';

function Line({ icon, children }: { icon: React.ReactNode; children: React.ReactNode }) {
  return (
    <Group gap={8} wrap="nowrap" align="flex-start">
      <ThemeIcon variant="light" size={24} radius="xl">
        {icon}
      </ThemeIcon>
      <Text size="sm" pt={2}>
        {children}
      </Text>
    </Group>
  );
}

/** The class a modal is about: type, date and time on the studio's clock, coaches and location. */
export function ClassSummary({ singleClass }: { singleClass: ClassSummaryData }) {
  const tz = useStudioTimeZone();
  const coaches = coachNames(singleClass.class_instructors);
  return (
    <Stack gap={8}>
      <Text fw={700} size="lg" lh={1.2}>
        {singleClass.class_type.name}
      </Text>
      <Line icon={<IconCalendarEvent size={14} />}>
        {formatDateTime(singleClass.class_date, tz)} · {texts.booking.minutes(singleClass.duration_minutes)}
      </Line>
      {coaches && <Line icon={<IconUser size={14} />}>{coaches}</Line>}
      <Line icon={<IconMapPin size={14} />}>{singleClass.location.name}</Line>
    </Stack>
  );
}
