import { Alert, Badge, Button, Container, EmptyState, Group, Paper, Skeleton, Stack, Switch, Text, Title } from '@mantine/core';
import { IconBellRinging, IconClockHour4 } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatDateTime, isClassFull, isOn, texts, weekOf } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorMessage } from '../../api/errors.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { showError, showSuccess } from '../../ui/alerts.ts';
import { coachNames, useStudioTimeZone } from '../../booking/time.ts';
import { useInvalidateBooking } from '../../booking/reserve/invalidate.ts';
import { cutoffText } from '../../booking/reserve/WaitlistModal.tsx';
import { usePageTitle } from '../../ui/usePageTitle.ts';
import { NotFound } from '../NotFound.tsx';

/**
 * /mystudio/waitlists: the full classes the customer waits for, each with her
 * place in line, a freed place's way to book it, her choice to be booked
 * automatically (where the studio books from its waitlists) and a way to leave.
 */
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
  const choose = trpc.waitlist.update.useMutation({
    onSuccess: async (answer) => {
      showSuccess(texts.waitlists.autoBookSaved(answer.waitlist.auto_book));
      await waitlists.refetch();
    },
    onError: (error) => showError(errorMessage(error)),
  });
  const autoPromote = isOn(config.waitlist_auto_promote);
  const cutoff = cutoffText(Math.max(0, Number(config.waitlist_promotion_cutoff_minutes) || 0));
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
          // A place is free right now: everyone waiting was told, the first to book takes it.
          const placeFree = !isClassFull(sc);
          const bookLink = `/mystudio?semana=${weekOf(sc.class_date, tz).start_date}&clase=${sc.single_class_id}`;
          return (
            <Paper key={w.waitlist_id} withBorder radius="md" p="md" component="article" data-waitlist-id={w.waitlist_id} aria-label={`${sc.class_type.name}, ${formatDateTime(sc.class_date, tz)}`}>
              <Stack gap="sm">
                <Group justify="space-between" align="flex-start" gap="sm">
                  <div>
                    <Text fw={700}>{sc.class_type.name}</Text>
                    <Text size="sm">{formatDateTime(sc.class_date, tz)}</Text>
                    <Text size="sm" c="dimmed">
                      {[coachNames(sc.class_instructors), sc.location.name].filter(Boolean).join(' · ')}
                    </Text>
                  </div>
                  <Badge variant="light" color="orange" size="lg" style={{ flexShrink: 0 }} data-testid="waitlist-place">
                    {w.position}/{w.waiting}
                  </Badge>
                </Group>
                <Text size="sm" fw={600}>
                  {texts.waitlists.position(w.position, w.waiting)}
                </Text>
                {placeFree && (
                  <Alert variant="light" color="orange" icon={<IconBellRinging size={18} />} p="xs">
                    <Group justify="space-between" gap="xs">
                      <Text size="sm">{texts.waitlists.placeFree}</Text>
                      <Button component={Link} to={bookLink} size="xs">
                        {texts.waitlists.bookNow}
                      </Button>
                    </Group>
                  </Alert>
                )}
                {autoPromote && (
                  <Switch
                    checked={w.auto_book}
                    disabled={choose.isPending && choose.variables?.waitlist_id === w.waitlist_id}
                    onChange={(e) => choose.mutate({ waitlist_id: w.waitlist_id, auto_book: e.currentTarget.checked })}
                    label={texts.waitlists.autoBook}
                    description={texts.waitlists.autoBookHint(cutoff)}
                  />
                )}
                <Group justify="flex-end">
                  <Button variant="light" color="red" loading={leaving} onClick={() => leave.mutate({ id: w.waitlist_id })}>
                    {texts.waitlists.leave}
                  </Button>
                </Group>
              </Stack>
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
