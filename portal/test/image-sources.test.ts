import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { demoPictureWidths } from '../src/ui/demo-pictures.ts';
import { cappedSizes, gridSizes, pictureVariants, webpSrcSet } from '../src/ui/image-sources.ts';

const id = '0b5d2c4e-8f1a-4b3c-9d2e-1f0a9b8c7d6e';
const publicDir = path.join(import.meta.dirname, '..', 'public');

/** The width `sizes` gives at a viewport, as a browser reads it (first matching condition; calc with vw and px). */
function widthAt(sizes: string, viewport: number): number {
  for (const rule of sizes.split(/,\s*(?![^()]*\))/)) {
    const match = /^\(min-width: ([\d.]+)(em|px)\)\s+(.+)$/.exec(rule.trim());
    const value = match ? match[3] ?? '' : rule.trim();
    if (match && viewport < Number(match[1]) * (match[2] === 'em' ? 16 : 1)) continue;
    const js = value.replace(/^calc/, '').replace(/(\d+(?:\.\d+)?)vw/g, (_, n: string) => String((Number(n) * viewport) / 100)).replace(/px/g, '');
    return Function(`return ${js}`)() as number;
  }
  throw new Error(`no rule for ${viewport}`);
}

describe('the WebP copies of a picture, from its URL', () => {
  it('reads the widths an upload was given from its name, on the server disk and in a bucket', () => {
    expect(pictureVariants(`/files/${id}-w320-640-900.jpg`)).toEqual([
      { width: 320, url: `/files/${id}-320w.webp` },
      { width: 640, url: `/files/${id}-640w.webp` },
      { width: 900, url: `/files/${id}-900w.webp` },
    ]);
    expect(webpSrcSet(`https://estudio.s3.us-east-1.amazonaws.com/${id}-w320-640.png`)).toBe(
      `https://estudio.s3.us-east-1.amazonaws.com/${id}-320w.webp 320w, https://estudio.s3.us-east-1.amazonaws.com/${id}-640w.webp 640w`,
    );
  });

  it('has none for old uploads, other sites, GIFs, logos and empty fields: the original is shown', () => {
    for (const url of [`/files/${id}.jpg`, 'https://example.com/foto-w320.jpg', `/files/${id}-w320.gif`, '/demo/logo.svg', '', null, undefined]) {
      expect(pictureVariants(url)).toEqual([]);
      expect(webpSrcSet(url)).toBeUndefined();
    }
  });

  it("knows the demo studio's copies, and each one is in portal/public", () => {
    expect(webpSrcSet('/demo/hero.jpg')).toBe('/demo/hero-320w.webp 320w, /demo/hero-640w.webp 640w, /demo/hero-960w.webp 960w, /demo/hero-1600w.webp 1600w');
    for (const url of Object.keys(demoPictureWidths)) {
      expect(existsSync(path.join(publicDir, url)), url).toBe(true);
      for (const variant of pictureVariants(url)) expect(existsSync(path.join(publicDir, variant.url)), variant.url).toBe(true);
    }
    // And no copy is left without its entry (a renamed picture's old copies).
    const copies = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? copies(path.join(dir, e.name)) : /-\d+w\.webp$/.test(e.name) ? [path.join(dir, e.name)] : []));
    const listed = new Set(Object.keys(demoPictureWidths).flatMap((url) => pictureVariants(url).map((v) => path.join(publicDir, v.url))));
    expect(copies(path.join(publicDir, 'demo')).filter((file) => !listed.has(file))).toEqual([]);
  });
});

describe('sizes: the width a picture takes at each screen', () => {
  it('a card grid inside the large container, at a phone (390) and a laptop (1366)', () => {
    // The landing's class types: one column, two from xs, four from md; gap lg (20 px).
    const types = gridSizes({ base: 1, xs: 2, md: 4 }, 'lg');
    expect(types).toBe('(min-width: 1140px) 262px, (min-width: 62em) calc((100vw - 92px) / 4), (min-width: 36em) calc((100vw - 52px) / 2), calc(100vw - 32px)');
    expect(widthAt(types, 390)).toBe(358);
    expect(widthAt(types, 1366)).toBe(262);
    expect(widthAt(types, 800)).toBe(374);
    // The coaches: two columns on a phone with a 12 px gap, five from md with 20 px.
    const coaches = gridSizes({ base: 2, sm: 3, md: 5 }, { base: 'sm', sm: 'lg' });
    expect(widthAt(coaches, 390)).toBe(173);
    expect(widthAt(coaches, 1366)).toBe(206);
  });

  it('a half-width column (about, mission, a checkout) and a capped portrait', () => {
    const half = gridSizes({ base: 1, md: 2 }, { base: 'lg', md: 48 });
    expect(widthAt(half, 390)).toBe(358);
    expect(widthAt(half, 1366)).toBe(530);
    const portrait = cappedSizes(360);
    expect(portrait).toBe('(min-width: 392px) 360px, calc(100vw - 32px)');
    expect(widthAt(portrait, 390)).toBe(358);
    expect(widthAt(portrait, 1366)).toBe(360);
  });

  it('one rule where several breakpoints give the same width', () => {
    expect(gridSizes(1)).toBe('(min-width: 1140px) 1108px, calc(100vw - 32px)');
    expect(gridSizes({ base: 1, xs: 1, lg: 3 }, 'lg')).toBe('(min-width: 75em) 356px, (min-width: 1140px) 1108px, calc(100vw - 32px)');
  });
});
