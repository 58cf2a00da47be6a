import { Card, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** One of the Mensajes screen's three panels: a bordered card with its title, an optional line under it, and its content. */
export function Panel({ title, intro, testId, children }: { title: string; intro?: string; testId: string; children: ReactNode }) {
  return (
    <Card withBorder padding="md" data-testid={testId}>
      <Stack gap="sm">
        <div>
          <Title order={3}>{title}</Title>
          {intro && (
            <Text size="sm" c="dimmed">
              {intro}
            </Text>
          )}
        </div>
        {children}
      </Stack>
    </Card>
  );
}
