import { Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { ownVideoFilePath, programCreateInput, programUpdateInput, tagCreateInput, tagUpdateInput, texts, videoCreateInput, videoTypeCreateInput, videoTypeUpdateInput, videoUpdateInput, type VideoAdminRow } from '@estudio/core';
import { api } from '../api.ts';
import { CatalogueScreen } from '../catalogue/CatalogueScreen.tsx';

/** Where a video plays from, in the library's list: a file uploaded to the studio (decision 046) or a link's host. */
function VideoSource({ url }: { url: string }) {
  if (ownVideoFilePath.test(url)) return <Text size="sm" data-testid="video-source-file">{texts.adminConsole.videoSourceFile}</Text>;
  let host = '';
  try {
    host = new URL(url).hostname.replace(/^www\./, '');
  } catch {
    host = texts.adminConsole.videoSourceLink;
  }
  return <Text size="sm" c="dimmed">{host}</Text>;
}

const status: Record<VideoAdminRow['status'], { label: string; color: string }> = {
  published: { label: 'Publicado', color: 'teal' },
  upcoming: { label: 'Próximamente', color: 'blue' },
  hidden: { label: 'Oculto', color: 'gray' },
};

/**
 * Videos: the online library as the admin manages it — the
 * player's link, the thumbnail uploaded with its preview, the publish date
 * (before it, 'Próximamente') — and below it the video types, the programs
 * (a series with a cover) and the tags.
 */
export function VideosScreen() {
  const list = api.videos.adminList.useQuery();
  const types = api.videoTypes.list.useQuery();
  const coaches = api.instructors.list.useQuery();
  const tags = api.tags.list.useQuery({ type: 'video' });
  const utils = api.useUtils();
  const done = () => utils.videos.invalidate();
  const create = api.videos.create.useMutation({ onSuccess: done });
  const update = api.videos.update.useMutation({ onSuccess: done });
  const remove = api.videos.remove.useMutation({ onSuccess: done });
  const typesDone = () => utils.videoTypes.invalidate();
  const createType = api.videoTypes.create.useMutation({ onSuccess: typesDone });
  const updateType = api.videoTypes.update.useMutation({ onSuccess: typesDone });
  const removeType = api.videoTypes.remove.useMutation({ onSuccess: typesDone });
  const typeOptions = (types.data?.video_types ?? []).map((v) => ({ value: String(v.video_type_id), label: v.name }));
  const coachOptions = (coaches.data?.instructors ?? []).map((c) => ({ value: String(c.instructor_id), label: `${c.name} ${c.last_name}` }));
  const tagOptions = (tags.data?.tags ?? []).map((g) => ({ value: String(g.tag_id), label: g.name }));
  const typeName = (id: number | null) => types.data?.video_types.find((v) => v.video_type_id === id)?.name ?? '—';
  return (
    <Stack gap="md">
      <CatalogueScreen
        testId="videos"
        rows={list.data?.videos}
        query={list}
        rowId={(r) => r.video_id}
        rowTitle={(r) => r.name}
        searchText={(r) => `${r.name} ${r.description ?? ''}`}
        columns={[
          { label: 'Nombre', render: (r) => r.name },
          { label: 'Tipo', render: (r) => typeName(r.video_type_id) },
          { label: 'Fuente', render: (r) => <VideoSource url={r.url} /> },
          { label: 'Publicación', render: (r) => dayjs(r.release_date).format('D MMM YYYY') },
          // Text, not a Badge: a badge cuts 'Próximamente' to 'PR…' on a phone's width.
          { label: 'Estado', render: (r) => <Text size="sm" fw={600} c={status[r.status].color}>{status[r.status].label}</Text> },
        ]}
        fields={[
          { key: 'name', label: 'Nombre', kind: 'text', required: true },
          { key: 'url', label: 'Liga del video (YouTube, Vimeo… o archivo .mp4)', kind: 'video', required: true },
          { key: 'duration', label: 'Duración (minutos)', kind: 'number', required: true },
          { key: 'release_date', label: 'Fecha de publicación', kind: 'date', omitEmpty: true },
          { key: 'video_type_id', label: 'Tipo de video', kind: 'select', options: typeOptions },
          { key: 'instructor_id', label: 'Coach', kind: 'select', options: coachOptions },
          { key: 'tag_ids', label: 'Etiquetas', kind: 'multiselect', options: tagOptions },
          { key: 'thumbnail', label: 'Miniatura', kind: 'image', optional: true },
          { key: 'description', label: 'Descripción', kind: 'textarea', optional: true },
          { key: 'available', label: 'Visible', kind: 'checkbox' },
        ]}
        blank={{ name: '', url: '', duration: '', release_date: dayjs().format('YYYY-MM-DD'), video_type_id: null, instructor_id: null, tag_ids: [], thumbnail: '', description: '', available: true }}
        toValues={(r) => ({
          name: r.name,
          url: r.url,
          duration: r.duration,
          release_date: dayjs(r.release_date).format('YYYY-MM-DD'),
          video_type_id: r.video_type_id === null ? null : String(r.video_type_id),
          instructor_id: r.instructor_id === null ? null : String(r.instructor_id),
          tag_ids: r.tag_ids.map(String),
          thumbnail: r.thumbnail ?? '',
          description: r.description ?? '',
          available: r.available,
        })}
        createSchema={videoCreateInput}
        updateSchema={videoUpdateInput}
        idKey="video_id"
        create={(input) => create.mutateAsync(input)}
        update={(input) => update.mutateAsync(input)}
        remove={(id) => remove.mutateAsync({ id })}
      />
      <Title order={3}>{texts.adminConsole.videoTypes}</Title>
      <CatalogueScreen
        testId="video-types"
        rows={types.data?.video_types}
        query={types}
        rowId={(r) => r.video_type_id}
        rowTitle={(r) => r.name}
        searchText={(r) => r.name}
        columns={[
          { label: 'Nombre', render: (r) => r.name },
          { label: 'Orden', render: (r) => r.order },
        ]}
        fields={[
          { key: 'name', label: 'Nombre', kind: 'text', required: true },
          { key: 'order', label: 'Orden', kind: 'number' },
          { key: 'description', label: 'Descripción', kind: 'textarea', optional: true },
        ]}
        blank={{ name: '', order: 0, description: '' }}
        toValues={(r) => ({ name: r.name, order: r.order, description: r.description ?? '' })}
        createSchema={videoTypeCreateInput}
        updateSchema={videoTypeUpdateInput}
        idKey="video_type_id"
        create={(input) => createType.mutateAsync(input)}
        update={(input) => updateType.mutateAsync(input)}
        remove={(id) => removeType.mutateAsync({ id })}
      />
      <Title order={3}>{texts.adminConsole.videoPrograms}</Title>
      <ProgramsList videoOptions={(list.data?.videos ?? []).map((v) => ({ value: String(v.video_id), label: v.name }))} />
      <Title order={3}>{texts.adminConsole.videoTags}</Title>
      <TagsList />
    </Stack>
  );
}

/** A program's videos are picked in its form, in the order they are chosen (the route keeps that order). */
function ProgramsList({ videoOptions }: { videoOptions: { value: string; label: string }[] }) {
  const list = api.programs.list.useQuery();
  const utils = api.useUtils();
  const done = () => utils.programs.invalidate();
  const create = api.programs.create.useMutation({ onSuccess: done });
  const update = api.programs.update.useMutation({ onSuccess: done });
  const remove = api.programs.remove.useMutation({ onSuccess: done });
  return (
    <CatalogueScreen
      testId="programs"
      rows={list.data?.programs}
      query={list}
      rowId={(r) => r.program_id}
      rowTitle={(r) => r.name}
      searchText={(r) => `${r.name} ${r.description ?? ''}`}
      columns={[
        { label: 'Nombre', render: (r) => r.name },
        { label: 'Videos', render: (r) => r.video_ids.length },
        { label: 'Visible', render: (r) => (r.available ? texts.adminConsole.yes : texts.adminConsole.no) },
      ]}
      fields={[
        { key: 'name', label: 'Nombre', kind: 'text', required: true },
        { key: 'order', label: 'Orden', kind: 'number' },
        { key: 'image', label: 'Portada', kind: 'image', optional: true },
        { key: 'video_ids', label: 'Videos del programa (en este orden)', kind: 'multiselect', options: videoOptions },
        { key: 'description', label: 'Descripción', kind: 'textarea', optional: true },
        { key: 'available', label: 'Visible', kind: 'checkbox' },
      ]}
      blank={{ name: '', order: 0, image: '', video_ids: [], description: '', available: true }}
      toValues={(r) => ({ name: r.name, order: r.order, image: r.image ?? '', video_ids: r.video_ids.map(String), description: r.description ?? '', available: r.available })}
      createSchema={programCreateInput}
      updateSchema={programUpdateInput}
      idKey="program_id"
      create={(input) => create.mutateAsync(input)}
      update={(input) => update.mutateAsync(input)}
      remove={(id) => remove.mutateAsync({ id })}
    />
  );
}

function TagsList() {
  const list = api.tags.list.useQuery({ type: 'video' });
  const utils = api.useUtils();
  const done = () => utils.tags.invalidate();
  const create = api.tags.create.useMutation({ onSuccess: done });
  const update = api.tags.update.useMutation({ onSuccess: done });
  const remove = api.tags.remove.useMutation({ onSuccess: done });
  return (
    <CatalogueScreen
      testId="tags"
      rows={list.data?.tags}
      query={list}
      rowId={(r) => r.tag_id}
      rowTitle={(r) => r.name}
      searchText={(r) => r.name}
      columns={[
        { label: 'Nombre', render: (r) => r.name },
        { label: 'Color', render: (r) => r.color ?? '—' },
      ]}
      fields={[
        { key: 'name', label: 'Nombre', kind: 'text', required: true },
        { key: 'color', label: 'Color (#RRGGBB)', kind: 'text', optional: true },
      ]}
      blank={{ name: '', color: '' }}
      toValues={(r) => ({ name: r.name, color: r.color ?? '' })}
      createSchema={tagCreateInput}
      updateSchema={tagUpdateInput}
      idKey="tag_id"
      create={(input) => create.mutateAsync(input)}
      update={(input) => update.mutateAsync(input)}
      remove={(id) => remove.mutateAsync({ id })}
    />
  );
}
