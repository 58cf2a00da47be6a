import { Badge, Group, Loader, Text, UnstyledButton } from '@mantine/core';
import { IconCheck, IconClock, IconSparkles } from '@tabler/icons-react';
import { isClassFull, localTimeHHmm, texts } from '@estudio/core';
import { coachNames } from './time.ts';
import type { SingleClassOutput } from './types.ts';
import classes from './Schedule.module.css';

/** Badges wrap inside the card's narrow column instead of cutting their label ('Lista de Esp…'). */
const badgeClassNames = { root: classes.cardBadge, label: classes.cardBadgeLabel };

export type ClassCardState = 'reserved' | 'waitlist' | 'full' | 'special' | 'available';

/**
 * Spec card states: reserved (the user has reservations), full (sold out),
 * special package-only, available; a full class the user waits for is shown
 * apart ('waitlist'), so she finds it at a glance.
 */
export function classCardState(c: SingleClassOutput): ClassCardState {
  if (c.class_reservations.length > 0) return 'reserved';
  if (isClassFull(c)) return c.waitlist_id != null ? 'waitlist' : 'full';
  if (c.class_package_id != null) return 'special';
  return 'available';
}

export function ClassCard({ singleClass: c, tz, busy, onSelect }: { singleClass: SingleClassOutput; tz: string; busy: boolean; onSelect: () => void }) {
  const state = classCardState(c);
  const left = Math.max(0, c.capacity - c.reservation_count);
  const coaches = coachNames(c.class_instructors);
  const ownSpot = c.class_reservations.find((r) => r.spot != null)?.spot;
  return (
    <UnstyledButton className={classes.card} data-state={state} data-class-id={c.single_class_id} onClick={onSelect} aria-busy={busy || undefined}>
      <Group justify="space-between" gap={4} wrap="nowrap">
        <Text fw={800} size="md" className={classes.cardTime}>
          {localTimeHHmm(c.class_date, tz)}
        </Text>
        {busy ? (
          <Loader size={14} />
        ) : (
          <Text size="xs" c="dimmed" className={classes.cardDuration}>
            {texts.booking.minutes(c.duration_minutes)}
          </Text>
        )}
      </Group>
      <Text fw={700} size="sm" lh={1.25} className={classes.cardType}>
        {c.class_type.name}
      </Text>
      {coaches && (
        <Text size="xs" lh={1.3} className={classes.cardMeta}>
          {coaches}
        </Text>
      )}
      <Text size="xs" lh={1.3} className={classes.cardMeta}>
        {c.location.name}
      </Text>
      <div className={classes.cardFooter}>
        {state === 'reserved' ? (
          <>
            <Badge size="sm" variant="filled" leftSection={<IconCheck size={12} />} classNames={badgeClassNames}>
              {texts.booking.legendReserved}
            </Badge>
            {ownSpot != null && (
              <Text size="xs" fw={600}>
                {texts.booking.spotLabel(ownSpot)}
              </Text>
            )}
          </>
        ) : state === 'waitlist' ? (
          <Badge size="sm" variant="light" color="orange" leftSection={<IconClock size={12} />} classNames={badgeClassNames}>
            {texts.booking.waitlistTitle}
          </Badge>
        ) : state === 'full' ? (
          <Badge size="sm" variant="light" color="gray" classNames={badgeClassNames}>
            {texts.booking.legendFull}
          </Badge>
        ) : (
          <>
            {state === 'special' && (
              <Badge size="sm" variant="light" color="yellow" leftSection={<IconSparkles size={12} />} classNames={badgeClassNames} title={texts.booking.specialClassHint}>
                {texts.booking.specialClass}
              </Badge>
            )}
            <Text size="xs" fw={600} className={classes.cardPlaces}>
              {texts.booking.placesLeft(left)}
            </Text>
          </>
        )}
      </div>
    </UnstyledButton>
  );
}
