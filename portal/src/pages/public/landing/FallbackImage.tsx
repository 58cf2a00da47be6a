import { useState, type ReactNode } from 'react';
import { ResponsiveImage, type ResponsiveImageProps } from '../../../ui/ResponsiveImage.tsx';

/** A picture (at the size shown: ResponsiveImage) that gives way to `fallback` (nothing by default) when it is missing or fails to load. */
export function FallbackImage({ src, alt, fallback = null, ...props }: Omit<ResponsiveImageProps, 'src'> & { src: string | null | undefined; fallback?: ReactNode }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) return <>{fallback}</>;
  return <ResponsiveImage src={src} alt={alt} onError={() => setFailed(src)} {...props} />;
}
