import { AspectRatio, Center, Stack, Text } from '@mantine/core';
import { IconPlayerPlay } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { playerSource } from './format.ts';

/** The video itself: the third-party player in an iframe, or a direct file in a <video> element. */
export function VideoPlayer({ url, name, poster }: { url: string; name: string; poster?: string | null }) {
  const source = playerSource(url);
  return (
    <AspectRatio ratio={16 / 9} bg="dark.9" style={{ borderRadius: 'var(--mantine-radius-lg)', overflow: 'hidden' }}>
      {source?.kind === 'iframe' ? (
        <iframe src={source.src} title={texts.videos.playerTitle(name)} allow="fullscreen; picture-in-picture" allowFullScreen style={{ border: 0, display: 'block' }} />
      ) : source?.kind === 'file' ? (
        <video src={source.src} poster={poster ?? undefined} controls playsInline preload="metadata" style={{ display: 'block' }} aria-label={texts.videos.playerTitle(name)} />
      ) : (
        <Center>
          <Stack align="center" gap="xs" c="gray.4">
            <IconPlayerPlay size={48} stroke={1.3} />
            <Text size="sm">{name}</Text>
          </Stack>
        </Center>
      )}
    </AspectRatio>
  );
}
