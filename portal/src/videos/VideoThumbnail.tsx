import { useState } from 'react';
import { Center, Image } from '@mantine/core';
import { IconPlayerPlayFilled } from '@tabler/icons-react';

/**
 * A video's picture. A missing or broken thumbnail becomes a panel tinted in
 * the studio's colour with a play mark, never a broken-image icon.
 */
export function VideoThumbnail({ src, h }: { src: string | null; h?: number }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed)
    return (
      <Center h={h ?? '100%'} bg="var(--mantine-primary-color-light)" c="var(--mantine-primary-color-light-color)" data-testid="video-thumbnail-fallback">
        <IconPlayerPlayFilled size={36} style={{ opacity: 0.7 }} />
      </Center>
    );
  return <Image src={src} alt="" h={h ?? '100%'} w="100%" fit="cover" onError={() => setFailed(true)} />;
}
