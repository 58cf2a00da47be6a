import { useState } from 'react';
import { Center, Image, type MantineRadius } from '@mantine/core';
import { IconTicket } from '@tabler/icons-react';

/**
 * A package's picture. A missing or broken image (an admin may leave the
 * field empty or point at a file that is gone) becomes a tinted panel in the
 * studio's colour rather than a broken-image icon.
 */
export function PackageImage({ src, h, radius }: { src: string | null; h: number; radius?: MantineRadius }) {
  const [failed, setFailed] = useState(false);
  if (!src || failed)
    return (
      <Center h={h} bg="var(--mantine-primary-color-light)" c="var(--mantine-primary-color-light-color)" style={{ borderRadius: radius ? `var(--mantine-radius-${radius})` : undefined }}>
        <IconTicket size={40} stroke={1.3} />
      </Center>
    );
  return <Image src={src} alt="" h={h} fit="cover" radius={radius} onError={() => setFailed(true)} />;
}
