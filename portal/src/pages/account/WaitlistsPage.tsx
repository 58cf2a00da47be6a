import { Alert, Button, Container, EmptyState, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconClockHour4 } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDateTime, isOn, texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { showError, showSuccess } from '../../ui/alerts.ts';
import { coachNames, useStudioTimeZone } from '../../booking/time.ts';
import { useInvalidateBooking } from '../../booking/reserve/invalidate.ts';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { NotFound } from '../NotFound.tsx';

/** /mystudio/waitlists: the full classes the customer waits for, each with a way to leave. */
export default function WaitlistsPage() {
  const config = useAppConfig();
  usePageTitle(texts.waitlists.heading);
  const tz = useStudioTimeZone();
  const enabled = isOn(config.waitlist_enabled);
  const invalidate = useInvalidateBooking();
  const waitlists = trpc.waitlist.list.useQuery(undefined, { enabled });
  const leave = trpc.waitlist.remove.useMutation({
    onSuccess: async () => {
      showSuccess(texts.booking.waitlistLeft);
      await invalidate();
    },
    onError: (error) => showError(errorMessage(error)),
  });
  if (!enabled) return <NotFound home="/mystudio" fullHeight={false} />;

  const rows = [...(waitlists.data?.waitlists ?? [])].sort((a, b) => Date.parse(a.single_class.class_date) - Date.parse(b.single_class.class_date));
  let content: React.ReactNode;
  if (waitlists.isError) content = <Alert color="red" variant="light" title={errorMessage(waitlists.error)} />;
  else if (!waitlists.data) content = <Skeleton h={96} radius="md" />;
  else if (rows.length === 0)
    content = (
      <EmptyState py={48} variant="light" icon={<IconClockHour4 size={32} stroke={1.5} />} title={texts.waitlists.empty}>
        <EmptyState.Actions>
          <Button component={Link} to="/mystudio">
            {texts.waitlists.goToCalendar}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    );
  else
    content = (
      <Stack gap="sm">
        {rows.map((w) => {
          const sc = w.single_class;
          const leaving = leave.isPending && leave.variables?.id === w.waitlist_id;
          return (
            <Paper key={w.waitlist_id} withBorder radius="md" p="md" component="article" data-waitlist-id={w.waitlist_id}>
              <Group justify="space-between" align="center" gap="sm">
                <div>
                  <Text fw={700}>{sc.class_type.name}</Text>
                  <Text size="sm">{formatDateTime(sc.class_date, tz)}</Text>
                  <Text size="sm" c="dimmed">
                    {[coachNames(sc.class_instructors), sc.location.name].filter(Boolean).join(' · ')}
                  </Text>
                </div>
                <Button variant="light" color="red" loading={leaving} onClick={() => leave.mutate({ id: w.waitlist_id })}>
                  {texts.waitlists.leave}
                </Button>
              </Group>
            </Paper>
          );
        })}
      </Stack>
    );

  return (
    <Container size="md" py={{ base: 'md', sm: 'xl' }}>
      <Stack gap="lg">
        <Title order={1} fz={{ base: 28, sm: 34 }}>
          {texts.waitlists.heading}
        </Title>
        {content}
      </Stack>
    </Container>
  );
}
