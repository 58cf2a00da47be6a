import { Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { activityDeskText, activityKindNames, refusedActivityKind, refusedActivityKindName, type ActivityKind } from '@estudio/core';
import { dateTimeOf, timeOf } from '../../format.ts';
import type { ApiOutputs } from '../api.ts';
import { Pager } from '../list-widgets.tsx';

type Page = ApiOutputs['activity']['list'];

/** How often the list asks the server again, and on focus: what another desk just did shows without reloading (decision 037). */
export const activityRefreshMs = 5_000;

const kindName = (kind: string) => (kind === refusedActivityKind ? refusedActivityKindName : (activityKindNames[kind as ActivityKind] ?? 'Otro'));

/** One page of Actividad: when, the sentence (who did what to whom, and why), the kind. Cards, so it reads the same on a phone and at the desk. */
export function ActivityEntries({ page, empty, onPage }: { page: Page; empty: string; onPage: (page: number) => void }) {
  if (page.entries.length === 0) {
    return (
      <Text c="dimmed" data-testid="activity-empty">
        {empty}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      {page.entries.map((e) => (
        <Paper
          key={e.id}
          withBorder
          p="sm"
          radius="md"
          data-testid="activity-entry"
          data-kind={e.kind}
          style={e.refused ? { borderColor: 'var(--mantine-color-orange-4)', background: 'var(--mantine-color-orange-0)' } : undefined}
        >
          <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
            <Text size="xs" c="dimmed">
              {dateTimeOf(e.at)}
            </Text>
            <Badge variant="light" size="sm" color={e.refused ? 'orange' : 'gray'}>
              {kindName(e.kind)}
            </Badge>
          </Group>
          <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere' }} data-testid="activity-text">
            {e.text}
          </Text>
          {e.desk && !e.refused && (
            <Text size="xs" c="dimmed" mt={2} data-testid="activity-desk">
              {activityDeskText(e.desk, e.at, timeOf)}
            </Text>
          )}
        </Paper>
      ))}
      <Pager page={page.page} limit={30} total={page.total} onChange={onPage} />
    </Stack>
  );
}

