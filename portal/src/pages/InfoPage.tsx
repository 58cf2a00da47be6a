import { Center, Container, Loader, Paper, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { texts } from '@estudio/core';
import { trpc } from '../api/trpc.ts';
import { errorFacts } from '../api/errors.ts';
import { SafeHtml } from '../ui/SafeHtml.tsx';
import { PublicLayout } from './public/PublicLayout.tsx';
import { NotFound } from './NotFound.tsx';
import { usePageTitle } from '../ui/usePageTitle.ts';

/** A page's title and its sanitized HTML content, or 'Sin contenido.' (spec "Information page view"). */
export function PageContent({ title, content }: { title: string; content: string | null }) {
  return (
    <Paper p={{ base: 'lg', sm: 40 }} radius="lg" withBorder>
      <Title order={1} mb="lg" fz={{ base: 26, sm: 34 }}>
        {title}
      </Title>
      {content?.trim() ? <SafeHtml html={content} /> : <Text c="dimmed">{texts.pages.noContent}</Text>}
    </Paper>
  );
}

/** /{slug}: one information page with a spinner while it loads. */
export default function InfoPage() {
  const { slug = '' } = useParams();
  const page = trpc.pages.bySlug.useQuery({ slug }, { retry: false, staleTime: 5 * 60_000 });
  usePageTitle(page.data?.page.title);

  if (page.isError) {
    const { status, code } = errorFacts(page.error);
    if (status === 404 || code === 'not-found' || code === 'route-not-found' || code === 'validation') return <NotFound />;
  }

  return (
    <PublicLayout>
      <Container size="md" py={{ base: 'lg', sm: 48 }} w="100%">
        {page.isPending ? (
          <Center py={80}>
            <Loader aria-label="Cargando" />
          </Center>
        ) : page.isError ? (
          <Text c="red">{texts.pages.loadError}</Text>
        ) : (
          <PageContent title={page.data.page.title} content={page.data.page.content} />
        )}
      </Container>
    </PublicLayout>
  );
}
