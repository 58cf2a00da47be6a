import { Avatar } from '@mantine/core';
import { cappedSizes } from '../../../ui/image-sources.ts';
import { FallbackImage } from './FallbackImage.tsx';
import { fullName, initials, type Instructor } from './people.ts';

/** The coach's photo, or their initials when there is none (or it fails to load). */
export function CoachPortrait({ coach }: { coach: Instructor }) {
  return (
    <FallbackImage
      src={coach.file?.src}
      alt={fullName(coach)}
      sizes={cappedSizes(360)}
      priority="high"
      radius="lg"
      maw={360}
      mx="auto"
      style={{ aspectRatio: '4 / 5', objectFit: 'cover' }}
      fallback={
        <Avatar size={180} radius={180} color="brand" mx="auto">
          {initials(coach)}
        </Avatar>
      }
    />
  );
}
