import { Alert, Badge, Button, Center, Container, Divider, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconCheck, IconLock } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { formatDateTime, texts, type AdminReservationOutput } from '@estudio/core';
import { errorMessage } from '../../api/errors.ts';
import { trpc } from '../../api/trpc.ts';
import { coachNames, useStudioTimeZone } from '../../booking/time.ts';
import { useSession } from '../../session/SessionProvider.tsx';
import { showError, showSuccess } from '../../ui/alerts.ts';
import { LoadingScreen } from '../../ui/LoadingScreen.tsx';
import { NotFound } from '../NotFound.tsx';

const t = texts.adminReservation;

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Group justify="space-between" align="flex-start" wrap="nowrap" gap="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600} ta="right">
        {children}
      </Text>
    </Group>
  );
}

function paymentText(r: AdminReservationOutput): string {
  if (!r.is_cash) return t.paidWithCredit;
  return r.is_paid ? t.cashPaid : t.cashUnpaid;
}

/** The reservation and its check-in button, for a signed-in staff or admin. */
function StaffView({ id }: { id: number }) {
  const tz = useStudioTimeZone();
  const utils = trpc.useUtils();
  const reservation = trpc.reservations.byId.useQuery({ id }, { retry: false });
  const checkIn = trpc.reservations.checkIn.useMutation({
    onSuccess: async () => {
      showSuccess(t.checkedIn);
      await utils.reservations.byId.invalidate({ id });
    },
    onError: (error) => showError(errorMessage(error)),
  });

  if (reservation.isError) {
    if (reservation.error.data?.httpStatus === 404) return <NotFound />;
    return (
      <Container size="xs" py="xl">
        <Alert color="red" variant="light" title={errorMessage(reservation.error)} />
      </Container>
    );
  }
  const r = reservation.data?.class_reservation;
  if (!r) return <LoadingScreen />;
  const sc = r.single_class;
  const cancelled = r.deletedAt !== null;
  const classCancelled = sc.cancelledAt !== null;

  return (
    <Container size="xs" py={{ base: 'md', sm: 'xl' }}>
      <Paper withBorder radius="md" p="lg" component="article" data-reservation-id={r.class_reservation_id}>
        <Stack gap="md">
          <Group justify="space-between" align="center">
            <Title order={1} fz={{ base: 24, sm: 28 }}>
              {t.heading(r.class_reservation_id)}
            </Title>
            <Badge size="lg" color={r.attend ? 'teal' : 'gray'} variant="light" data-testid="attendance">
              {r.attend ? t.attended : t.notAttended}
            </Badge>
          </Group>
          {cancelled && <Alert color="red" variant="light" title={t.reservationCancelled} />}
          {!cancelled && classCancelled && <Alert color="red" variant="light" title={t.classCancelled} />}
          <Stack gap={4}>
            <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
              {t.customer}
            </Text>
            <Text fw={700} size="lg">
              {`${r.customer.name} ${r.customer.last_name}`}
            </Text>
            <Text size="sm" c="dimmed">
              {[r.customer.email, r.customer.phone].filter(Boolean).join(' · ')}
            </Text>
          </Stack>
          <Divider />
          <Stack gap={4}>
            <Text size="xs" tt="uppercase" c="dimmed" fw={700}>
              {t.classLabel}
            </Text>
            <Text fw={700}>{sc.class_type.name}</Text>
            <Text size="sm">{formatDateTime(sc.class_date, tz)}</Text>
            <Text size="sm" c="dimmed">
              {[coachNames(sc.class_instructors), sc.location.name].filter(Boolean).join(' · ')}
            </Text>
          </Stack>
          <Divider />
          <Stack gap="xs">
            <Fact label={t.seat}>{r.spot ?? t.noSeat}</Fact>
            <Fact label={t.guest}>{r.guest ?? t.noGuest}</Fact>
            <Fact label={t.payment}>{paymentText(r)}</Fact>
            <Fact label={t.attendance}>{r.attend ? t.attended : t.notAttended}</Fact>
          </Stack>
          <Button
            size="md"
            leftSection={<IconCheck size={18} />}
            disabled={r.attend || cancelled || classCancelled}
            loading={checkIn.isPending}
            onClick={() => checkIn.mutate({ id: r.class_reservation_id })}
          >
            {t.checkIn}
          </Button>
        </Stack>
      </Paper>
    </Container>
  );
}

/** A visitor is asked to sign in with a staff account. */
function SignInPrompt() {
  return (
    <Center mih="100dvh" p="xl">
      <Stack align="center" gap="md" maw={460} ta="center">
        <IconLock size={48} stroke={1.5} />
        <Title order={1} fz={{ base: 24, sm: 28 }}>
          {t.signInTitle}
        </Title>
        <Text c="dimmed">{t.signInText}</Text>
        <Button component={Link} to="/entrar" size="md">
          {t.signInButton}
        </Button>
      </Stack>
    </Center>
  );
}

/**
 * /admin/reservaciones/{id}: where the QR 'Código de Acceso' of a reservation
 * leads. Staff and admin see the reservation and check it in; a customer gets
 * the not-found page (the server answers 403 to them anyway); a visitor is
 * asked to sign in.
 */
export default function AdminReservationPage() {
  const { status, customer } = useSession();
  const { id } = useParams();
  const reservationId = Number(id);
  if (!Number.isInteger(reservationId) || reservationId <= 0) return <NotFound />;
  if (status === 'signedOut') return <SignInPrompt />;
  if (status !== 'signedIn' || !customer) {
    return (
      <Center mih="100dvh">
        <Loader aria-label="Cargando" />
      </Center>
    );
  }
  if (customer.role !== 'staff' && customer.role !== 'admin') return <NotFound />;
  return <StaffView id={reservationId} />;
}
