import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { expectSignedIn, signIn } from './helpers.ts';
import { apiLogin, bearer } from './booking-helpers.ts';
import { fillSandboxCard, packageId, signUpInline } from './checkout-helpers.ts';

interface ApiVideo {
  video_id: number;
  name: string;
  favorite: 0 | 1;
  completed: boolean;
  stars: number | null;
}

const notification = (page: Page, text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text });

async function videoTag(request: APIRequestContext, name: string): Promise<number> {
  const answer = await request.get('/api/tags', { params: { type: 'video' } });
  expect(answer.ok(), await answer.text()).toBeTruthy();
  const { tags } = (await answer.json()) as { tags: { tag_id: number; name: string }[] };
  const tag = tags.find((t) => t.name === name);
  expect(tag, `video tag ${name}`).toBeDefined();
  return (tag as { tag_id: number }).tag_id;
}

/** Puts a video back to not favourite and not completed for the customer, so the test can run again on the same data. */
async function resetVideo(request: APIRequestContext, token: string, videoId: number): Promise<void> {
  await request.delete(`/api/favorites/${videoId}`, { params: { by: 'video' }, headers: bearer(token) });
  const answer = await request.put(`/api/videos/${videoId}/uncomplete`, { headers: bearer(token) });
  expect(answer.ok(), await answer.text()).toBeTruthy();
}

