import {
  Alert,
  Anchor,
  Badge,
  Button,
  Container,
  Divider,
  EmptyState,
  Grid,
  Group,
  Paper,
  Rating,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconArrowLeft, IconCircleCheck, IconCircleCheckFilled, IconClock, IconMovieOff, IconUser } from '@tabler/icons-react';
import { Link, useLocation, useParams } from 'react-router';
import { isOn, texts } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { useAppConfig } from '../../../config/AppConfigContext.tsx';
import { backToLibrary, coachName, isPurchaseNeeded, isVideoNotFound } from '../../../videos/access.ts';
import { FavoriteButton } from '../../../videos/FavoriteButton.tsx';
import { PurchaseNeeded } from '../../../videos/PurchaseNeeded.tsx';
import { useFavoriteToggle, useVideoProgress } from '../../../videos/useVideoActions.ts';
import { VideoPlayer } from '../../../videos/VideoPlayer.tsx';
import { usePageTitle } from '../../../ui/usePageTitle.ts';
import { NotFound } from '../../NotFound.tsx';

function BackLink({ to }: { to: string }) {
  return (
    <Anchor component={Link} to={to} size="sm" fw={600}>
      <Group gap={4} component="span">
        <IconArrowLeft size={16} />
        {texts.videos.backToLibrary}
      </Group>
    </Anchor>
  );
}

/** /mystudio/video/{video_id}: the player, the video's facts, favourite, completion and a 1–5 rating. */
export default function VideoPage() {
  const config = useAppConfig();
  const enabled = isOn(config.videos_enabled);
  const { video_id } = useParams();
  const back = backToLibrary(useLocation().state);
  const id = Number(video_id);
  const valid = Number.isInteger(id) && id > 0;
  // The server records a playback on every read, so a focus or reconnect must not read it again.
  const query = trpc.videos.byId.useQuery(
    { id },
    { enabled: enabled && valid, retry: false, refetchOnWindowFocus: false, refetchOnReconnect: false, staleTime: Infinity },
  );
  const favorite = useFavoriteToggle();
  const { complete, uncomplete, rate } = useVideoProgress();
  usePageTitle(query.data?.video.name ?? texts.videos.heading);

  if (!enabled) return <NotFound home="/mystudio" fullHeight={false} />;

  const notFound = !valid || isVideoNotFound(query.error);
  const purchaseNeeded = !notFound && isPurchaseNeeded(query.error);
  let content: React.ReactNode;
  if (notFound)
    content = (
      <EmptyState py={56} variant="light" icon={<IconMovieOff size={32} stroke={1.5} />} title={texts.videos.notFound}>
        <EmptyState.Actions>
          <Button component={Link} to={back}>
            {texts.videos.backToLibrary}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    );
  else if (purchaseNeeded) content = <PurchaseNeeded />;
  else if (query.isError)
    content = (
      <Alert color="red" variant="light" title={errorMessage(query.error)}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void query.refetch()}>
          {texts.shell.retry}
        </Button>
      </Alert>
    );
  else if (!query.data)
    content = (
      <Stack gap="md">
        <Skeleton radius="lg" style={{ aspectRatio: '16 / 9' }} />
        <Skeleton h={28} w="60%" />
        <Skeleton h={16} w="80%" />
      </Stack>
    );
  else {
    const video = query.data.video;
    const coach = coachName(video.instructor);
    const toggling = complete.isPending || uncomplete.isPending;
    content = (
      <Grid gap={{ base: 'lg', md: 'xl' }}>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <Stack gap="md">
            <VideoPlayer url={video.url} name={video.name} poster={video.thumbnail} />
            <Group justify="space-between" align="flex-start" wrap="nowrap" gap="sm">
              <div>
                <Title order={1} fz={{ base: 24, sm: 30 }} lh={1.2}>
                  {video.name}
                </Title>
                <Group gap="md" mt={6}>
                  {coach && (
                    <Group gap={4} c="dimmed">
                      <IconUser size={16} />
                      <Text size="sm" fw={600}>
                        {coach}
                      </Text>
                    </Group>
                  )}
                  <Group gap={4} c="dimmed">
                    <IconClock size={16} />
                    <Text size="sm">{texts.videos.minutes(video.duration)}</Text>
                  </Group>
                  {video.completed && (
                    <Badge color="teal" variant="light" leftSection={<IconCircleCheckFilled size={12} />}>
                      {texts.videos.completedBadge}
                    </Badge>
                  )}
                </Group>
              </div>
              <FavoriteButton favorite={video.favorite === 1} loading={favorite.pendingFor(video.video_id)} onToggle={() => favorite.toggle(video)} size="xl" />
            </Group>
            {video.description && <Text style={{ whiteSpace: 'pre-line' }}>{video.description}</Text>}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Paper withBorder radius="lg" p="lg">
            <Stack gap="md">
              <Button
                fullWidth
                variant={video.completed ? 'light' : 'filled'}
                color="teal"
                leftSection={video.completed ? <IconCircleCheckFilled size={18} /> : <IconCircleCheck size={18} />}
                loading={toggling}
                onClick={() => (video.completed ? uncomplete : complete).mutate({ id: video.video_id })}
              >
                {video.completed ? texts.videos.markUncompleted : texts.videos.markCompleted}
              </Button>
              {video.completed && (
                <Text size="sm" c="teal.8" ta="center">
                  {texts.videos.completedNotice}
                </Text>
              )}
              <Divider />
              <Stack gap={6} align="center">
                <Text size="sm" fw={600} id="video-rating-label">
                  {texts.videos.rateLabel}
                </Text>
                <Rating
                  size="lg"
                  value={video.stars ?? 0}
                  onChange={(stars) => rate.mutate({ video_id: video.video_id, stars })}
                  readOnly={rate.isPending}
                  aria-labelledby="video-rating-label"
                  getSymbolLabel={(value) => texts.videos.starsLabel(value)}
                />
              </Stack>
              {(video.class_type || video.video_type || video.tags.length > 0 || video.programs.length > 0) && <Divider />}
              {video.class_type && <Fact label={texts.videos.classTypeLabel} value={video.class_type.name} />}
              {video.video_type && <Fact label={texts.videos.videoTypeLabel} value={video.video_type.name} />}
              {video.programs.length > 0 && <Fact label={texts.videos.programsLabel} value={video.programs.map((p) => p.name).join(', ')} />}
              {video.tags.length > 0 && (
                <div>
                  <Text size="xs" tt="uppercase" fw={700} c="dimmed" lts="0.05em" mb={6}>
                    {texts.videos.tagsLabel}
                  </Text>
                  <Group gap={6}>
                    {video.tags.map((tag) => (
                      <Badge
                        key={tag.tag_id}
                        component={Link}
                        to={`/mystudio/online?tags=${tag.tag_id}`}
                        variant="light"
                        color={tag.color ?? undefined}
                        radius="sm"
                        style={{ cursor: 'pointer' }}
                      >
                        {tag.name}
                      </Badge>
                    ))}
                  </Group>
                </div>
              )}
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>
    );
  }

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <Stack gap="md">
        {/* The 404 answer carries its own way back; the 412 one leads to the shop. */}
        {!notFound && !purchaseNeeded && <BackLink to={back} />}
        {content}
      </Stack>
    </Container>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <Text size="xs" tt="uppercase" fw={700} c="dimmed" lts="0.05em">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </div>
  );
}
