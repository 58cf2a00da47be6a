import zlib from 'node:zlib';
import { expect, test } from './fixtures.ts';
import { apiLogin } from './desk-processes.ts';
import { adminStudio } from './admin-studio.ts';
import { shoot } from './shots.ts';

/**
 * Points 2 and 3, as the studio's owner uses the desk's admin
 * console (desk:web in Chromium) against its own server: a video put online
 * with its thumbnail uploaded and previewed and a publish date picked on a
 * calendar, seen by the seeded unlimited customer; a text file offered as a
 * thumbnail is refused in Spanish.
 */
const { serverUrl, adminDesk } = adminStudio('admin-videos', 62);

/** A real PNG picture, 160×90, pink. */
function thumbnailPng(): Buffer {
  const [w, h] = [160, 90];
  const raw = Buffer.concat(Array.from({ length: h }, () => Buffer.from([0, ...Array.from({ length: w }, () => [200, 80, 120]).flat()])));
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

test('the owner puts a video online with an uploaded thumbnail and a publish date, and the unlimited customer finds it', async ({ page, request }) => {
  await adminDesk(page);
  await page.getByTestId('admin-nav').getByRole('button', { name: 'Videos', exact: true }).click();
  await expect(page.getByTestId('videos-table')).toBeVisible();
  await page.getByTestId('videos-new').click();
  const form = page.getByTestId('videos-form');
  await form.getByLabel('Nombre').fill('Movilidad de cadera');
  await form.getByLabel('Liga del video (YouTube, Vimeo… o archivo .mp4)').fill('http://vimeo.com/76979871');
  await form.getByLabel('Duración (minutos)').fill('25');
  await form.getByLabel('Etiquetas').click();
  await page.getByRole('option', { name: 'Flexibilidad', exact: true }).click();
  await page.keyboard.press('Escape');

  // A text file is not a picture: refused in Spanish, nothing uploaded.
  await form.getByTestId('videos-thumbnail-image').locator('input[type=file]').setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
  await expect(form.getByText('Ese archivo no es una imagen: usa JPG, PNG, WebP o GIF.')).toBeVisible();
  // A real picture: uploaded to the studio's files and previewed.
  await form.getByTestId('videos-thumbnail-image').locator('input[type=file]').setInputFiles({ name: 'cadera.png', mimeType: 'image/png', buffer: thumbnailPng() });
  const preview = form.getByTestId('videos-thumbnail-preview');
  await expect(preview).toBeVisible();
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
  await expect(form.getByTestId('videos-thumbnail-choose')).toHaveText('Cambiar imagen');

  // The http link is refused under its field; what was typed stays.
  await page.getByTestId('videos-save').click();
  await expect(form.getByText('La liga del video debe empezar con https://.')).toBeVisible();
  await shoot(page, 'admin-videos-form', form);
  await form.getByLabel('Liga del video (YouTube, Vimeo… o archivo .mp4)').fill('https://vimeo.com/76979871');
  await page.getByTestId('videos-save').click();
  await expect(form).toBeHidden();
  const row = page.getByTestId('videos-row').filter({ hasText: 'Movilidad de cadera' });
  await expect(row).toContainText('Publicado');
  await shoot(page, 'admin-videos-list');

  const ilimitado = await apiLogin(request, serverUrl, 'ilimitado@estudio.demo');
  const library = (await (await request.get(`${serverUrl}/api/videos?query=cadera`, { headers: { authorization: `Bearer ${ilimitado}` } })).json()) as { videos: { name: string; thumbnail: string; tags: { name: string }[] }[] };
  const seen = library.videos.find((v) => v.name === 'Movilidad de cadera');
  expect(seen?.thumbnail).toMatch(/^\/files\/[a-z0-9-]+\.png$/);
  expect(seen?.tags.map((t) => t.name)).toEqual(['Flexibilidad']);
  expect((await request.get(`${serverUrl}${seen?.thumbnail}`)).status()).toBe(200);

  // Announced for later: the calendar moves its publish date ahead, and it is 'Próximamente'.
  await row.getByRole('button', { name: 'Editar Movilidad de cadera' }).click();
  await form.getByLabel('Fecha de publicación').click();
  const nextMonth = page.locator('.mantine-DatePickerInput-dropdown button[data-direction="next"], .mantine-Popover-dropdown button[data-direction="next"]').first();
  await nextMonth.click();
  await page.locator('.mantine-Popover-dropdown table button:not([data-outside])', { hasText: /^15$/ }).first().click();
  await page.getByTestId('videos-save').click();
  await expect(form).toBeHidden();
  await expect(row).toContainText('Próximamente');
  const upcoming = (await (await request.get(`${serverUrl}/api/videos/upcoming`, { headers: { authorization: `Bearer ${ilimitado}` } })).json()) as { videos: { name: string }[] };
  expect(upcoming.videos.map((v) => v.name)).toContain('Movilidad de cadera');
});

test("the owner gives a coach a photo (there was no field for it): uploaded, previewed, kept after reopening, and on the coach's record", async ({ page, request }) => {
  await adminDesk(page);
  await page.getByTestId('admin-nav').getByRole('button', { name: 'Coaches', exact: true }).click();
  const first = page.getByTestId('instructors-row').first();
  await expect(first).toBeVisible();
  await first.getByRole('button', { name: /^Editar / }).click();
  const form = page.getByTestId('instructors-form');
  await form.getByTestId('instructors-file_id-image').locator('input[type=file]').setInputFiles({ name: 'coach.png', mimeType: 'image/png', buffer: thumbnailPng() });
  const preview = form.getByTestId('instructors-file_id-preview');
  await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
  await shoot(page, 'admin-coach-photo', form);
  await page.getByTestId('instructors-save').click();
  await expect(form).toBeHidden();

  await first.getByRole('button', { name: /^Editar / }).click();
  await expect.poll(() => form.getByTestId('instructors-file_id-preview').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
  await page.keyboard.press('Escape');
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const coaches = (await (await request.get(`${serverUrl}/api/instructors`, { headers: { authorization: `Bearer ${admin}` } })).json()) as { instructors: { file: { src: string; type: string } | null }[] };
  expect(coaches.instructors.some((c) => c.file?.type === 'image/png' && /^\/files\/[a-z0-9-]+\.png$/.test(c.file.src))).toBe(true);
});

test('the owner adds a program with its cover and a tag in Videos, and they are what the library lists', async ({ page, request }) => {
  await adminDesk(page);
  await page.getByTestId('admin-nav').getByRole('button', { name: 'Videos', exact: true }).click();
  await page.getByTestId('programs-new').click();
  const program = page.getByTestId('programs-form');
  await program.getByLabel('Nombre').fill('Reto de 7 días');
  await program.getByTestId('programs-image-image').locator('input[type=file]').setInputFiles({ name: 'reto.png', mimeType: 'image/png', buffer: thumbnailPng() });
  await expect.poll(() => program.getByTestId('programs-image-preview').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(160);
  await page.getByTestId('programs-save').click();
  await expect(program).toBeHidden();
  await expect(page.getByTestId('programs-row').filter({ hasText: 'Reto de 7 días' })).toBeVisible();

  await page.getByTestId('tags-new').click();
  const tag = page.getByTestId('tags-form');
  await tag.getByLabel('Nombre').fill('Para viajar');
  await tag.getByLabel('Color (#RRGGBB)').fill('rojo');
  await page.getByTestId('tags-save').click();
  await expect(tag.getByText('El color debe tener el formato #RRGGBB.')).toBeVisible();
  await tag.getByLabel('Color (#RRGGBB)').fill('#E64980');
  await page.getByTestId('tags-save').click();
  await expect(tag).toBeHidden();
  await shoot(page, 'admin-videos-programs-tags', page.getByTestId('tags-table'));

  const programs = (await (await request.get(`${serverUrl}/api/programs`)).json()) as { programs: { name: string; image: string | null }[] };
  expect(programs.programs.find((p) => p.name === 'Reto de 7 días')?.image).toMatch(/^\/files\/[a-z0-9-]+\.png$/);
  const tags = (await (await request.get(`${serverUrl}/api/tags?type=video`)).json()) as { tags: { name: string; color: string | null }[] };
  expect(tags.tags.find((t) => t.name === 'Para viajar')?.color).toBe('#E64980');
});
