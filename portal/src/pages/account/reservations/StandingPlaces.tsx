import { useState } from 'react';
import { Badge, Button, Group, Modal, Paper, Stack, Text, Title } from '@mantine/core';
import { IconRepeat } from '@tabler/icons-react';
import { formatDateTime, texts } from '@estudio/core';
import type { inferRouterOutputs } from '@trpc/server';
import { trpc, type AppRouter } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { showError, showSuccess } from '../../../ui/alerts.ts';
import { useStudioTimeZone } from '../../../booking/time.ts';
import { useSingleFlight } from '../../../booking/single-flight.ts';
import { useInvalidateBooking } from '../../../booking/reserve/invalidate.ts';

type Place = inferRouterOutputs<AppRouter>['standingBookings']['list']['standing_bookings'][number];
type WeekStatus = Place['weeks'][number]['status'];

const weekColor: Record<WeekStatus, string> = { reservada: 'green', cancelada: 'gray', 'no-reservada': 'red', pendiente: 'blue' };

/**
 * Mis Reservaciones' "Cada semana": the customer's weekly places, the slot's
 * next classes and what became of each (booked, cancelled, not booked and
 * why, booked when it opens), and the way to stop. Shows nothing when she has none.
 */
export function StandingPlaces() {
  const list = trpc.standingBookings.list.useQuery();
  const [stopping, setStopping] = useState<Place | null>(null);
  const places = list.data?.standing_bookings ?? [];
  if (places.length === 0) return null;
  return (
    <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }} component="section" aria-labelledby="standing-heading">
      <Stack gap="sm">
        <Group gap={8} wrap="nowrap">
          <IconRepeat size={22} aria-hidden />
          <Title order={2} fz={20} id="standing-heading">
            {texts.standing.heading}
          </Title>
        </Group>
        <Text size="sm" c="dimmed">
          {texts.standing.intro}
        </Text>
        {places.map((place) => (
          <PlaceCard key={place.standing_booking_id} place={place} onStop={() => setStopping(place)} />
        ))}
      </Stack>
      {stopping && <StopModal place={stopping} onClose={() => setStopping(null)} />}
    </Paper>
  );
}

function PlaceCard({ place, onStop }: { place: Place; onStop: () => void }) {
  const tz = useStudioTimeZone();
  const title = texts.standing.title(place.class_type_name, place.label);
  return (
    <Paper withBorder radius="md" p="md" component="article" data-standing-id={place.standing_booking_id} aria-label={title}>
      <Group justify="space-between" align="flex-start" gap="sm">
        <div>
          <Text fw={700}>{title}</Text>
          <Text size="sm" c="dimmed">
            {place.location_name}
          </Text>
        </div>
        <Button variant="subtle" color="red" size="compact-sm" onClick={onStop}>
          {texts.standing.stop}
        </Button>
      </Group>
      {place.weeks.length === 0 ? (
        <Text size="sm" c="dimmed" mt="xs">
          {texts.standing.noWeeks}
        </Text>
      ) : (
        <Stack gap={6} mt="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {place.weeks.map((week) => (
            <li key={week.single_class_id}>
              <Group gap="xs" wrap="wrap">
                <Text size="sm">{formatDateTime(week.class_date, tz)}</Text>
                <Badge color={weekColor[week.status]} variant="light" radius="sm">
                  {texts.standing.weekStatus[week.status]}
                </Badge>
              </Group>
              {week.reason && (
                <Text size="xs" c="red.8">
                  {week.reason}
                </Text>
              )}
            </li>
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function StopModal({ place, onClose }: { place: Place; onClose: () => void }) {
  const utils = trpc.useUtils();
  const invalidate = useInvalidateBooking();
  const end = trpc.standingBookings.end.useMutation();
  const once = useSingleFlight();
  const title = texts.standing.title(place.class_type_name, place.label);
  const confirm = () =>
    once(async () => {
      try {
        await end.mutateAsync({ id: place.standing_booking_id });
        showSuccess(texts.standing.stopped);
        onClose();
      } catch (error) {
        showError(errorMessage(error));
      }
      await Promise.all([utils.standingBookings.list.invalidate(), invalidate()]);
    });
  return (
    <Modal opened onClose={onClose} title={texts.standing.stopTitle} centered closeButtonProps={{ 'aria-label': texts.shell.close }}>
      <Stack gap="md">
        <Text>{texts.standing.stopBody(title)}</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            {texts.standing.keep}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={end.isPending} disabled={end.isSuccess}>
            {texts.standing.stopConfirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
