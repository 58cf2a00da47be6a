import sharp from 'sharp';

/**
 * Smaller WebP copies of an uploaded picture, so a page can ask for the one
 * its layout needs (decision 049). The rule of which widths exist and how
 * they are named lives here; the portal reads the same names
 * (portal/src/ui/image-sources.ts) and the demo studio's pictures are made by
 * the same function (scripts/demo-picture-variants.ts).
 *
 * Names: a picture with variants is stored as `<id>-w<widths>.<ext>`
 * (`…-w320-640-960-1600.jpg`), each variant beside it as `<id>-<width>w.webp`.
 * The original's name is the record of which widths exist: it travels in
 * every `src` (the file row, a package's `image`, the app config's
 * `hero_image`), so any page that shows the URL knows its variants without
 * another column or request. A name without `-w…` has none (old uploads,
 * pictures under 320 px, GIFs, pictures that could not be decoded).
 */

/** The widths a page may ask for, in CSS pixels × the screen's density. */
export const variantWidths = [320, 640, 960, 1600] as const;

/** Types that get variants: photos and drawings. GIFs are left alone (often animated). */
export const pictureTypes: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/webp']);

/** Above this many pixels a picture is stored as it is (decoding it would cost more memory than an upload should). */
export const maxPicturePixels = 50_000_000;

/** WebP quality: visually the same as the demo's JPEGs at a third to half their bytes. */
const webpQuality = 78;

/**
 * The widths to make for a picture `width` pixels wide: each standard width
 * narrower than it, and the picture's own width (capped at the largest) so the
 * sharpest copy is WebP too. Never wider than the picture; none below the
 * smallest width (a few kilobytes either way).
 */
export function widthsFor(width: number): number[] {
  if (width < variantWidths[0]) return [];
  const top = Math.min(width, variantWidths[variantWidths.length - 1] ?? width);
  return [...new Set([...variantWidths.filter((w) => w < top), top])];
}

const uuidStem = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const originalKeyPattern = new RegExp(`^(${uuidStem})-w(\\d+(?:-\\d+)*)\\.(jpg|png|webp)$`);

/** The storage key of an original: `<id>.<ext>`, or `<id>-w<widths>.<ext>` when it has variants. */
export function originalKey(id: string, ext: string, widths: readonly number[]): string {
  return widths.length === 0 ? `${id}.${ext}` : `${id}-w${widths.join('-')}.${ext}`;
}

/** The storage key of one variant. */
export function variantKey(id: string, width: number): string {
  return `${id}-${width}w.webp`;
}

/** The variants' keys of a stored original (none for a key without `-w…`). */
export function variantKeysOf(key: string): string[] {
  const match = originalKeyPattern.exec(key);
  if (!match?.[1] || !match[2]) return [];
  const id = match[1];
  return match[2].split('-').map((w) => variantKey(id, Number(w)));
}

export interface PictureVariant {
  width: number;
  body: Buffer;
}

/**
 * The WebP variants of a picture, or none when it cannot be decoded, is
 * animated, too large or narrower than the smallest width: the upload is then
 * stored as it is, as before. Turned upright by its EXIF orientation first
 * (phones' photos), metadata dropped (a phone's GPS position stays in the
 * original only, which the studio chose to publish).
 */
export async function makeVariants(body: Buffer): Promise<PictureVariant[]> {
  try {
    const options = { failOn: 'error', limitInputPixels: maxPicturePixels, autoOrient: true } as const;
    const meta = await sharp(body, options).metadata();
    if ((meta.pages ?? 1) > 1) return [];
    const width = meta.autoOrient?.width ?? meta.width;
    const widths = widthsFor(width);
    const variants: PictureVariant[] = [];
    for (const w of widths) {
      // One at a time: the server's two cores also answer the API meanwhile.
      const data = await sharp(body, options).resize({ width: w, withoutEnlargement: true }).webp({ quality: webpQuality }).toBuffer();
      variants.push({ width: w, body: data });
    }
    return variants;
  } catch {
    return [];
  }
}
