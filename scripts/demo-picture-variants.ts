// Makes the demo studio's pictures behave as uploaded ones (decision 049):
// WebP copies at the upload's widths beside each JPEG of portal/public/demo
// (`hero.jpg` → `hero-320w.webp` … `hero-1600w.webp`), made by the same
// function the server runs at upload, and the list of widths per picture in
// portal/src/ui/demo-pictures.ts, which the portal reads as an uploaded
// picture's name. Run it after changing a demo picture (scripts/demo-images.ts):
//   npx tsx scripts/demo-picture-variants.ts
// Left out: the social card (never shown on a page) and the video thumbnails
// (640 px, 6–9 KB: a copy would save a few kilobytes per page).
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeVariants } from '../server/src/services/files/picture-variants.ts';

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const demo = path.join(root, 'portal', 'public', 'demo');
const manifest = path.join(root, 'portal', 'src', 'ui', 'demo-pictures.ts');
const skipped = new Set(['social.jpg', 'videos']);

function pictures(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (skipped.has(entry.name)) return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return pictures(full);
    return /\.(jpg|png)$/.test(entry.name) ? [full] : [];
  });
}

const widths: Record<string, number[]> = {};
let originalBytes = 0;
let variantBytes = 0;
for (const file of pictures(demo).sort()) {
  const stem = file.replace(/\.(jpg|png)$/, '');
  // Copies of a previous run whose widths no longer apply.
  const dir = path.dirname(file);
  for (const old of readdirSync(dir)) if (old.startsWith(`${path.basename(stem)}-`) && /-\d+w\.webp$/.test(old)) rmSync(path.join(dir, old));
  const variants = await makeVariants(readFileSync(file));
  for (const variant of variants) writeFileSync(`${stem}-${variant.width}w.webp`, variant.body);
  const url = `/${path.relative(path.join(root, 'portal', 'public'), file).split(path.sep).join('/')}`;
  widths[url] = variants.map((v) => v.width);
  originalBytes += statSync(file).size;
  variantBytes += variants.reduce((total, v) => total + v.body.length, 0);
  console.log(`${url}: ${variants.map((v) => `${v.width}w ${(v.body.length / 1024).toFixed(1)} KB`).join(', ')}`);
}

writeFileSync(
  manifest,
  `// Written by scripts/demo-picture-variants.ts: the widths of the WebP copies beside each demo picture (decision 049).\n` +
    `export const demoPictureWidths: Readonly<Record<string, readonly number[]>> = ${JSON.stringify(widths, null, 2).replace(/"([^"]+)": \[([^\]]*)\]/g, (_, url: string, list: string) => `'${url}': [${list.replace(/\s+/g, ' ').trim()}]`)};\n`,
);
console.log(`originals ${(originalBytes / 1024).toFixed(0)} KB, copies ${(variantBytes / 1024).toFixed(0)} KB`);
