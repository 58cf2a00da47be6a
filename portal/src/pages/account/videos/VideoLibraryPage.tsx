import { useEffect, useMemo, useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  CloseButton,
  Container,
  EmptyState,
  Grid,
  Group,
  Loader,
  MultiSelect,
  Pagination,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilterOff, IconHeartFilled, IconMovie, IconSearch } from '@tabler/icons-react';
import { keepPreviousData } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { isOn, texts, VIDEO_PAGE_SIZE, type VideoListInput, type VideoOutput } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { useAppConfig } from '../../../config/AppConfigContext.tsx';
import { coachName, isPurchaseNeeded } from '../../../videos/access.ts';
import { PurchaseNeeded } from '../../../videos/PurchaseNeeded.tsx';
import { useFavoriteToggle } from '../../../videos/useVideoActions.ts';
import { VideoCard } from '../../../videos/VideoCard.tsx';
import { usePageTitle } from '../../../ui/usePageTitle.ts';
import { NotFound } from '../../NotFound.tsx';

type View = 'todos' | 'favoritos' | 'completados';

/** Filters live in the address (?q, coach, tipo, tags, ver, pagina) so going back from a video keeps them. */
interface Filters {
  q: string;
  coach: string | null;
  tipo: string | null;
  tags: string[];
  ver: View;
  page: number;
}

function readFilters(params: URLSearchParams): Filters {
  const ver = params.get('ver');
  const page = Number(params.get('pagina'));
  return {
    q: params.get('q') ?? '',
    coach: params.get('coach'),
    tipo: params.get('tipo'),
    tags: (params.get('tags') ?? '').split(',').filter((t) => /^\d+$/.test(t)),
    ver: ver === 'favoritos' || ver === 'completados' ? ver : 'todos',
    page: Number.isInteger(page) && page > 1 ? page : 1,
  };
}

function writeFilters(f: Filters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.q.trim()) params.set('q', f.q.trim());
  if (f.coach) params.set('coach', f.coach);
  if (f.tipo) params.set('tipo', f.tipo);
  if (f.tags.length) params.set('tags', f.tags.join(','));
  if (f.ver !== 'todos') params.set('ver', f.ver);
  if (f.page > 1) params.set('pagina', String(f.page));
  return params;
}

const fold = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The favourites view reads GET /api/favorites (the list endpoint has no
 * favourite filter), so the same filters are applied here to that short list.
 */
function matches(video: VideoOutput, f: Filters): boolean {
  if (f.coach && String(video.instructor?.instructor_id) !== f.coach) return false;
  if (f.tipo && String(video.class_type?.class_type_id) !== f.tipo) return false;
  if (f.tags.length && !video.tags.some((t) => f.tags.includes(String(t.tag_id)))) return false;
  const words = fold(f.q).split(/\s+/).filter(Boolean);
  const haystack = fold(`${video.name} ${video.description ?? ''}`);
  return words.every((w) => haystack.includes(w));
}

