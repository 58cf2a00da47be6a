import { Button, Grid, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate, useParams } from 'react-router';
import { texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { fullName } from './landing/people.ts';
import { CoachPortrait } from './landing/CoachPortrait.tsx';
import { PublicPageFrame } from './PublicPageFrame.tsx';

/** /coach/{id}: looked up in the home instructor list; an unknown id goes back to '/' (spec). */
export default function CoachPage() {
  const { coachId } = useParams();
  const list = trpc.instructors.home.useQuery(undefined, { staleTime: 5 * 60_000 });
  if (list.isPending) return <PublicPageFrame loading />;
  const coach = list.data?.instructors.find((c) => String(c.instructor_id) === coachId);
  if (!coach) return <Navigate to="/" replace />;
  return (
    <PublicPageFrame size="md" tabTitle={fullName(coach)}>
      <Grid gap="xl" align="center">
        <Grid.Col span={{ base: 12, sm: 5 }}>
          <CoachPortrait coach={coach} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, sm: 7 }}>
          <Stack gap="md">
            <Title order={1} fz={{ base: 30, sm: 38 }}>
              {fullName(coach)}
            </Title>
            {coach.short_bio && (
              <Text fz="lg" lh={1.7} style={{ whiteSpace: 'pre-line' }}>
                {coach.short_bio}
              </Text>
            )}
            <Button component={Link} to={`/instructor/${coach.instructor_id}`} variant="light" w="fit-content">
              {texts.landing.trainWith(coach.name)}
            </Button>
          </Stack>
        </Grid.Col>
      </Grid>
    </PublicPageFrame>
  );
}
