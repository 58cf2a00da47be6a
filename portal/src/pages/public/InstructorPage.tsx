import { Anchor, Blockquote, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { IconBrandInstagram, IconCake, IconMusic } from '@tabler/icons-react';
import { useParams } from 'react-router';
import { texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorFacts } from '../../api/errors.ts';
import { ScheduleView } from '../../booking/ScheduleView.tsx';
import { NotFound } from '../NotFound.tsx';
import { birthdayDayMonth, fullName, instagramHandle, instagramUrl } from './landing/people.ts';
import { CoachPortrait } from './landing/CoachPortrait.tsx';
import { PublicPageFrame } from './PublicPageFrame.tsx';

/**
 * /instructor/{id}: name, quote, optional instagram, birthday (day and month),
 * music type, short bio, and the instructor's schedule under 'Entrena con {name}'.
 */
export default function InstructorPage() {
  const { instructorId } = useParams();
  const id = Number(instructorId);
  const valid = Number.isInteger(id) && id > 0;
  const query = trpc.instructors.byId.useQuery({ id }, { enabled: valid, retry: false, staleTime: 5 * 60_000 });
  if (!valid || (query.isError && errorFacts(query.error).status === 404)) return <NotFound />;
  if (!query.data) return <PublicPageFrame loading={!query.isError}>{query.isError && <Text c="red">{texts.pages.loadError}</Text>}</PublicPageFrame>;

  const coach = query.data.instructor;
  const birthday = birthdayDayMonth(coach.birthdate);
  const iconProps = { size: 18, stroke: 1.6 } as const;
  return (
    <PublicPageFrame tabTitle={fullName(coach)}>
      <Grid gap="xl" align="center">
        <Grid.Col span={{ base: 12, sm: 4 }}>
          <CoachPortrait coach={coach} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 8 }}>
          <Stack gap="md">
            <Title order={1} fz={{ base: 30, sm: 40 }}>
              {fullName(coach)}
            </Title>
            {coach.quote && (
              <Blockquote p="md" fz="lg" fs="italic">
                {coach.quote}
              </Blockquote>
            )}
            <Group gap="lg">
              {coach.instagram && (
                <Anchor href={instagramUrl(coach.instagram)} target="_blank" rel="noopener noreferrer">
                  <Group gap={6} wrap="nowrap">
                    <IconBrandInstagram {...iconProps} />
                    {instagramHandle(coach.instagram)}
                  </Group>
                </Anchor>
              )}
              {birthday && (
                <Group gap={6} wrap="nowrap" aria-label={texts.landing.birthday}>
                  <IconCake {...iconProps} />
                  <Text>{birthday}</Text>
                </Group>
              )}
              {coach.music_type && (
                <Group gap={6} wrap="nowrap" aria-label={texts.landing.music}>
                  <IconMusic {...iconProps} />
                  <Text>{coach.music_type}</Text>
                </Group>
              )}
            </Group>
            {coach.short_bio && (
              <Text lh={1.7} style={{ whiteSpace: 'pre-line' }}>
                {coach.short_bio}
              </Text>
            )}
          </Stack>
        </Grid.Col>
      </Grid>
      <Stack gap="md" component="section" aria-labelledby="train-with">
        <Title order={2} id="train-with" fz={{ base: 24, sm: 30 }}>
          {texts.landing.trainWith(coach.name)}
        </Title>
        <ScheduleView filter={{ instructor_id: coach.instructor_id }} />
      </Stack>
    </PublicPageFrame>
  );
}
