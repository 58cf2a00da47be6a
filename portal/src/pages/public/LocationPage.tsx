import { Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconMapPin } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { trpc } from '../../api/trpc.ts';
import { useAppConfig } from '../../config/AppConfigContext.tsx';
import { PublicPageFrame } from './PublicPageFrame.tsx';

/** /ubicacion: title Ubicación, the configured location and the studio's locations. */
export default function LocationPage() {
  const config = useAppConfig();
  const locations = trpc.locations.list.useQuery({}, { staleTime: 5 * 60_000 });
  const list = locations.data?.locations ?? [];
  return (
    <PublicPageFrame title={texts.landing.location}>
      {config.location && (
        <Group gap="sm" wrap="nowrap" align="flex-start">
          <IconMapPin size={22} stroke={1.6} style={{ flexShrink: 0, marginTop: 2 }} />
          <Text fz="lg">{config.location}</Text>
        </Group>
      )}
      {list.length > 0 && (
        <Stack gap="md">
          <Title order={2} fz="xl">
            {texts.landing.locations}
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            {list.map((location) => (
              <Card key={location.location_id} withBorder radius="lg" padding="lg">
                <Text fw={700} mb={4}>
                  {location.name}
                </Text>
                <Text c="dimmed" size="sm">
                  {location.address}
                </Text>
              </Card>
            ))}
          </SimpleGrid>
        </Stack>
      )}
    </PublicPageFrame>
  );
}
