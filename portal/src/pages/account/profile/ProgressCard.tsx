import { Badge, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title, Tooltip } from '@mantine/core';
import { IconFlame, IconTrophy } from '@tabler/icons-react';
import { formatCalendarDate, texts } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import classes from './ProgressCard.module.css';

const t = texts.progress;
/** Months shown as bars: half a year fits a phone's width with every label whole. */
const monthsShown = 6;

function Figure({ value, label, icon }: { value: number; label: string; icon?: React.ReactNode }) {
  return (
    <Stack gap={2} align="flex-start">
      <Group gap={6} wrap="nowrap">
        {icon}
        <Text fw={800} fz={28} lh={1}>
          {value}
        </Text>
      </Group>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

/**
 * Mi Información › Tu progreso: the classes she has taken (kept, held and not
 * missed), her streak of weeks with a class, the last months as bars and the
 * milestones reached (core's classProgress, on the studio's calendar).
 */
export function ProgressCard() {
  const answer = trpc.reservations.progress.useQuery(undefined, { staleTime: 60_000 });
  const progress = answer.data?.progress;
  const months = progress?.by_month.slice(-monthsShown) ?? [];
  const highest = Math.max(1, ...months.map((m) => m.classes));

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="progreso-heading">
      <Title order={2} fz="xl" mb="lg" id="progreso-heading">
        {t.heading}
      </Title>
      {!progress ? (
        <Stack gap="sm" aria-busy="true">
          <Skeleton h={56} />
          <Skeleton h={120} />
        </Stack>
      ) : progress.total === 0 ? (
        <Text c="dimmed">{t.none}</Text>
      ) : (
        <Stack gap="xl">
          <SimpleGrid cols={3} spacing="md">
            <Figure value={progress.total} label={t.total(progress.total)} />
            <Figure value={progress.week_streak} label={t.streak(progress.week_streak)} icon={progress.week_streak > 0 ? <IconFlame size={22} color="var(--mantine-color-orange-7)" aria-hidden /> : undefined} />
            <Figure value={progress.best_week_streak} label={t.bestStreak} />
          </SimpleGrid>
          <figure className={classes.chart} aria-labelledby="progreso-meses">
            <Text size="sm" fw={700} id="progreso-meses" mb="xs" component="figcaption">
              {t.byMonth}
            </Text>
            <ol className={classes.bars}>
              {months.map((m) => (
                <li key={m.month} className={classes.bar} aria-label={t.monthLine(m.month, m.classes)}>
                  <Text size="xs" fw={700} aria-hidden>
                    {m.classes}
                  </Text>
                  <span className={classes.fill} style={{ height: `${Math.round((m.classes / highest) * 100)}%` }} aria-hidden />
                  <Text size="xs" c="dimmed" tt="capitalize" aria-hidden>
                    {t.monthShort(m.month)}
                  </Text>
                </li>
              ))}
            </ol>
          </figure>
          <Stack gap="xs">
            <Text size="sm" fw={700}>
              {t.milestones}
            </Text>
            <Group gap="xs">
              {progress.milestones.map((m) => (
                <Tooltip key={m.classes} label={t.reachedOn(formatCalendarDate(m.reached_on))} withArrow>
                  <Badge size="lg" variant="light" color="yellow" leftSection={<IconTrophy size={14} aria-hidden />} tabIndex={0} aria-label={`${t.milestone(m.classes)}, ${t.reachedOn(formatCalendarDate(m.reached_on))}`}>
                    {t.milestone(m.classes)}
                  </Badge>
                </Tooltip>
              ))}
            </Group>
            {progress.next_milestone && (
              <Text size="sm" c="dimmed">
                {t.next(progress.next_milestone.missing, progress.next_milestone.classes)}
              </Text>
            )}
          </Stack>
        </Stack>
      )}
    </Paper>
  );
}
