import type { ReactNode } from 'react';
import { Center, Container, Loader, Stack, Title } from '@mantine/core';
import { PublicLayout } from './PublicLayout.tsx';

/** A public page with a title; a spinner stands in while `loading`. */
export function PublicPageFrame({ title, loading, size = 'lg', children }: { title?: ReactNode; loading?: boolean; size?: string; children?: ReactNode }) {
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
