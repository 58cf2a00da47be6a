import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { IconClipboardList, IconClock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isOn, texts } from '@estudio/core';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { ScheduleView } from '../../booking/ScheduleView.tsx';
import { PopupImage } from '../../booking/PopupImage.tsx';
import { usePageTitle } from '../../ui/usePageTitle.ts';

/** /mystudio: the calendar of in-person classes. */
export default function CalendarPage() {
  const config = useAppConfig();
  usePageTitle(texts.booking.calendarHeading);
  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }} px={{ base: 'xs', sm: 'md' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" gap="sm" px={{ base: 'xs', sm: 0 }}>
          <div>
            <Title order={1} fz={{ base: 28, sm: 34 }}>
              {texts.booking.calendarHeading}
            </Title>
            <Text c="dimmed">{texts.booking.calendarSubtitle}</Text>
          </div>
          <Group gap="xs">
            <Button component={Link} to="/mystudio/reservaciones" variant="light" size="sm" leftSection={<IconClipboardList size={18} />}>
              {texts.nav.myReservations}
            </Button>
            {isOn(config.waitlist_enabled) && (
              <Button component={Link} to="/mystudio/waitlists" variant="subtle" size="sm" leftSection={<IconClock size={18} />}>
                {texts.booking.waitlistsLink}
              </Button>
            )}
          </Group>
        </Group>
        <ScheduleView />
      </Stack>
      <PopupImage />
    </Container>
  );
}
