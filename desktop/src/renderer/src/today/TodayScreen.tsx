import { Badge, Box, Card, Center, Divider, Group, Loader, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { texts } from '@estudio/core';
import { memo, useCallback, useDeferredValue, useEffect, useState } from 'react';
import { capitalized, dayOf, errorText, timeOf } from '../format.ts';
import { useCheckedInHere, useCheckInActions, useEachVerdict, type ScanResult } from '../scanner/check-in.tsx';
import { ReservationMenu, WaitlistButton, type ReservationRef } from '../customers/ReservationActions.tsx';
import classes from './Roster.module.css';
import { trpc, type DeskOutputs } from '../trpc.ts';

const t = texts.desk;
type DeskLocation = DeskOutputs['today']['locations'][number];
type DeskClass = DeskLocation['classes'][number];

/** The location tabs' id: Mantine names each tab `${id}-tab-${value}`, which labels its panel. */
const LOCATION_TABS_ID = 'desk-locations';
const locationTabId = (value: string) => `${LOCATION_TABS_ID}-tab-${value}`;
const locationPanelId = (value: string) => `${LOCATION_TABS_ID}-panel-${value}`;

/** The time now, again every 30 s: a class moves below when it ends, without a reload. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/** Runs `work` once the frame being prepared is painted (a task after the next animation frame). */
function afterNextPaint(work: () => void): void {
  requestAnimationFrame(() => setTimeout(work, 0));
}

const endsAt = (c: DeskClass) => new Date(c.class_date).getTime() + c.duration_minutes * 60_000;

/**
 * Today's classes by location, each with its roster; a click on a name checks
 * that person in. Classes under way and to come first; the ones that ended go
 * below, under 'N clases terminadas', so the next class is the first thing
 * staff see at the counter.
 */
export function TodayScreen() {
  const today = trpc.today.useQuery();
  const now = useNow();
  const [location, setLocation] = useState<string | null>(null);
  const { checkIn } = useCheckInActions();
  // One stable callback for every card, so a scan re-renders only the card of the scanned class (memo below).
  const onCheckIn = useCallback((id: number) => void checkIn(id), [checkIn]);
  // After a check-in, show the location of that class, so staff see the name turn 'Asistió' in its roster. This
  // screen does not read the verdict itself: its redraw on every scan walked every roster on it. The change of
  // location waits until the verdict is painted: showing one location and hiding another restyles both panels,
  // and the verdict is what the person at the counter waits for.
  useEachVerdict(useCallback((result: ScanResult) => afterNextPaint(() => setLocation(String(result.reservation.location_id))), []));
  // The location on screen is drawn first; the others right after, at a lower priority, and every one is kept. A
  // change of location, by a click or a scan, then shows one panel and hides another: it neither removes a roster
  // (React's deletions of a large roster cost a scan most of a second) nor draws one.
  const allDrawn = useDeferredValue(today.data !== undefined, false);
  if (today.isPending) return <Center p="xl"><Loader /></Center>;
  if (today.error) return <Text c="red">{errorText(today.error)}</Text>;
  const { locations, date } = today.data;
  const current = location ?? String(locations.find((l) => l.classes.length)?.location_id ?? locations[0]?.location_id ?? '');
  return (
    <Stack gap={0}>
      {/* Noon in Mexico City (UTC-6 all year): the studio's date, whatever the desk computer's zone. */}
      <Title order={3} mb="sm">{capitalized(dayOf(`${date}T18:00:00Z`))}</Title>
      <Tabs id={LOCATION_TABS_ID} value={current} onChange={setLocation} variant="pills">
        <Tabs.List>
          {locations.map((l) => (
            <Tabs.Tab
              key={l.location_id}
              value={String(l.location_id)}
              aria-controls={locationPanelId(String(l.location_id))}
              rightSection={<Badge size="sm" variant="light">{l.classes.length}</Badge>}
            >
              {l.name}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {/* The panels sit outside Tabs: Mantine gives its context a new value on every draw, and React would walk
          every roster under it, shown or hidden, each time this screen redraws. */}
      {locations.map((l) => {
        const shown = String(l.location_id) === current;
        return allDrawn || shown ? <LocationPanel key={l.location_id} location={l} shown={shown} now={now} onCheckIn={onCheckIn} /> : null;
      })}
    </Stack>
  );
}

type LocationPanelProps = { location: DeskLocation; shown: boolean; now: number; onCheckIn: (classReservationId: number) => void };

/** A location's classes, open then finished; hidden, not removed, while another location is on screen. */
const LocationPanel = memo(function LocationPanel({ location: l, shown, now, onCheckIn }: LocationPanelProps) {
  const value = String(l.location_id);
  const open = l.classes.filter((c) => endsAt(c) > now);
  const finished = l.classes.filter((c) => endsAt(c) <= now);
  return (
    <Box
      role="tabpanel"
      id={locationPanelId(value)}
      aria-labelledby={locationTabId(value)}
      data-location-id={value}
      pt="md"
      style={shown ? undefined : { display: 'none' }}
    >
      {l.classes.length === 0 ? (
        <Text c="dimmed">{t.noClassesToday}</Text>
      ) : (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, xl: 2 }} data-testid="classes-open">
            {open.map((c) => (
              <ClassCard key={c.single_class_id} cls={c} onCheckIn={onCheckIn} />
            ))}
          </SimpleGrid>
          {finished.length > 0 && (
            <>
              <Divider label={t.finishedClasses(finished.length)} labelPosition="left" />
              <SimpleGrid cols={{ base: 1, xl: 2 }} data-testid="classes-finished">
                {finished.map((c) => (
                  <ClassCard key={c.single_class_id} cls={c} finished onCheckIn={onCheckIn} />
                ))}
              </SimpleGrid>
            </>
          )}
        </Stack>
      )}
    </Box>
  );
});

type ClassCardProps = { cls: DeskClass; finished?: boolean; onCheckIn: (classReservationId: number) => void };

/**
 * A class and its roster. Memoised: the today query keeps unchanged classes
 * as the same objects (React Query's structural sharing), so a scan or a
 * pulled change redraws only the classes it touched. The row just checked in
 * is highlighted at a lower priority than the verdict: the scan panel is
 * painted first, then the roster.
 */
const ClassCard = memo(function ClassCard(props: ClassCardProps) {
  const highlighted = useDeferredValue(useCheckedInHere(props.cls.single_class_id));
  return <ClassRoster {...props} highlighted={highlighted} />;
});

const ClassRoster = memo(function ClassRoster({
  cls,
  finished = false,
  highlighted: last,
  onCheckIn: checkIn,
}: ClassCardProps & {
  /** The reservation just checked in, when it is in this class. */
  highlighted: number | undefined;
}) {
  const attended = cls.roster.filter((r) => r.attend).length;
  return (
    <Card withBorder padding="md" radius="md" data-class-id={cls.single_class_id} data-finished={finished} opacity={cls.cancelledAt ? 0.6 : finished ? 0.8 : 1}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <div>
          <Text fw={700} fz="lg">
            {timeOf(cls.class_date)} · {cls.class_type}
          </Text>
          <Text size="sm" c="dimmed">
            {cls.instructors.join(', ')}
          </Text>
        </div>
        <Stack gap={4} align="flex-end">
          {cls.cancelledAt ? <Badge color="red">{t.classCancelled}</Badge> : null}
          <Badge variant="light">
            {cls.places}/{cls.capacity}
          </Badge>
          <Badge variant="light" color="teal">
            {t.attended}: {attended}
          </Badge>
          <WaitlistButton singleClassId={cls.single_class_id} disabled={!!cls.cancelledAt} />
        </Stack>
      </Group>
      {cls.roster.length === 0 ? (
        <Text size="sm" c="dimmed">{t.emptyRoster}</Text>
      ) : (
        <table className={classes.roster}>
          <tbody>
            {cls.roster.map((r) => (
              <RosterRow
                key={r.class_reservation_id}
                r={r}
                singleClassId={cls.single_class_id}
                cancelled={!!cls.cancelledAt}
                highlighted={r.class_reservation_id === last}
                onCheckIn={checkIn}
              />
            ))}
          </tbody>
        </table>
      )}
    </Card>
  );
});

type RosterRowProps = {
  r: DeskClass['roster'][number];
  singleClassId: number;
  cancelled: boolean;
  highlighted: boolean;
  onCheckIn: (classReservationId: number) => void;
};

/**
 * One person of a roster. Memoised: the today query keeps unchanged rows as
 * the same objects, so a check-in, a highlight or a pulled change redraws
 * its own rows, not a whole class of many. Plain elements styled like
 * Mantine's (Roster.module.css): the rows are most of what the screen draws
 * and restyles, at each refresh and each change of location (decision 148).
 */
const RosterRow = memo(function RosterRow({ r, singleClassId, cancelled, highlighted, onCheckIn: checkIn }: RosterRowProps) {
  const name = `${r.name} ${r.last_name}`;
  return (
    <tr className={classes.row} data-reservation-id={r.class_reservation_id} data-attended={r.attend} data-just-checked-in={highlighted || undefined}>
      <td className={classes.spot}>{r.spot ?? '—'}</td>
      <td>
        <button
          type="button"
          className={`${classes.name} mantine-focus-auto`}
          onClick={() => checkIn(r.class_reservation_id)}
          disabled={r.attend || cancelled}
          title={r.attend ? t.attended : t.checkInAction}
        >
          <span className={classes.fullName}>{name}</span>
          {r.guest && (
            <span className={classes.guest}>
              {t.guest}: {r.guest}
            </span>
          )}
        </button>
      </td>
      <td className={classes.badges}>
        <div className={classes.badgeStack}>
          {r.is_cash ? (
            <span className={`${classes.badge} ${r.is_paid ? classes.cashPaid : classes.cashUnpaid}`}>{r.is_paid ? t.cashPaid : t.cashUnpaid}</span>
          ) : (
            <span className={`${classes.badge} ${classes.credit}`}>{t.paidWithCredit}</span>
          )}
          {r.attend && (
            <span className={`${classes.badge} ${classes.attended}`} data-testid="attended">
              {t.attended}
            </span>
          )}
        </div>
      </td>
      <td className={classes.menuCell}>{!cancelled && <RowMenu r={{ ...r, single_class_id: singleClassId, name }} />}</td>
    </tr>
  );
});

/**
 * A row's '⋯': a plain button until it is first used, then Mantine's menu,
 * open. A roster drew one whole menu per person, and nobody opens most of them.
 */
function RowMenu({ r }: { r: ReservationRef }) {
  const [used, setUsed] = useState(false);
  if (used) return <ReservationMenu r={r} defaultOpened />;
  return (
    <button
      type="button"
      className={`${classes.menuButton} mantine-focus-auto`}
      aria-label={texts.deskActions.reservationMenu(r.name)}
      data-testid="reservation-menu"
      onClick={() => setUsed(true)}
    />
  );
}
