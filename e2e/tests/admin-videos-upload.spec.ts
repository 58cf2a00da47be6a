import { expect, test } from './fixtures.ts';
import { apiLogin } from './desk-processes.ts';
import { adminStudio } from './admin-studio.ts';
import { shoot } from './shots.ts';

/**
 * Decision 046, as the studio's owner uses the desk's admin console (desk:web
 * in Chromium): a video FILE uploaded in the video's form — a text file is
 * refused before sending, the video's progress reaches 100 %, the form plays
 * what was sent and keeps the stored file's address as the video's link, the
 * library lists it as 'Archivo subido', and the server serves it in ranges.
 */
const { serverUrl, adminDesk } = adminStudio('admin-videos-upload', 2);

/** 6 MB that begin as an MP4 (an 'ftyp' box, brand isom): what the server recognises as video/mp4. */
function mp4File(bytes = 6 * 1024 * 1024): Buffer {
  const file = Buffer.alloc(bytes, 7);
  Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex').copy(file);
  return file;
}

test('the owner uploads a video file, sees it sent and playing, and the library lists it', async ({ page, request }) => {
  await adminDesk(page);
  await page.getByTestId('admin-nav').getByRole('button', { name: 'Videos', exact: true }).click();
  await expect(page.getByTestId('videos-table')).toBeVisible();
  await page.getByTestId('videos-new').click();
  const form = page.getByTestId('videos-form');
  await form.getByLabel('Nombre').fill('Barre completa');
  await form.getByLabel('Duración (minutos)').fill('50');
  const upload = form.getByTestId('videos-video-upload');
  await expect(upload).toContainText('Arrastra aquí el video o elígelo (MP4, WEBM o MOV, hasta 2 GB).');
  await expect(form.getByTestId('videos-video-choose')).toHaveText('Subir archivo de video');

  // Not a video: refused in Spanish before anything is sent.
  await upload.locator('input[type=file]').setInputFiles({ name: 'notas.txt', mimeType: 'text/plain', buffer: Buffer.from('hola') });
  await expect(form.getByText('Ese archivo no es un video: usa MP4, WEBM o MOV.')).toBeVisible();

  // A video: the bar reaches 100 % with the bytes sent, then the form plays what was sent.
  await upload.locator('input[type=file]').setInputFiles({ name: 'barre.mp4', mimeType: 'video/mp4', buffer: mp4File() });
  await expect(form.getByTestId('videos-video-progress-text')).toHaveText('100% · 6.3 MB de 6.3 MB', { timeout: 60_000 });
  const url = form.getByLabel('Liga del video (YouTube, Vimeo… o archivo .mp4)');
  await expect(url).toHaveValue(/^\/files\/[0-9a-f-]{36}\.mp4$/);
  const player = form.getByTestId('videos-video-player');
  await expect(player).toBeVisible();
  expect(await player.getAttribute('src')).toMatch(/^blob:/);
  await expect(form.getByTestId('videos-video-stored')).toContainText('Archivo del estudio · 6.3 MB');
  await expect(form.getByTestId('videos-video-choose')).toHaveText('Subir otro archivo');
  await expect(form.getByText('Ese archivo no es un video')).toBeHidden();
  await shoot(page, 'admin-videos-upload-form', form);
  const src = await url.inputValue();

  await page.getByTestId('videos-save').click();
  await expect(form).toBeHidden();
  const row = page.getByTestId('videos-row').filter({ hasText: 'Barre completa' });
  await expect(row).toContainText('Archivo subido');
  await shoot(page, 'admin-videos-upload-list');

  // Stored as sent, served in ranges (the player seeks), and the library's video plays from it.
  const ranged = await request.get(`${serverUrl}${src}`, { headers: { range: 'bytes=0-23' } });
  expect(ranged.status()).toBe(206);
  expect(ranged.headers()['content-range']).toBe(`bytes 0-23/${6 * 1024 * 1024}`);
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const all = (await (await request.get(`${serverUrl}/api/videos/admin/all`, { headers: { authorization: `Bearer ${admin}` } })).json()) as { videos: { name: string; url: string }[] };
  expect(all.videos.find((v) => v.name === 'Barre completa')?.url).toBe(src);

  // Editing it shows the stored file and offers another.
  await row.getByRole('button', { name: 'Editar Barre completa' }).click();
  await expect(form.getByTestId('videos-video-stored')).toContainText('Archivo del estudio');
  await expect(form.getByRole('link', { name: 'Abrir video' })).toHaveAttribute('href', `${serverUrl}${src}`);
});
