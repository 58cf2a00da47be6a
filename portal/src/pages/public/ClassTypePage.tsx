import { Grid, Stack, Text, Title } from '@mantine/core';
import { useParams } from 'react-router';
import { texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { errorFacts } from '../../api/errors.ts';
import { ScheduleView } from '../../booking/ScheduleView.tsx';
import { NotFound } from '../NotFound.tsx';
import { gridSizes } from '../../ui/image-sources.ts';
import { FallbackImage } from './landing/FallbackImage.tsx';
import { PublicPageFrame } from './PublicPageFrame.tsx';

/** /class_type/{id}: the class type's name, description, image and its upcoming classes. */
export default function ClassTypePage() {
  const { classTypeId } = useParams();
  const id = Number(classTypeId);
  const valid = Number.isInteger(id) && id > 0;
  const query = trpc.classTypes.byId.useQuery({ id }, { enabled: valid, retry: false, staleTime: 5 * 60_000 });
  if (!valid || (query.isError && errorFacts(query.error).status === 404)) return <NotFound />;
  if (!query.data) return <PublicPageFrame loading={!query.isError}>{query.isError && <Text c="red">{texts.pages.loadError}</Text>}</PublicPageFrame>;

  const type = query.data.class_type;
  return (
    <PublicPageFrame tabTitle={type.name}>
      <Grid gap="xl" align="center">
        <Grid.Col span={{ base: 12, md: type.image ? 6 : 12 }}>
          <Stack gap="md">
            <Title order={1} fz={{ base: 30, sm: 40 }}>
              {type.name}
            </Title>
            {type.description && (
              <Text fz="lg" lh={1.7} style={{ whiteSpace: 'pre-line' }}>
                {type.description}
              </Text>
            )}
          </Stack>
        </Grid.Col>
        {type.image && (
          <Grid.Col span={{ base: 12, md: 6 }}>
            <FallbackImage src={type.image} alt={type.name} sizes={gridSizes({ base: 1, md: 2 }, 'xl')} priority="high" radius="lg" mah={360} fit="cover" />
          </Grid.Col>
        )}
      </Grid>
      <Stack gap="md" component="section" aria-labelledby="class-type-schedule">
        <Title order={2} id="class-type-schedule" fz={{ base: 24, sm: 30 }}>
          {texts.landing.upcomingClasses}
        </Title>
        <ScheduleView filter={{ class_type_id: type.class_type_id }} />
      </Stack>
    </PublicPageFrame>
  );
}
