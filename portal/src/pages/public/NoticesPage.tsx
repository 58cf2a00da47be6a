import { SimpleGrid, Text } from '@mantine/core';
import { texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { AnnouncementCard } from './landing/sections.tsx';
import { PublicPageFrame } from './PublicPageFrame.tsx';

/** /avisos: every announcement, or 'No hay avisos por mostrar.'; a failed load shows the spec's content error. */
export default function NoticesPage() {
  const list = trpc.announcements.list.useQuery(undefined, { staleTime: 60_000 });
  const items = (list.data?.announcements ?? []).filter((a) => a.available);
  return (
    <PublicPageFrame title={texts.footer.notices} loading={list.isPending}>
      {list.isError ? (
        <Text c="red">{texts.pages.loadError}</Text>
      ) : items.length === 0 ? (
        <Text c="dimmed">{texts.pages.noNotices}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
          {items.map((item) => (
            <AnnouncementCard key={item.announcement_id} title={item.title} content={item.content} image={item.file?.src ?? null} />
          ))}
        </SimpleGrid>
      )}
    </PublicPageFrame>
  );
}
