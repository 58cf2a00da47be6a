import { useState, type ReactNode } from 'react';
import { Image, type ImageProps } from '@mantine/core';

/** An image that gives way to `fallback` (nothing by default) when it is missing or fails to load. */
export function FallbackImage({ src, alt, fallback = null, ...props }: ImageProps & { src: string | null | undefined; alt: string; fallback?: ReactNode }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) return <>{fallback}</>;
  return <Image src={src} alt={alt} onError={() => setFailed(src)} {...props} />;
}
