import { useState } from 'react';
import { Center, type MantineRadius } from '@mantine/core';
import { IconTicket } from '@tabler/icons-react';
import { ResponsiveImage, type ResponsiveImageProps } from '../ui/ResponsiveImage.tsx';

/**
 * A package's picture. A missing or broken image (an admin may leave the
 * field empty or point at a file that is gone) becomes a tinted panel in the
 * studio's colour rather than a broken-image icon. `sizes` and `priority`
 * as ResponsiveImage's (decision 049).
 */
export function PackageImage({
  src,
  h,
  radius,
  sizes,
  priority,
}: {
  src: string | null;
  h: number;
  radius?: MantineRadius;
  sizes: string;
  priority?: ResponsiveImageProps['priority'];
}) {
  const [failed, setFailed] = useState(false);
  if (!src || failed)
    return (
      <Center h={h} bg="var(--mantine-primary-color-light)" c="var(--mantine-primary-color-light-color)" style={{ borderRadius: radius ? `var(--mantine-radius-${radius})` : undefined }}>
        <IconTicket size={40} stroke={1.3} />
      </Center>
    );
  return <ResponsiveImage src={src} alt="" sizes={sizes} priority={priority} h={h} fit="cover" radius={radius} onError={() => setFailed(true)} />;
}
