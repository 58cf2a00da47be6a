import { Badge, Box, Card, Group, Text } from '@mantine/core';
import { IconCircleCheckFilled, IconClock } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { texts, type VideoOutput } from '@estudio/core';
import { coachName } from './access.ts';
import { truncate, VIDEO_DESCRIPTION_LIMIT, VIDEO_NAME_LIMIT } from './format.ts';
import { FavoriteButton } from './FavoriteButton.tsx';
import { VideoThumbnail } from './VideoThumbnail.tsx';
import type { VideoPageState } from './access.ts';
import classes from './Videos.module.css';

interface VideoCardProps {
  video: VideoOutput;
  onToggleFavorite: () => void;
  favoritePending: boolean;
}

/** A library card: picture, name (35) and description (60) cut, duration, coach, heart and completed badge. */
export function VideoCard({ video, onToggleFavorite, favoritePending }: VideoCardProps) {
  const coach = coachName(video.instructor);
  const { pathname, search } = useLocation();
  return (
    <Card component="article" withBorder radius="lg" padding="md" className={classes.card} data-video-id={video.video_id}>
      <Card.Section className={classes.thumb}>
        <VideoThumbnail src={video.thumbnail} />
        <Badge className={classes.duration} variant="filled" color="dark" radius="sm" tt="none" leftSection={<IconClock size={12} />}>
          {texts.videos.minutes(video.duration)}
        </Badge>
        <Box className={classes.heart}>
          <FavoriteButton favorite={video.favorite === 1} loading={favoritePending} onToggle={onToggleFavorite} onImage />
        </Box>
        {video.completed && (
          <Badge className={classes.completed} color="teal" variant="filled" radius="sm" leftSection={<IconCircleCheckFilled size={12} />}>
            {texts.videos.completedBadge}
          </Badge>
        )}
      </Card.Section>
      {/* The name's link covers the whole card (CSS), so the heart stays a button outside any link. */}
      <Text component={Link} to={`/mystudio/video/${video.video_id}`} state={{ back: `${pathname}${search}` } satisfies VideoPageState} fw={700} mt="sm" lh={1.3} title={video.name} className={classes.cardLink}>
        {truncate(video.name, VIDEO_NAME_LIMIT)}
      </Text>
      {video.description && (
        <Text size="sm" c="dimmed" mt={4} lh={1.4} title={video.description}>
          {truncate(video.description, VIDEO_DESCRIPTION_LIMIT)}
        </Text>
      )}
      <Group gap={6} mt="auto" pt="sm" wrap="nowrap">
        {coach && (
          <Text size="xs" fw={600} c="dimmed" truncate="end">
            {coach}
          </Text>
        )}
        {video.class_type && (
          <Badge size="xs" variant="light" radius="sm" className={classes.typeBadge}>
            {video.class_type.name}
          </Badge>
        )}
      </Group>
    </Card>
  );
}
