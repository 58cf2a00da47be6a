import { useEffect, useMemo, useRef, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Container,
  EmptyState,
  Group,
  Loader,
  Pagination,
  Paper,
  Rating,
  SegmentedControl,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCalendarPlus, IconInfoCircle, IconPencil, IconQrcode, IconShoppingBag } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import {
  cancellationBlockedText,
  cancellationPolicyLines,
  formatDate,
  formatDateTime,
  isOn,
  reservationPageSize,
  reservationStatusText,
  texts,
  type ReservationFilter,
} from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { useAppConfig } from '../../../config/AppConfigContext.tsx';
import { showError } from '../../../ui/alerts.ts';
import { coachNames, useNow, useStudioTimeZone } from '../../../booking/time.ts';
import type { ReservationWithClass } from '../../../booking/types.ts';
import { reservationFacts, statusColor, type ReservationFacts } from './facts.ts';
import { useFocusReturn } from '../../../ui/useFocusReturn.ts';
import { AccessCodeModal, CancelModal, GuestModal, RatingModal } from './ReservationModals.tsx';
import { StandingPlaces } from './StandingPlaces.tsx';
import classes from './MyReservations.module.css';
import { usePageTitle } from '../../../ui/usePageTitle.ts';
import { useViewportQuery } from '../../../ssr/render-context.ts';

type Dialog = { kind: 'cancel' | 'rate' | 'qr' | 'guest'; reservation: ReservationWithClass; creditReturned: boolean; seq: number };

const filters: { value: ReservationFilter; label: string }[] = [
  { value: 'all', label: texts.reservations.filterAll },
  { value: 'upcoming', label: texts.reservations.filterUpcoming },
  { value: 'past', label: texts.reservations.filterPast },
  { value: 'cancelled', label: texts.reservations.filterCancelled },
];

/** Credits left ('Ilimitadas' and the expiry for unlimited members) and the way to buy more. */
function CreditSummary() {
  const config = useAppConfig();
  const tz = useStudioTimeZone();
  const credits = trpc.credits.list.useQuery();
  const data = credits.data;
  return (
    <Paper withBorder radius="lg" p="md" className={classes.summary}>
      <Group justify="space-between" gap="md">
        <div>
          <Text size="xs" tt="uppercase" fw={700} c="dimmed" lts="0.05em">
            {texts.reservations.creditsLabel}
          </Text>
          {!data ? (
            <Loader size="sm" mt={6} />
          ) : data.has_unlimited ? (
            <>
              <Text fw={800} fz={26} lh={1.2} data-testid="credits-available">
                {texts.credits.unlimited}
              </Text>
              {data.unlimited_membership_expiration && (
                <Text size="xs" c="dimmed">
                  {texts.reservations.unlimitedUntil(formatDate(data.unlimited_membership_expiration, tz))}
                </Text>
              )}
            </>
          ) : (
            <Text fw={800} fz={26} lh={1.2} data-testid="credits-available">
              {data.total.toLocaleString('es-MX')}
            </Text>
          )}
        </div>
        <Button component={Link} to={config.class_packages_path || '/mystudio/paquetes'} leftSection={<IconShoppingBag size={18} />}>
          {texts.reservations.buyClasses}
        </Button>
      </Group>
    </Paper>
  );
}

function StatusBadge({ facts }: { facts: ReservationFacts }) {
  return (
    <Badge color={statusColor[facts.status]} variant={facts.status === 'upcoming' ? 'filled' : 'light'} radius="sm">
      {reservationStatusText(facts.status)}
    </Badge>
  );
}

interface ActionsProps {
  r: ReservationWithClass;
  facts: ReservationFacts;
  open: (kind: Dialog['kind']) => void;
}

