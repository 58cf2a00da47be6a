import { Center, Loader, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { texts } from '@estudio/core';

/** A centered loader over the whole viewport, with an optional caption. */
export function LoadingScreen({ caption, children }: { caption?: string; children?: ReactNode }) {
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="sm">
        <Loader size="lg" aria-label={caption ?? texts.shell.loading} />
        {caption && (
          <Text fw={600} size="lg">
            {caption}
          </Text>
        )}
        {children}
      </Stack>
    </Center>
  );
}
