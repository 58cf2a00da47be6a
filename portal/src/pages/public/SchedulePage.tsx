import { Container, Stack, Text, Title } from '@mantine/core';
import { texts } from '@estudio/core';
import { ScheduleView } from '../../booking/ScheduleView.tsx';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { PublicLayout } from './PublicLayout.tsx';

/** /calendario (Horarios): the schedule for everyone; a visitor who picks a class signs in first. */
export default function SchedulePage() {
  usePageTitle(texts.nav.publicSchedule);
  return (
    <PublicLayout>
      <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'xs', sm: 'md' }}>
        <Stack gap="lg">
          <div>
            <Title order={1} fz={{ base: 28, sm: 34 }} px={{ base: 'xs', sm: 0 }}>
              {texts.nav.publicSchedule}
            </Title>
            <Text c="dimmed" px={{ base: 'xs', sm: 0 }}>
              {texts.booking.calendarSubtitle}
            </Text>
          </div>
          <ScheduleView />
        </Stack>
      </Container>
    </PublicLayout>
  );
}
