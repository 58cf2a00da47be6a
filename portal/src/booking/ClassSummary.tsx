import { Avatar, Group, Spoiler, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconBackpack, IconCalendarEvent, IconMapPin, IconStairs, IconUser } from '@tabler/icons-react';
import { formatDateTime, placeLabel, texts } from '@estudio/core';
import { pictureVariants } from '../ui/image-sources.ts';
import { coachNames, useStudioTimeZone } from './time.ts';
import type { ClassSummaryData } from './types.ts';

function Line({ icon, label, children }: { icon: React.ReactNode; label?: string; children: React.ReactNode }) {
  return (
    <Group gap={8} wrap="nowrap" align="flex-start">
      <ThemeIcon variant="light" size={24} radius="xl" aria-hidden>
        {icon}
      </ThemeIcon>
      <Text size="sm" pt={2}>
        {label && (
          <Text span size="sm" fw={700}>
            {`${label}: `}
          </Text>
        )}
        {children}
      </Text>
    </Group>
  );
}

/** The coaches' faces beside their names: the smallest copy of each photo, initials when there is none. */
function Coaches({ coaches }: { coaches: ClassSummaryData['class_instructors'] }) {
  const withPhoto = coaches.some((c) => c.file?.src);
  if (!withPhoto) return <Line icon={<IconUser size={14} />}>{coachNames(coaches)}</Line>;
  return (
    <Group gap={8} wrap="nowrap" align="center">
      <Avatar.Group spacing="sm">
        {coaches.map((c) => {
          const src = c.file?.src;
          return (
            <Avatar key={`${c.name}-${c.last_name ?? ''}`} src={src ? (pictureVariants(src)[0]?.url ?? src) : null} alt="" size={36} radius="xl" color="brand">
              {c.name.slice(0, 1)}
            </Avatar>
          );
        })}
      </Avatar.Group>
      <Text size="sm">{coachNames(coaches)}</Text>
    </Group>
  );
}

/**
 * The class a modal is about: type, date and time on the studio's clock,
 * coaches and location. With `details` (where the customer decides: booking,
 * the waitlist), also the coaches' photos and what the studio wrote about the
 * class: its description (the class's own, else its type's), level and what
 * to bring (decision 092).
 */
export function ClassSummary({ singleClass, details = false }: { singleClass: ClassSummaryData; details?: boolean }) {
  const tz = useStudioTimeZone();
  const coaches = singleClass.class_instructors;
  const type = singleClass.class_type;
  const description = (singleClass.description?.trim() || type.description?.trim()) ?? '';
  return (
    <Stack gap={8}>
      <Text fw={700} size="lg" lh={1.2}>
        {type.name}
      </Text>
      <Line icon={<IconCalendarEvent size={14} />}>
        {formatDateTime(singleClass.class_date, tz)} · {texts.booking.minutes(singleClass.duration_minutes)}
      </Line>
      {coaches.length > 0 && (details ? <Coaches coaches={coaches} /> : <Line icon={<IconUser size={14} />}>{coachNames(coaches)}</Line>)}
      <Line icon={<IconMapPin size={14} />}>{placeLabel(singleClass.location.name, singleClass.room?.name)}</Line>
      {details && type.level && (
        <Line icon={<IconStairs size={14} />} label={texts.booking.classLevel}>
          {type.level}
        </Line>
      )}
      {details && type.what_to_bring && (
        <Line icon={<IconBackpack size={14} />} label={texts.booking.whatToBring}>
          {type.what_to_bring}
        </Line>
      )}
      {details && description && (
        <Spoiler maxHeight={66} showLabel={texts.booking.readMore} hideLabel={texts.booking.readLess} data-testid="class-description">
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-line' }}>
            {description}
          </Text>
        </Spoiler>
      )}
    </Stack>
  );
}
