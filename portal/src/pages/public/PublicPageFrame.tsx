import type { ReactNode } from 'react';
import { Center, Container, Loader, Stack, Title } from '@mantine/core';
import { PublicLayout } from './PublicLayout.tsx';
import { usePageTitle } from '../../ui/usePageTitle.ts';

/** A public page with a title; a spinner stands in while `loading`. */
export function PublicPageFrame({ title, tabTitle, loading, size = 'lg', children }: { title?: ReactNode; tabTitle?: string; loading?: boolean; size?: string; children?: ReactNode }) {
  // The browser tab reads the page's heading, or tabTitle when the heading is the page's own (a coach's name).
  usePageTitle(tabTitle ?? (typeof title === 'string' ? title : undefined));
  return (
    <PublicLayout>
      <Container size={size} py={{ base: 'lg', sm: 48 }} w="100%">
        {loading ? (
          <Center py={80}>
            <Loader aria-label="Cargando" />
          </Center>
        ) : (
          <Stack gap="xl">
            {title && (
              <Title order={1} fz={{ base: 28, sm: 36 }}>
                {title}
              </Title>
            )}
            {children}
          </Stack>
        )}
      </Container>
    </PublicLayout>
  );
}