test.describe('Clases Online', () => {
  test('a member filters by tag, opens a video, marks it favourite and completed', async ({ page, request }) => {
    // ilimitado@ holds the seeded 'Online Mensual'; on a seed without it, a new customer buys the online trial first.
    const seeded = await apiLogin(request, 'ilimitado@estudio.demo');
    const hasAccess = (await request.get('/api/videos', { headers: bearer(seeded) })).status() === 200;
    let token = seeded;
    if (hasAccess) {
      await signIn(page, 'ilimitado@estudio.demo');
      await expectSignedIn(page, /Sofía/);
    } else {
      await page.goto(`/checkout/${await packageId(request, 'Online Mensual')}`);
      const email = await signUpInline(page, 'Lucia');
      await fillSandboxCard(page, '4242 4242 4242 4242');
      await page.getByRole('button', { name: 'Pagar Ahora' }).click();
      await expect(page).toHaveURL(/\/gracias\/\d+$/);
      const login = await request.post('/api/auth/login', { data: { email, password: 'Compra2024' } });
      token = ((await login.json()) as { idToken: string }).idToken;
      await page.goto('/mystudio');
    }

    const relax = await videoTag(request, 'Relajación');
    const tagged = await request.get('/api/videos', { params: { tag_id: relax }, headers: bearer(token) });
    expect(tagged.ok(), await tagged.text()).toBeTruthy();
    const { videos, total } = (await tagged.json()) as { videos: ApiVideo[]; total: number };
    const target = videos.find((v) => v.name === 'Yin yoga para dormir mejor') as ApiVideo;
    expect(target, 'the seed tags Yin yoga with Relajación').toBeDefined();
    await resetVideo(request, token, target.video_id);

    try {
      await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Online' }).click();
      await expect(page).toHaveURL(/\/mystudio\/online$/);
      await expect(page.getByRole('heading', { level: 1, name: 'Clases Online' })).toBeVisible();
      const cards = page.getByTestId('video-grid').locator('article');
      await expect(cards.first()).toBeVisible();

      await page.getByRole('combobox', { name: 'Etiquetas' }).click();
      await page.getByRole('option', { name: 'Relajación' }).click();
      await page.keyboard.press('Escape');
      await expect(page).toHaveURL(new RegExp(`tags=${relax}$`));
      await expect(cards).toHaveCount(total);
      await expect(page.getByTestId('video-count')).toHaveText(total === 1 ? '1 video' : `${total} videos`);

      const card = page.locator(`[data-video-id="${target.video_id}"]`);
      await expect(card.getByRole('button', { name: 'Agregar a favoritos' })).toHaveAttribute('aria-pressed', 'false');
      await card.getByRole('link', { name: 'Yin yoga para dormir mejor' }).click();

      await expect(page).toHaveURL(new RegExp(`/mystudio/video/${target.video_id}$`));
      await expect(page.getByRole('heading', { level: 1, name: 'Yin yoga para dormir mejor' })).toBeVisible();
      await expect(page.locator('iframe[title="Reproductor: Yin yoga para dormir mejor"]')).toHaveAttribute('src', /^https:\/\/player\.vimeo\.com\/video\/\d+/);
      await expect(page.getByRole('link', { name: 'Relajación' })).toBeVisible();

      await page.getByRole('button', { name: 'Agregar a favoritos' }).click();
      await expect(notification(page, '¡Favorito agregado!')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Quitar de favoritos' })).toHaveAttribute('aria-pressed', 'true');

      await page.getByRole('button', { name: 'Marcar como completado' }).click();
      await expect(page.getByRole('button', { name: 'Marcar como no completado' })).toBeVisible();
      await expect(page.getByText('Completaste este video.')).toBeVisible();

      // Rating: the star inputs are visually hidden behind their symbols, so the symbol's label is clicked.
      const fourStars = page.getByRole('radio', { name: '4 estrellas' });
      await page.locator(`label[for="${await fourStars.getAttribute('id')}"]`).click();
      await expect(notification(page, '¡Gracias por tu calificación!')).toBeVisible();
      await expect(fourStars).toBeChecked();

      // Back to the library with the tag filter it had.
      await page.getByRole('link', { name: 'Volver a Clases Online' }).click();
      await expect(page).toHaveURL(new RegExp(`/mystudio/online\\?tags=${relax}$`));
      await expect(cards).toHaveCount(total);
      await expect(card.getByText('Completado', { exact: true })).toBeVisible();
      await expect(card.getByRole('button', { name: 'Quitar de favoritos' })).toHaveAttribute('aria-pressed', 'true');

      // Favoritos view: the tag filter still applies to the customer's favourites.
      await page.getByRole('radiogroup', { name: 'Mostrar' }).getByText('Favoritos', { exact: true }).click();
      await expect(page).toHaveURL(/ver=favoritos/);
      await expect(cards).toHaveCount(1);
      await expect(card).toBeVisible();

      const stored = await request.get(`/api/videos/${target.video_id}`, { headers: bearer(token) });
      const { video } = (await stored.json()) as { video: ApiVideo };
      expect(video.favorite).toBe(1);
      expect(video.completed).toBe(true);
      expect(video.stars).toBe(4);

      await page.goto('/mystudio/video/999999');
      await expect(page.getByText('Lo sentimos, no hemos encontrado este video.')).toBeVisible();
      await expect(page.getByRole('link', { name: 'Volver a Clases Online' }).first()).toHaveAttribute('href', '/mystudio/online');
    } finally {
      await resetVideo(request, token, target.video_id);
    }
  });

  test('a customer without an online membership sees the membership message and the way to the packages', async ({ page, request }) => {
    const token = await apiLogin(request, 'nuevo@estudio.demo');
    expect((await request.get('/api/videos', { headers: bearer(token) })).status()).toBe(412);

    // The blocking modals (required documents, incomplete profile) have their own tests: they are settled through the API,
    // and the profile is put back as seeded at the end.
    const pages = (await (await request.get('/api/pages')).json()) as { pages: { page_id: number; required: boolean }[] };
    const accepted = (await (await request.get('/api/accepted_pages', { headers: bearer(token) })).json()) as { accepted_pages: { page_id: number }[] };
    for (const pending of pages.pages.filter((p) => p.required && !accepted.accepted_pages.some((a) => a.page_id === p.page_id))) {
      const answer = await request.post('/api/accepted_pages', { headers: bearer(token), data: { page_id: pending.page_id } });
      expect(answer.ok(), await answer.text()).toBeTruthy();
    }
    const saved = await request.put('/api/customer', { headers: bearer(token), data: { phone: '5512340099', birthdate: '1996-05-14' } });
    expect(saved.ok()).toBeTruthy();
    try {
      await signIn(page, 'nuevo@estudio.demo');
      await expectSignedIn(page, /Diego/);
      await page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Online' }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Clases Online' })).toBeVisible();
      await expect(page.getByText('Lo sentimos, no cuentas con una membresía activa para clases online')).toBeVisible();
      await expect(page.getByRole('textbox', { name: 'Buscar' })).toHaveCount(0);

      await page.goto('/mystudio/video/1');
      await expect(page.getByText('Lo sentimos, no cuentas con una membresía activa para clases online')).toBeVisible();
      await page.getByRole('link', { name: 'Ver paquetes online' }).click();
      await expect(page).toHaveURL(/\/mystudio\/paquetes$/);
      await expect(page.getByRole('region', { name: 'Paquetes Online' }).getByRole('heading', { name: 'Online Mensual' })).toBeVisible();
    } finally {
      await request.put('/api/customer', { headers: bearer(token), data: { phone: '', birthdate: null } });
    }
  });
});