/** /mystudio/online: the video library (spec: search, coach, class type and tag filters, notices, 32 a page). */
export default function VideoLibraryPage() {
  const config = useAppConfig();
  usePageTitle(texts.videos.heading);
  const enabled = isOn(config.videos_enabled);
  const [params, setParams] = useSearchParams();
  const filters = readFilters(params);
  const [search, setSearch] = useState(filters.q);
  const [debouncedSearch] = useDebouncedValue(search, 350);

  const update = (changes: Partial<Filters>) => setParams(writeFilters({ ...filters, page: 1, ...changes }), { replace: true });

  // Only a settled search rewrites the address (and goes back to page 1); the other filters are read fresh from it.
  useEffect(() => {
    if (debouncedSearch.trim() !== filters.q) update({ q: debouncedSearch });
  }, [debouncedSearch]);

  const input: VideoListInput = {
    page: filters.page,
    ...(filters.q && { query: filters.q }),
    ...(filters.coach && { instructor_id: Number(filters.coach) }),
    ...(filters.tipo && { class_type_id: Number(filters.tipo) }),
    ...(filters.tags.length > 0 && { tag_id: filters.tags.map(Number) }),
    ...(filters.ver === 'completados' && { completed: 'true' as const }),
  };
  const list = trpc.videos.list.useQuery(input, { enabled: enabled && filters.ver !== 'favoritos', placeholderData: keepPreviousData, retry: false });
  const favorites = trpc.favorites.list.useQuery(undefined, { enabled: enabled && filters.ver === 'favoritos', retry: false });
  const coaches = trpc.instructors.list.useQuery(undefined, { enabled, staleTime: 5 * 60_000 });
  const classTypes = trpc.classTypes.list.useQuery(undefined, { enabled, staleTime: 5 * 60_000 });
  const tags = trpc.tags.list.useQuery({ type: 'video' }, { enabled, staleTime: 5 * 60_000 });
  const favorite = useFavoriteToggle();

  const coachOptions = useMemo(
    () => (coaches.data?.instructors ?? []).map((i) => ({ value: String(i.instructor_id), label: coachName(i) })),
    [coaches.data],
  );
  const classTypeOptions = useMemo(() => (classTypes.data?.class_types ?? []).map((t) => ({ value: String(t.class_type_id), label: t.name })), [classTypes.data]);
  const tagOptions = useMemo(() => (tags.data?.tags ?? []).map((t) => ({ value: String(t.tag_id), label: t.name })), [tags.data]);

  if (!enabled) return <NotFound home="/mystudio" fullHeight={false} />;

  const active = filters.ver === 'favoritos' ? favorites : list;
  const purchaseNeeded = isPurchaseNeeded(list.error) || isPurchaseNeeded(favorites.error);

  let videos: VideoOutput[] = [];
  let total = 0;
  if (filters.ver === 'favoritos') {
    const all = (favorites.data?.favorites ?? []).map((f) => f.video).filter((v) => matches(v, filters));
    total = all.length;
    videos = all.slice((filters.page - 1) * VIDEO_PAGE_SIZE, filters.page * VIDEO_PAGE_SIZE);
  } else if (list.data) {
    videos = list.data.videos;
    total = list.data.total;
  }
  const pages = Math.ceil(total / VIDEO_PAGE_SIZE);
  const favoriteCount = list.data?.favorites ?? favorites.data?.favorites.length;
  const filtered = Boolean(filters.q || filters.coach || filters.tipo || filters.tags.length);

  const clear = () => {
    setSearch('');
    setParams(writeFilters({ ...filters, q: '', coach: null, tipo: null, tags: [], page: 1 }), { replace: true });
  };

  let content: React.ReactNode;
  if (purchaseNeeded) content = <PurchaseNeeded />;
  else if (active.isError && !active.data)
    content = (
      <Alert color="red" variant="light" title={errorMessage(active.error)}>
        <Button variant="light" color="red" size="xs" mt="xs" onClick={() => void active.refetch()}>
          {texts.shell.retry}
        </Button>
      </Alert>
    );
  else if (!active.data)
    content = (
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="lg">
        {[0, 1, 2, 3].map((k) => (
          <Skeleton key={k} h={260} radius="lg" />
        ))}
      </SimpleGrid>
    );
  else if (videos.length === 0)
    content = (
      <EmptyState
        py={56}
        variant="light"
        icon={<IconMovie size={32} stroke={1.5} />}
        title={filtered ? texts.videos.noResults : filters.ver === 'favoritos' ? texts.videos.noFavorites : filters.ver === 'completados' ? texts.videos.noCompleted : texts.videos.empty}
      >
        {filtered && (
          <EmptyState.Actions>
            <Button variant="light" leftSection={<IconFilterOff size={16} />} onClick={clear}>
              {texts.videos.clearFilters}
            </Button>
          </EmptyState.Actions>
        )}
      </EmptyState>
    );
  else
    content = (
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="lg" data-testid="video-grid">
        {videos.map((video) => (
          <VideoCard key={video.video_id} video={video} onToggleFavorite={() => favorite.toggle(video)} favoritePending={favorite.pendingFor(video.video_id)} />
        ))}
      </SimpleGrid>
    );

  return (
    <Container size="lg" py={{ base: 'md', sm: 'xl' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="flex-end" gap="md">
          <div>
            <Title order={1} fz={{ base: 28, sm: 34 }}>
              {texts.videos.heading}
            </Title>
            <Text c="dimmed">{texts.videos.intro}</Text>
          </div>
          {!purchaseNeeded && (
            <SegmentedControl
              aria-label={texts.videos.showLabel}
              radius="xl"
              value={filters.ver}
              onChange={(value) => update({ ver: value as View })}
              data={[
                { value: 'todos', label: texts.videos.showAll },
                {
                  value: 'favoritos',
                  label: (
                    <Group gap={6} wrap="nowrap" justify="center">
                      <IconHeartFilled size={14} color="var(--mantine-color-red-6)" />
                      <span>{texts.videos.showFavorites}</span>
                      {favoriteCount != null && favoriteCount > 0 && (
                        <Badge size="xs" circle color="red" variant="light" aria-label={texts.videos.favoritesCount(favoriteCount)}>
                          {favoriteCount}
                        </Badge>
                      )}
                    </Group>
                  ),
                },
                { value: 'completados', label: texts.videos.showCompleted },
              ]}
            />
          )}
        </Group>

        {!purchaseNeeded && (
          <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'md' }} component="search" aria-label={texts.videos.searchLabel}>
            <Stack gap="sm">
              {/* Phones: search and tags full width, coach and class type side by side. */}
              <Grid gap="sm">
                <Grid.Col span={{ base: 12, md: 3 }}>
                  <TextInput
                    label={texts.videos.searchLabel}
                    placeholder={texts.videos.searchPlaceholder}
                    leftSection={<IconSearch size={16} />}
                    value={search}
                    onChange={(e) => setSearch(e.currentTarget.value)}
                    rightSection={search ? <CloseButton size="sm" aria-label={texts.shell.close} onClick={() => setSearch('')} /> : null}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 6, md: 3 }}>
                  <Select
                    label={texts.videos.coachLabel}
                    placeholder={texts.videos.anyOption}
                    data={coachOptions}
                    value={filters.coach}
                    onChange={(value) => update({ coach: value })}
                    clearable
                    searchable
                    nothingFoundMessage={texts.videos.noResults}
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 6, md: 3 }}>
                  <Select
                    label={texts.videos.classTypeLabel}
                    placeholder={texts.videos.anyOption}
                    data={classTypeOptions}
                    value={filters.tipo}
                    onChange={(value) => update({ tipo: value })}
                    clearable
                  />
                </Grid.Col>
                <Grid.Col span={{ base: 12, md: 3 }}>
                  <MultiSelect
                    label={texts.videos.tagsLabel}
                    placeholder={filters.tags.length ? undefined : texts.videos.anyOption}
                    data={tagOptions}
                    value={filters.tags}
                    onChange={(value) => update({ tags: value })}
                    clearable
                    hidePickedOptions
                  />
                </Grid.Col>
              </Grid>
              <Group justify="space-between" gap="xs">
                <Group gap="xs">
                  {active.data && (
                    <Text size="sm" c="dimmed" aria-live="polite" data-testid="video-count">
                      {texts.videos.resultsCount(total)}
                    </Text>
                  )}
                  {active.isFetching && active.data && <Loader size="xs" aria-hidden />}
                </Group>
                <Button variant="subtle" size="xs" leftSection={<IconFilterOff size={16} />} disabled={!filtered && !search} onClick={clear}>
                  {texts.videos.clearFilters}
                </Button>
              </Group>
            </Stack>
          </Paper>
        )}

        {content}

        {!purchaseNeeded && pages > 1 && (
          <Group justify="center">
            <Pagination total={pages} value={Math.min(filters.page, pages)} onChange={(page) => {
                update({ page });
                window.scrollTo({ top: 0, behavior: 'smooth' });
              }} aria-label={texts.videos.pagination} />
          </Group>
        )}
      </Stack>
    </Container>
  );
}