function Actions({ r, facts, open, phone = false }: ActionsProps & { phone?: boolean }) {
  const config = useAppConfig();
  const blocked = facts.upcoming ? cancellationBlockedText(facts.cancellation, config) : null;
  return (
    <Group gap={6} wrap={phone ? 'wrap' : 'nowrap'} justify={phone ? 'flex-start' : 'flex-end'}>
      {r.class_stars != null ? (
        <Rating value={r.class_stars} readOnly size="sm" aria-label={texts.reservations.starsLabel(r.class_stars)} />
      ) : (
        facts.canRate && (
          <Button size="xs" variant="light" onClick={() => open('rate')}>
            {texts.reservations.rateTitle}
          </Button>
        )
      )}
      {facts.showAccessCode && (
        <Tooltip label={texts.reservations.accessCodeButton} openDelay={300}>
          <ActionIcon variant="light" size="lg" aria-label={texts.reservations.accessCodeButton} onClick={() => open('qr')}>
            <IconQrcode size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {facts.canEditGuest && (
        <Tooltip label={texts.reservations.editGuest} openDelay={300}>
          <ActionIcon variant="light" color="gray" size="lg" aria-label={texts.reservations.editGuest} onClick={() => open('guest')}>
            <IconPencil size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {facts.cancellation.allowed && (
        <Button size="xs" variant="subtle" color="red" onClick={() => open('cancel')}>
          {texts.reservations.cancelAction}
        </Button>
      )}
      {blocked && (
        <Text size="xs" c="dimmed" className={classes.blocked} data-testid="cancel-blocked">
          {blocked}
        </Text>
      )}
    </Group>
  );
}

/** /mystudio/reservaciones: the customer's reservations, 50 a page, with cancel, rating, access code and guest name. */
export default function MyReservationsPage() {
  const config = useAppConfig();
  usePageTitle(texts.reservations.heading);
  const tz = useStudioTimeZone();
  const now = useNow();
  const wide = useViewportQuery('(min-width: 62em)');
  const [filter, setFilter] = useState<ReservationFilter>('all');
  const [page, setPage] = useState(1);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [opened, setOpened] = useState(false);
  const guests = isOn(config.allow_class_guests);

  const list = trpc.reservations.mine.useQuery({ page, filter }, { placeholderData: keepPreviousData });
  const unlimited = trpc.credits.list.useQuery().data?.has_unlimited ?? false;
  // cancels_used lives on the credit a reservation was paid with (max_cancels_per_available_class).
  const history = trpc.credits.history.useQuery(undefined, { staleTime: 30_000 });
  const cancelsUsed = useMemo(() => new Map((history.data?.available_classes ?? []).map((c) => [c.available_class_id, c.cancels_used])), [history.data]);

  const rows = (list.data?.class_reservations ?? []).map((r) => ({
    r,
    facts: reservationFacts(r, config, now, r.available_class_id != null ? (cancelsUsed.get(r.available_class_id) ?? 0) : 0),
  }));
  const total = list.data?.total ?? 0;
  const pages = Math.ceil(total / reservationPageSize);

  // The row's button that opened a dialog gets the keyboard back when it closes.
  const focus = useFocusReturn();
  const openedRef = useRef(false);
  const open = (r: ReservationWithClass, facts: ReservationFacts) => (kind: Dialog['kind']) => {
    focus.remember();
    setDialog({ kind, reservation: r, creditReturned: facts.cancellation.creditReturned, seq: (dialog?.seq ?? 0) + 1 });
    setOpened(true);
    openedRef.current = true;
  };
  const close = () => {
    setOpened(false);
    openedRef.current = false;
    focus.closed(() => openedRef.current);
  };

  // 'Cancelar reservación' from the calendar's 'Tu Reservación' (?cancelar=<id>): the same dialog, with its rules.
  const [params, setParams] = useSearchParams();
  const toCancel = Number(params.get('cancelar')) || null;
  useEffect(() => {
    if (toCancel === null || !list.data || !history.data) return;
    const next = new URLSearchParams(params);
    next.delete('cancelar');
    setParams(next, { replace: true });
    const row = rows.find(({ r }) => r.class_reservation_id === toCancel);
    if (!row) return;
    const blocked = cancellationBlockedText(row.facts.cancellation, config);
    if (row.facts.cancellation.allowed) open(row.r, row.facts)('cancel');
    else if (blocked) showError(blocked);
    // Once per link: the parameter is gone after this run.
  }, [toCancel, list.data, history.data]);

  let content: React.ReactNode;
  if (list.isError && !list.data) {
    content = (
      <Alert color="red" variant="light" title={errorMessage(list.error)}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void list.refetch()}>
          {texts.shell.retry}
        </Button>
      </Alert>
    );
  } else if (!list.data) {
    content = (
      <Stack gap="sm">
        {[0, 1, 2].map((k) => (
          <Skeleton key={k} h={56} radius="md" />
        ))}
      </Stack>
    );
  } else if (rows.length === 0) {
    content = (
      <EmptyState
        py={48}
        icon={<IconCalendarPlus size={32} stroke={1.5} />}
        variant="light"
        title={texts.reservations.empty}
      >
        <EmptyState.Actions>
          <Button component={Link} to="/mystudio">
            {texts.reservations.goBook}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    );
  } else if (wide) {
    content = (
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="sm" highlightOnHover className={classes.table}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{texts.reservations.columnClass}</Table.Th>
              {guests && <Table.Th>{texts.reservations.columnGuest}</Table.Th>}
              <Table.Th>{texts.reservations.columnCoach}</Table.Th>
              <Table.Th>{texts.reservations.columnDate}</Table.Th>
              <Table.Th>{texts.reservations.columnSpot}</Table.Th>
              <Table.Th>{texts.reservations.columnStatus}</Table.Th>
              <Table.Th ta="right">{texts.reservations.columnActions}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map(({ r, facts }) => (
              <Table.Tr key={r.class_reservation_id} data-reservation-id={r.class_reservation_id}>
                <Table.Td>
                  <Text fw={600} size="sm">
                    {r.single_class.class_type.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {r.single_class.location.name}
                  </Text>
                </Table.Td>
                {guests && <Table.Td>{r.guest ?? texts.reservations.emptyCell}</Table.Td>}
                <Table.Td>{coachNames(r.single_class.class_instructors) || texts.reservations.emptyCell}</Table.Td>
                <Table.Td className={classes.nowrap}>{formatDateTime(r.single_class.class_date, tz)}</Table.Td>
                <Table.Td>{r.guest_spot != null ? texts.reservations.spotWithGuest(r.spot, r.guest_spot) : (r.spot ?? texts.reservations.emptyCell)}</Table.Td>
                <Table.Td>
                  <StatusBadge facts={facts} />
                </Table.Td>
                <Table.Td>
                  <Actions r={r} facts={facts} open={open(r, facts)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  } else {
    content = (
      <Stack gap="sm" className={classes.cards}>
        {rows.map(({ r, facts }) => (
          <Paper key={r.class_reservation_id} withBorder radius="md" p="md" component="article" data-reservation-id={r.class_reservation_id}>
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
              <div>
                <Text fw={700}>{r.single_class.class_type.name}</Text>
                <Text size="sm">{formatDateTime(r.single_class.class_date, tz)}</Text>
              </div>
              <StatusBadge facts={facts} />
            </Group>
            <Text size="sm" c="dimmed" mt={4}>
              {[coachNames(r.single_class.class_instructors), r.single_class.location.name].filter(Boolean).join(' · ')}
            </Text>
            {(r.spot != null || (guests && r.guest)) && (
              <Group gap="md" mt={6}>
                {r.spot != null && (
                  <Text size="sm">
                    <Text span c="dimmed" inherit>
                      {texts.reservations.columnSpot}:
                    </Text>{' '}
                    {r.guest_spot != null ? texts.reservations.spotWithGuest(r.spot, r.guest_spot) : r.spot}
                  </Text>
                )}
                {guests && r.guest && (
                  <Text size="sm">
                    <Text span c="dimmed" inherit>
                      {texts.reservations.columnGuest}:
                    </Text>{' '}
                    {r.guest}
                  </Text>
                )}
              </Group>
            )}
            {/* Actions start at the left: the floating WhatsApp button sits at the bottom right of a phone's screen. */}
            <Group justify="flex-start" mt="sm">
              <Actions r={r} facts={facts} open={open(r, facts)} phone />
            </Group>
          </Paper>
        ))}
      </Stack>
    );
  }

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-start" gap="md">
          <div>
            <Title order={1} fz={{ base: 28, sm: 34 }}>
              {texts.reservations.heading}
            </Title>
          </div>
          <CreditSummary />
        </Group>
        <Alert variant="light" color="blue" icon={<IconInfoCircle size={20} />}>
          {cancellationPolicyLines(config, { unlimited }).map((line) => (
            <Text size="sm" key={line}>
              {line}
            </Text>
          ))}
        </Alert>
        <StandingPlaces />
        <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }}>
          <Stack gap="md">
            <Group justify="space-between" gap="sm">
              <SegmentedControl
                aria-label={texts.reservations.filterLabel}
                value={filter}
                onChange={(value) => {
                  setFilter(value as ReservationFilter);
                  setPage(1);
                }}
                data={filters}
                radius="xl"
                size={wide ? 'sm' : 'xs'}
                fullWidth={!wide}
                w={wide ? undefined : '100%'}
              />
              {list.isFetching && list.data && <Loader size="xs" aria-hidden />}
            </Group>
            {content}
            {pages > 1 && (
              <Group justify="center">
                <Pagination total={pages} value={page} onChange={setPage} aria-label={texts.reservations.pagination} />
              </Group>
            )}
          </Stack>
        </Paper>
      </Stack>
      {dialog?.kind === 'cancel' && <CancelModal key={dialog.seq} opened={opened} onClose={close} reservation={dialog.reservation} creditReturned={dialog.creditReturned} unlimited={unlimited} />}
      {dialog?.kind === 'rate' && <RatingModal key={dialog.seq} opened={opened} onClose={close} reservation={dialog.reservation} />}
      {dialog?.kind === 'qr' && <AccessCodeModal key={dialog.seq} opened={opened} onClose={close} reservation={dialog.reservation} />}
      {dialog?.kind === 'guest' && <GuestModal key={dialog.seq} opened={opened} onClose={close} reservation={dialog.reservation} />}
    </Container>
  );
}
