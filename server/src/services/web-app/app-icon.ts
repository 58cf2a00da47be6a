import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import type { AppConfigMap } from '@estudio/core';

/**
 * The installed app's icon, made from the studio's favicon (an SVG or a
 * picture in the portal's build or among the server's uploads) centred on a
 * white square; a maskable icon keeps it inside the middle 80 % that every
 * phone's mask shows, on the studio's colour. A favicon the server cannot
 * read (an S3 link, a missing file) gives the studio's initial on its colour.
 */
export async function renderAppIcon(
  settings: Pick<AppConfigMap, 'favicon' | 'primary' | 'business_name'>,
  options: { size: number; maskable: boolean; portalDist: string; filesDir: string },
): Promise<Buffer> {
  const { size, maskable } = options;
  const colour = /^#[0-9a-f]{6}$/i.test(settings.primary) ? settings.primary : '#495057';
  const source = await readFavicon(settings.favicon, options);
  const background = maskable ? colour : '#ffffff';
  const inner = Math.round(size * (maskable ? 0.6 : 0.84));
  const logo = source
    ? await sharp(source, { density: 384 }).resize(inner, inner, { fit: 'contain', background: { r: 0, g: 0, b: 0, alpha: 0 } }).png().toBuffer().catch(() => null)
    : null;
  const base = sharp({ create: { width: size, height: size, channels: 4, background } });
  if (logo) return base.composite([{ input: logo, gravity: 'centre' }]).png().toBuffer();
  return sharp(Buffer.from(initialSvg(settings.business_name, colour, size))).png().toBuffer();
}

function initialSvg(name: string, colour: string, size: number): string {
  const letter = (name.trim()[0] ?? 'E').toUpperCase().replace(/[<>&"']/g, '');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 100 100">
  <rect width="100" height="100" fill="${colour}"/>
  <text x="50" y="50" dy="0.35em" text-anchor="middle" font-family="sans-serif" font-weight="700" font-size="52" fill="#ffffff">${letter}</text>
</svg>`;
}

/** The favicon's bytes when it is a file of this server: the portal's build (/demo/…) or the uploads (/files/…). */
async function readFavicon(src: string, folders: { portalDist: string; filesDir: string }): Promise<Buffer | null> {
  const value = src.trim();
  if (!value.startsWith('/') || value.startsWith('//')) return null;
  const [root, rest] = value.startsWith('/files/') ? [folders.filesDir, value.slice('/files/'.length)] : [folders.portalDist, value.slice(1)];
  const file = path.resolve(root, decodeURIComponent(rest.split(/[?#]/)[0] ?? ''));
  // Inside its folder only: a setting never reads another file of the machine.
  if (!file.startsWith(path.resolve(root) + path.sep)) return null;
  return readFile(file).catch(() => null);
}
