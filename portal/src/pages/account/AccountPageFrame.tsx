import type { ReactNode } from 'react';
import { Container, Group, Paper, Stack, Title, type MantineSize } from '@mantine/core';
import { usePageTitle } from '../../ui/usePageTitle.ts';

/** The frame of the account's list pages: heading with its actions, then the content on one card; the tab is titled after the heading. */
export function AccountPageFrame({ title, actions, size = 'lg', children }: { title: string; actions?: ReactNode; size?: MantineSize; children: ReactNode }) {
  usePageTitle(title);
  return (
    <Container size={size} py={{ base: 'md', sm: 'xl' }}>
      <Stack gap="lg">
        <Group justify="space-between" align="center">
          <Title order={1} fz={{ base: 28, sm: 34 }}>
            {title}
          </Title>
          {actions}
        </Group>
        <Paper withBorder radius="lg" p={{ base: 'sm', sm: 'lg' }}>
          {children}
        </Paper>
      </Stack>
    </Container>
  );
}
