import { Image, type ImageProps } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';
import { webpSrcSet } from './image-sources.ts';

export type ResponsiveImageProps = ImageProps &
  Omit<ComponentPropsWithoutRef<'img'>, keyof ImageProps | 'sizes' | 'srcSet'> & {
    src: string;
    alt: string;
    /** The width the picture takes at each screen (gridSizes, cappedSizes in image-sources.ts). */
    sizes: string;
    /**
     * 'high': the page's largest picture above the fold (fetched first); 'eager': above the fold;
     * 'lazy' (default): below it, fetched as the visitor scrolls near.
     */
    priority?: 'high' | 'eager' | 'lazy';
  };

/**
 * A picture at the size it is shown (decision 049): the WebP copy that fits
 * `sizes` and the screen's density, through `<picture>` with the original as
 * the `<img>` (browsers without WebP, pictures without copies). The
 * `<picture>` takes no box of its own (display: contents) and the `<source>`
 * none at all, so the `<img>` lays out, and is styled, exactly as it was
 * without them. Rendered the same on
 * the server and in the browser (nothing here reads the window).
 */
export function ResponsiveImage({ src, sizes, priority = 'lazy', ...props }: ResponsiveImageProps) {
  const srcSet = webpSrcSet(src);
  const image = (
    <Image
      src={src}
      loading={priority === 'lazy' ? 'lazy' : undefined}
      decoding={priority === 'high' ? undefined : 'async'}
      fetchPriority={priority === 'high' ? 'high' : undefined}
      {...props}
    />
  );
  if (!srcSet) return image;
  return (
    <picture style={{ display: 'contents' }}>
      {/* No box either: in a flex parent (Stack, Card) an empty <source> would be an item and take a gap. The browser picks from it all the same. */}
      <source type="image/webp" srcSet={srcSet} sizes={sizes} style={{ display: 'none' }} />
      {image}
    </picture>
  );
}
