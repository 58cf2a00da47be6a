import type { ReactNode } from 'react';
import { Box, Card, Group, Stack, Text } from '@mantine/core';

/**
 * One row of an account list as a phone shows it (Mis Créditos and
 * Mis Cargos were tables cut off at 390 px): the title with its badge, which
 * moves under the title rather than being cut, then one line per fact, label
 * left and value right. Desktop keeps the table.
 */
export function RecordCard({ title, badge, facts, children, testId }: { title?: ReactNode; badge?: ReactNode; facts: [label: string, value: ReactNode][]; children?: ReactNode; testId?: string }) {
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId} component="article">
      <Stack gap={6}>
        {(title || badge) && (
          <Group justify="space-between" align="flex-start" gap="xs">
            <Text fw={700} style={{ flex: '1 1 10rem', minWidth: 0, overflowWrap: 'anywhere' }}>
              {title}
            </Text>
            {badge && <Box style={{ flexShrink: 0 }}>{badge}</Box>}
          </Group>
        )}
        {facts.map(([label, value]) => (
          <Group key={label} justify="space-between" gap="xs" wrap="nowrap" align="baseline">
            <Text size="sm" c="dimmed">
              {label}
            </Text>
            <Text component="div" size="sm" fw={600} ta="right" style={{ overflowWrap: 'anywhere' }}>
              {value}
            </Text>
          </Group>
        ))}
        {children}
      </Stack>
    </Card>
  );
}
