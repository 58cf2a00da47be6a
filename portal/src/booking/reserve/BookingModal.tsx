import { useState } from 'react';
import { Button, Checkbox, Divider, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { IconTicket } from '@tabler/icons-react';
import { Link } from 'react-router';
import { creditsForClass, describeWeeklySlot, guestName, guestRuleText, guestUsesCredit, heldSeats, isInWeeklySlot, isOn, seatRows, texts, weeklySlotOf } from '@estudio/core';
import { useStudioTimeZone } from '../time.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { trpc } from '../../api/trpc.ts';
import { errorFacts } from '../../api/errors.ts';
import { showError, showSuccess } from '../../ui/alerts.ts';
import { ClassSummary } from '../ClassSummary.tsx';
import { SeatMap } from '../SeatMap.tsx';
import type { SingleClassOutput } from '../types.ts';
import { useInvalidateBooking } from './invalidate.ts';
import { useSingleFlight } from '../single-flight.ts';

interface BookingModalProps {
  opened: boolean;
  onClose: () => void;
  singleClass: SingleClassOutput;
  /** The class changed under the customer (seat taken meanwhile): show it again with fresh data. */
  onStale: (fresh: SingleClassOutput) => void;
}

/**
 * Books a class, or changes the seat and guest of the caller's own
 * reservation in it. The seat map shows when the class has one (its room's, else its type's);
 * the guest name when allow_class_guests is on, with the studio's guest rule
 * (guest_uses_credit) and, on a seat map, a second seat for the guest. The
 * server decides: a 412 or 409 shows its message and the schedule reloads.
 */
export function BookingModal({ opened, onClose, singleClass, onStale }: BookingModalProps) {
  const config = useAppConfig();
  const utils = trpc.useUtils();
  const invalidate = useInvalidateBooking();
  const own = singleClass.class_reservations[0];
  const hasMap = seatRows(singleClass.spot_map).length > 0;
  const guestsAllowed = isOn(config.allow_class_guests);
  const [spot, setSpot] = useState<number | null>(own?.spot ?? null);
  const [withGuest, setWithGuest] = useState(Boolean(own?.guest));
  const [guest, setGuest] = useState(own?.guest ?? '');
  const [guestSpot, setGuestSpot] = useState<number | null>(own?.guest_spot ?? null);
  // Whose seat the next tap on the map sets: the customer's, then the guest's.
  const [picking, setPicking] = useState<'me' | 'guest'>('me');
  const [errors, setErrors] = useState<{ spot?: string; guest?: string }>({});
  const guestOn = guestsAllowed && withGuest;
  const guestSeat = hasMap && guestOn;
  // A guest takes a place: offered only while there is one for them (a booking needs its own place too).
  const placesLeft = Math.max(0, singleClass.capacity - singleClass.reservation_count);
  const guestFits = Boolean(own?.guest) || placesLeft >= (own ? 1 : 2);
  const tz = useStudioTimeZone();
  const credits = trpc.credits.list.useQuery(undefined, { enabled: !own, staleTime: 30_000 });
  const have = credits.data ? creditsForClass(credits.data.available_classes, { classTypeId: singleClass.class_type_id, classDate: singleClass.class_date, timeZone: tz }) : null;
  const uses = 1 + (guestOn && guestUsesCredit(config) ? 1 : 0);
  // "Reservar cada semana": any class but a special one (a one-off) can be kept every week.
  const weekly = singleClass.class_package_id === null;
  const slotLabel = describeWeeklySlot(weeklySlotOf(singleClass, tz));
  const [everyWeek, setEveryWeek] = useState(false);
  const places = trpc.standingBookings.list.useQuery(undefined, { enabled: weekly && Boolean(own), staleTime: 30_000 });
  const keptWeekly = places.data?.standing_bookings.some((p) => isInWeeklySlot(p, singleClass, tz)) ?? false;
  const startWeekly = trpc.standingBookings.start.useMutation();

  const pickSeat = (value: number) => {
    setErrors((e) => ({ ...e, spot: undefined }));
    if (guestSeat && (picking === 'guest' || value === guestSpot)) {
      if (value === spot) return;
      setGuestSpot(value === guestSpot ? null : value);
      return;
    }
    setSpot(value);
    if (guestSeat && guestSpot == null) setPicking('guest');
  };
  const create = trpc.reservations.create.useMutation();
  const update = trpc.reservations.update.useMutation();
  const saving = create.isPending || update.isPending || startWeekly.isPending;

  /** Keeps the class's weekly place; the booking already made stays whatever this answers. */
  const keepEveryWeek = async () => {
    try {
      await startWeekly.mutateAsync({ single_class_id: singleClass.single_class_id, spot: hasMap ? spot : undefined });
      showSuccess(texts.standing.started(slotLabel));
      return true;
    } catch (error) {
      showError(errorFacts(error).message);
      return false;
    }
  };
  const once = useSingleFlight();

  const submit = async () => {
    const found: { spot?: string; guest?: string } = {};
    if (hasMap && spot == null) found.spot = texts.booking.spotRequired;
    else if (guestSeat && guestSpot == null) found.spot = texts.booking.guestSpotRequired;
    let guestValue: string | null = null;
    if (guestOn) {
      const parsed = guestName.safeParse(guest);
      if (parsed.success) guestValue = parsed.data;
      else found.guest = texts.booking.guestNameRequired;
    }
    setErrors(found);
    if (found.spot || found.guest) return;
    try {
      const seatOfGuest = guestSeat && guestValue !== null ? guestSpot : null;
      if (own) {
        await update.mutateAsync({
          class_reservation_id: own.class_reservation_id,
          spot: hasMap ? spot : undefined,
          guest: guestsAllowed ? guestValue : undefined,
          guest_spot: hasMap && guestsAllowed ? seatOfGuest : undefined,
        });
      } else {
        await create.mutateAsync({ single_class_id: singleClass.single_class_id, spot: hasMap ? spot : undefined, guest: guestValue ?? undefined, guest_spot: seatOfGuest ?? undefined });
      }
      showSuccess(texts.booking.reservationSaved);
      if (!own && weekly && everyWeek) await keepEveryWeek();
      onClose();
      await invalidate();
    } catch (error) {
      const facts = errorFacts(error);
      showError(facts.message);
      if (facts.status !== 412 && facts.status !== 409) return;
      await utils.schedule.list.invalidate();
      if (facts.code === 'booking/spot-taken') {
        const fresh = await utils.schedule.byId.fetch({ id: singleClass.single_class_id }).catch(() => null);
        if (fresh) return onStale(fresh.single_class);
      }
      onClose();
    }
  };

  return (
    <Modal opened={opened} onClose={onClose} title={own ? texts.booking.myBookingTitle : texts.booking.bookTitle} size="lg" centered closeButtonProps={{ 'aria-label': texts.shell.close }}>
      <Stack gap="lg">
        <ClassSummary singleClass={singleClass} details />
        {own && (own.spot != null || own.guest) && (
          <Stack gap={2} data-testid="my-booking-seats">
            {own.spot != null && <Text fw={600}>{texts.booking.mySeat(own.spot)}</Text>}
            {own.guest && <Text fw={600}>{texts.booking.myGuest(own.guest, own.guest_spot)}</Text>}
          </Stack>
        )}
        {!own && have && (
          <Group gap={8} wrap="nowrap" align="flex-start" data-testid="booking-credits">
            <IconTicket size={18} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
            <Text size="sm">{have.unlimited ? texts.booking.creditsUnlimited : texts.booking.creditsUse(have.classes, uses)}</Text>
          </Group>
        )}
        {guestsAllowed && (
          <Stack gap="xs">
            <Checkbox
              label={texts.booking.bringGuest}
              description={guestFits ? guestRuleText(config) : texts.booking.guestNoPlace}
              disabled={!guestFits}
              checked={withGuest}
              onChange={(e) => {
                const on = e.currentTarget.checked;
                setWithGuest(on);
                if (on && hasMap && spot != null && guestSpot == null) setPicking('guest');
                if (!on) setPicking('me');
              }}
            />
            {withGuest && (
              <TextInput
                label={texts.booking.guestNameLabel}
                value={guest}
                maxLength={80}
                autoComplete="off"
                onChange={(e) => {
                  setGuest(e.currentTarget.value);
                  setErrors((x) => ({ ...x, guest: undefined }));
                }}
                error={errors.guest}
              />
            )}
          </Stack>
        )}
        {hasMap && singleClass.spot_map && (
          <>
            <Divider />
            {guestSeat && (
              <SegmentedControl
                aria-label={texts.booking.chooseSpot}
                value={picking}
                onChange={(value) => setPicking(value === 'guest' ? 'guest' : 'me')}
                data={[
                  { value: 'me', label: spot != null ? `${texts.booking.spotPick}: ${spot}` : texts.booking.spotPick },
                  { value: 'guest', label: guestSpot != null ? `${texts.booking.spotPickGuest}: ${guestSpot}` : texts.booking.spotPickGuest },
                ]}
                fullWidth
              />
            )}
            <SeatMap
              heading={guestSeat && picking === 'guest' ? texts.booking.chooseGuestSpotHeading : texts.booking.chooseSpot}
              spotMap={singleClass.spot_map}
              taken={singleClass.taken_spots}
              mine={own ? heldSeats(own) : []}
              selected={spot}
              guestSelected={guestSeat ? guestSpot : null}
              onSelect={pickSeat}
              error={errors.spot}
            />
          </>
        )}
        {weekly && !own && (
          <Checkbox label={texts.standing.checkbox} description={texts.standing.checkboxHint(slotLabel)} checked={everyWeek} onChange={(e) => setEveryWeek(e.currentTarget.checked)} />
        )}
        {own && !hasMap && !guestsAllowed ? (
          <Text size="sm" c="dimmed">
            {texts.booking.legendReserved}
          </Text>
        ) : (
          <Button size="md" fullWidth onClick={() => void once(submit)} loading={saving}>
            {own ? texts.booking.saveChanges : texts.booking.reserveButton}
          </Button>
        )}
        {weekly && own && places.data && (keptWeekly ? (
          <Text size="sm" c="dimmed" ta="center" data-testid="kept-weekly">
            {texts.standing.already(slotLabel)}
          </Text>
        ) : (
          <Button
            variant="light"
            fullWidth
            loading={startWeekly.isPending}
            onClick={() => void once(async () => {
              if (await keepEveryWeek()) await invalidate();
            })}
          >
            {texts.standing.startButton}
          </Button>
        ))}
        {own && (
          // Cancelling has its rules and its warning (the credit may not come back): Mis Reservaciones' own dialog says them.
          <Button component={Link} to={`/mystudio/reservaciones?cancelar=${own.class_reservation_id}`} variant="subtle" color="red" fullWidth onClick={onClose}>
            {texts.booking.cancelMine}
          </Button>
        )}
      </Stack>
    </Modal>
  );
}
