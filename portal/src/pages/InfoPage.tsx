import { Anchor, Box, Center, Container, Group, Image, Loader, Paper, Text, Title, Typography } from '@mantine/core';
import { Link, useParams } from 'react-router';
import { texts } from '@estudio/core';
import { trpc } from '../api/trpc.ts';
import { errorFacts } from '../api/errors.ts';
import { useAppConfig } from '../config/AppConfigContext.tsx';
import { Footer } from './account/Footer.tsx';
import { NotFound } from './NotFound.tsx';

/** /{slug}: one information page: its title and HTML content (spec "Information page view"). */
export default function InfoPage() {
  const { slug = '' } = useParams();
  const config = useAppConfig();
  const page = trpc.pages.bySlug.useQuery({ slug }, { retry: false, staleTime: 5 * 60_000 });

  if (page.isError) {
    const { status, code } = errorFacts(page.error);
    if (status === 404 || code === 'not-found' || code === 'route-not-found' || code === 'validation') return <NotFound />;
  }

  return (
    <Box mih="100dvh" style={{ display: 'flex', flexDirection: 'column' }} bg="gray.0">
      <Box component="header" bg="var(--mantine-color-body)" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size="lg" h={64}>
          <Group h="100%">
            <Anchor component={Link} to="/" aria-label={config.business_name}>
              {config.navbar_logo ? <Image src={config.navbar_logo} alt={config.business_name} h={40} w="auto" fit="contain" /> : <Text fw={800}>{config.business_name}</Text>}
            </Anchor>
          </Group>
        </Container>
      </Box>
      <Container size="md" py={48} w="100%" style={{ flex: 1 }}>
        {page.isPending ? (
          <Center py={80}>
            <Loader />
          </Center>
        ) : page.isError ? (
          <Text c="red">{texts.pages.loadError}</Text>
        ) : (
          <Paper p={{ base: 'lg', sm: 40 }} radius="lg" withBorder>
            <Title order={1} mb="lg" fz={{ base: 26, sm: 34 }}>
              {page.data.page.title}
            </Title>
            {page.data.page.content?.trim() ? (
              <Typography>
                <div dangerouslySetInnerHTML={{ __html: page.data.page.content }} />
              </Typography>
            ) : (
              <Text c="dimmed">{texts.pages.noContent}</Text>
            )}
          </Paper>
        )}
      </Container>
      <Footer config={config} whatsappPrefix="521" />
    </Box>
  );
}
