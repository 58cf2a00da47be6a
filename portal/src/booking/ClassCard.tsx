import { Badge, Box, Group, Loader, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { IconBellRinging, IconCheck, IconClock, IconLock, IconSparkles } from '@tabler/icons-react';
import { formatDateTime, localDate, localTimeHHmm, placeLabel, texts, type ClassBookability } from '@estudio/core';
import { coachNames } from './time.ts';
import { dayLabels } from './week.ts';
import type { SingleClassOutput } from './types.ts';
import classes from './Schedule.module.css';

/** Badges wrap inside the card's narrow column instead of cutting their label ('Lista de Esp…'). */
const badgeClassNames = { root: classes.cardBadge, label: classes.cardBadgeLabel };

function Footer({ c, view, tz }: { c: SingleClassOutput; view: ClassBookability; tz: string }) {
  const ownSpot = c.class_reservations.find((r) => r.spot != null)?.spot;
  switch (view.state) {
    case 'reserved':
      return (
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
      );
    case 'waitlist':
      return (
        <Badge size="sm" variant="light" color="orange" leftSection={<IconClock size={12} />} classNames={badgeClassNames}>
          {texts.booking.waitlistTitle}
        </Badge>
      );
    case 'full':
    case 'full-closed':
      return (
        <>
          <Badge size="sm" variant="light" color="gray" classNames={badgeClassNames}>
            {texts.booking.legendFull}
          </Badge>
          <Text size="xs" fw={600} className={classes.cardNote}>
            {view.state === 'full' ? texts.booking.cardFullWaitlist : texts.booking.cardFullNoWaitlist}
          </Text>
        </>
      );
    case 'too-late':
    case 'started':
    case 'not-open':
      return (
        <Badge size="sm" variant="light" color="gray" leftSection={<IconLock size={12} />} classNames={badgeClassNames}>
          {view.state === 'not-open' && view.opensAt
            ? texts.booking.cardNotOpen(formatDateTime(view.opensAt, tz))
            : view.state === 'started'
              ? texts.booking.cardStarted
              : texts.booking.cardTooLate}
        </Badge>
      );
    case 'special':
    case 'available':
      return (
        <>
          {view.waitlisted && (
            <Badge size="sm" variant="light" color="orange" leftSection={<IconBellRinging size={12} />} classNames={badgeClassNames}>
              {texts.booking.cardWaitlistPlaceFree}
            </Badge>
          )}
          {view.special && (
            <Badge size="sm" variant="light" color="yellow" leftSection={<IconSparkles size={12} />} classNames={badgeClassNames} title={texts.booking.specialClassHint}>
              {texts.booking.specialClass}
            </Badge>
          )}
          <Text size="xs" fw={600} className={classes.cardPlaces}>
            {view.state === 'special' ? texts.booking.cardNeedsPackage : texts.booking.placesLeft(view.placesLeft)}
          </Text>
        </>
      );
  }
}

/**
 * A class of the calendar as core's classBookability sees it for the caller:
 * bookable, reserved, on the waitlist, full (with or without a waitlist),
 * closed, not open yet, or a package's class. Only cards that lead somewhere
 * are buttons; the others say why and cannot be clicked.
 */
export function ClassCard({ singleClass: c, view, tz, busy, onSelect }: { singleClass: SingleClassOutput; view: ClassBookability; tz: string; busy: boolean; onSelect: () => void }) {
  const coaches = coachNames(c.class_instructors);
  const body = (
    <>
      {/* The day is in the column's or list's heading for the eyes; a screen reader's button name carries it too. */}
      <VisuallyHidden>{`${dayLabels(localDate(c.class_date, tz)).long}, `}</VisuallyHidden>
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
      {c.event_name && (
        <Text size="xs" fw={600} lh={1.3} className={classes.cardEvent}>
          {c.event_name}
        </Text>
      )}
      {coaches && (
        <Text size="xs" lh={1.3} className={classes.cardMeta}>
          {coaches}
        </Text>
      )}
      <Text size="xs" lh={1.3} className={classes.cardMeta}>
        {placeLabel(c.location.name, c.room?.name)}
      </Text>
      <div className={classes.cardFooter}>
        <Footer c={c} view={view} tz={tz} />
      </div>
    </>
  );
  const data = { 'data-state': view.state, 'data-special': view.special || undefined, 'data-class-id': c.single_class_id };
  if (!view.actionable) {
    return (
      <Box className={classes.card} {...data} data-closed>
        {body}
      </Box>
    );
  }
  return (
    <UnstyledButton className={classes.card} {...data} onClick={onSelect} aria-busy={busy || undefined}>
      {body}
    </UnstyledButton>
  );
}
