import { demoPictureWidths } from './demo-pictures.ts';

/**
 * The WebP copies of a picture the portal shows (decision 049), read from its
 * URL alone: an uploaded picture's name lists its widths
 * (`/files/<id>-w320-640-960.jpg`, server/src/services/files/picture-variants.ts),
 * the demo studio's come from demo-pictures.ts. Any other URL (old uploads,
 * external pictures, SVG logos) has none and is shown as it is.
 */
const uploadedPicture = /^(.*\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-w(\d+(?:-\d+)*)\.(?:jpg|png|webp)$/;

export interface PictureVariant {
  width: number;
  url: string;
}

export function pictureVariants(url: string | null | undefined): PictureVariant[] {
  if (!url) return [];
  const uploaded = uploadedPicture.exec(url);
  if (uploaded?.[1] && uploaded[2]) {
    const stem = uploaded[1];
    return uploaded[2].split('-').map((w) => ({ width: Number(w), url: `${stem}-${w}w.webp` }));
  }
  const demo = demoPictureWidths[url];
  if (demo) {
    const stem = url.replace(/\.(jpg|png)$/, '');
    return demo.map((width) => ({ width, url: `${stem}-${width}w.webp` }));
  }
  return [];
}

/** `srcset` of the WebP copies (`a 320w, b 640w`), or undefined when there are none. */
export function webpSrcSet(url: string | null | undefined): string | undefined {
  const variants = pictureVariants(url);
  return variants.length === 0 ? undefined : variants.map((v) => `${v.url} ${v.width}w`).join(', ');
}

/** Mantine's breakpoints (em, 16 px each) and spacing scale (px), as the theme leaves them. */
const breakpoints = { xs: 36, sm: 48, md: 62, lg: 75, xl: 88 } as const;
const spacing = { xs: 10, sm: 12, md: 16, lg: 20, xl: 32 } as const;
type Breakpoint = keyof typeof breakpoints;
type Responsive<T> = T | ({ base: T } & Partial<Record<Breakpoint, T>>);
type Gap = number | keyof typeof spacing;

/** Mantine's Container sizes (max-width, padding included) and its side padding (spacing md). */
export const containerWidths = { xs: 540, sm: 720, md: 960, lg: 1140, xl: 1320 } as const;
const containerPadding = spacing.md;

const px = (gap: Gap) => (typeof gap === 'number' ? gap : spacing[gap]);
function at<T>(value: Responsive<T>, viewport: number): T {
  if (typeof value !== 'object' || value === null || !('base' in value)) return value;
  let chosen = value.base;
  for (const [name, em] of Object.entries(breakpoints) as [Breakpoint, number][]) {
    const here = value[name];
    if (viewport >= em * 16 && here !== undefined) chosen = here;
  }
  return chosen;
}

/**
 * `sizes` for a picture that fills one column of a grid (Mantine SimpleGrid
 * or Grid) inside a Container: what the browser needs to pick a copy before
 * any style is known. `cols` and `gap` as given to the grid; `inset` is
 * padding inside the column (a card's, a paper's), both sides together.
 *
 * gridSizes({ base: 1, xs: 2, md: 4 }, 'lg') at 390 px: calc(100vw - 32px);
 * at 1366 px: 262px.
 */
export function gridSizes(cols: Responsive<number>, gap: Responsive<Gap> = 0, options: { container?: keyof typeof containerWidths; inset?: number } = {}): string {
  const container = containerWidths[options.container ?? 'lg'];
  const inset = options.inset ?? 0;
  // Where the layout changes: each breakpoint the grid names, and where the container stops growing.
  const named = new Set<Breakpoint>();
  for (const value of [cols, gap]) if (typeof value === 'object' && value !== null) for (const key of Object.keys(value)) if (key !== 'base') named.add(key as Breakpoint);
  const points = [...[...named].map((name) => breakpoints[name] * 16), container].sort((a, b) => b - a);
  const entry = (viewport: number) => {
    const n = at(cols, viewport);
    const fixed = 2 * containerPadding + (n - 1) * px(at(gap, viewport)) + n * inset;
    if (viewport >= container) return `${Math.ceil((container - fixed) / n)}px`;
    return n === 1 ? `calc(100vw - ${fixed}px)` : `calc((100vw - ${fixed}px) / ${n})`;
  };
  const rules = [...points.map((point) => ({ point, value: entry(point) })), { point: 0, value: entry(0) }];
  // A rule that says what the next, narrower one says is left out: the narrower one covers both.
  return rules
    .filter((rule, i) => rule.value !== rules[i + 1]?.value)
    .map(({ point, value }) => (point === 0 ? value : `(min-width: ${point % 16 === 0 ? `${point / 16}em` : `${point}px`}) ${value}`))
    .join(', ');
}

/** `sizes` for a picture at most `max` px wide that otherwise fills the container's width. */
export function cappedSizes(max: number): string {
  return `(min-width: ${max + 2 * containerPadding}px) ${max}px, calc(100vw - ${2 * containerPadding}px)`;
}
