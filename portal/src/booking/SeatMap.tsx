import { Group, Text, UnstyledButton } from '@mantine/core';
import { seatRows, texts } from '@estudio/core';
import classes from './SeatMap.module.css';

interface SeatMapProps {
  /** The class type's spot_map ('4,6,6': seats per row, back row first). */
  spotMap: string;
  /** Seats other people hold. */
  taken: readonly number[];
  /** The caller's own seat in this class, when they already booked. */
  mine?: number | null;
  selected: number | null;
  onSelect: (spot: number) => void;
  error?: string;
}

function Swatch({ kind, label }: { kind: 'free' | 'taken' | 'mine' | 'selected'; label: string }) {
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
 * bottom. Seats are buttons named 'Lugar N'; taken ones are disabled.
 */
export function SeatMap({ spotMap, taken, mine, selected, onSelect, error }: SeatMapProps) {
  const takenSet = new Set(taken.filter((spot) => spot !== mine));
  return (
    <div className={classes.root}>
      <Group justify="space-between" align="baseline" mb={8}>
        <Text fw={600} size="sm">
          {texts.booking.chooseSpot}
        </Text>
        <Group gap="sm">
          <Swatch kind="free" label={texts.booking.spotFree} />
          <Swatch kind="taken" label={texts.booking.spotTaken} />
          {mine != null && <Swatch kind="mine" label={texts.booking.spotMine} />}
        </Group>
      </Group>
      <div className={classes.floor} role="group" aria-label={texts.booking.seatMapLabel}>
        {seatRows(spotMap).map((row) => (
          <div key={row.row} className={classes.row}>
            {row.seats.map((spot) => {
              const isTaken = takenSet.has(spot);
              const isSelected = selected === spot;
              return (
                <UnstyledButton
                  key={spot}
                  className={classes.seat}
                  data-taken={isTaken || undefined}
                  data-mine={mine === spot || undefined}
                  data-selected={isSelected || undefined}
                  disabled={isTaken}
                  aria-pressed={isSelected}
                  aria-label={texts.booking.spotLabel(spot)}
                  title={isTaken ? `${texts.booking.spotLabel(spot)} · ${texts.booking.spotTaken}` : texts.booking.spotLabel(spot)}
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
