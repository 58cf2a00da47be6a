import { Group, Text, UnstyledButton } from '@mantine/core';
import { seatRows, texts } from '@estudio/core';
import classes from './SeatMap.module.css';

interface SeatMapProps {
  /** The class's seat map ('4,6,6': seats per row, back row first; its room's, else its type's). */
  spotMap: string;
  /** Seats other people (or the caller's booking) hold. */
  taken: readonly number[];
  /** The caller's own seats in this class (theirs and their guest's), when they already booked: not taken for them. */
  mine?: readonly number[];
  selected: number | null;
  /** The guest's seat, when the caller brings a guest. */
  guestSelected?: number | null;
  onSelect: (spot: number) => void;
  error?: string;
  /** The heading: 'Elige tu lugar', or the guest's while her seat is being chosen. */
  heading?: string;
}

function Swatch({ kind, label }: { kind: 'free' | 'taken' | 'mine' | 'selected' | 'guest'; label: string }) {
  return (
    <Group gap={6} wrap="nowrap">
      <span className={classes.swatch} data-kind={kind} aria-hidden />
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Group>
  );
}

/**
 * The studio floor: rows from the class type's comma list with the back row
 * at the top, numbered from the back (core's seatRows), and the coach at the
 * bottom. Seats are buttons named 'Lugar N'; taken ones are disabled. With a
 * guest, the guest's seat shows apart ('Lugar N (invitado)').
 */
export function SeatMap({ spotMap, taken, mine = [], selected, guestSelected = null, onSelect, error, heading = texts.booking.chooseSpot }: SeatMapProps) {
  const takenSet = new Set(taken.filter((spot) => !mine.includes(spot)));
  return (
    <div className={classes.root}>
      <Group justify="space-between" align="baseline" mb={8}>
        <Text fw={600} size="sm" aria-live="polite">
          {heading}
        </Text>
        <Group gap="sm">
          <Swatch kind="free" label={texts.booking.spotFree} />
          <Swatch kind="taken" label={texts.booking.spotTaken} />
          <Swatch kind="selected" label={texts.booking.spotMine} />
          {guestSelected != null && <Swatch kind="guest" label={texts.booking.spotGuest} />}
        </Group>
      </Group>
      <div className={classes.floor} role="group" aria-label={texts.booking.seatMapLabel}>
        {seatRows(spotMap).map((row) => (
          <div key={row.row} className={classes.row}>
            {row.seats.map((spot) => {
              const isTaken = takenSet.has(spot);
              const isSelected = selected === spot;
              const isGuest = guestSelected === spot;
              const label = isGuest ? texts.booking.guestSpotLabel(spot) : texts.booking.spotLabel(spot);
              return (
                <UnstyledButton
                  key={spot}
                  className={classes.seat}
                  data-taken={isTaken || undefined}
                  data-selected={isSelected || undefined}
                  data-guest={isGuest || undefined}
                  disabled={isTaken}
                  aria-pressed={isSelected || isGuest}
                  aria-label={label}
                  title={isTaken ? `${label} · ${texts.booking.spotTaken}` : label}
                  onClick={() => onSelect(spot)}
                >
                  {spot}
                </UnstyledButton>
              );
            })}
          </div>
        ))}
        <div className={classes.coach}>{texts.booking.coachBar}</div>
      </div>
      {error && (
        <Text size="sm" c="red" mt={6} role="alert">
          {error}
        </Text>
      )}
    </div>
  );
}
