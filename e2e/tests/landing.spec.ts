import { expect, test, type Locator, type Page } from './fixtures.ts';
import { apiLogin, readConfig, writeConfig } from './content-helpers.ts';
import { shoot } from './shots.ts';

const sectionKeys = ['hero', 'about', 'mission', 'class_types', 'coaches', 'packages', 'announcements', 'schedule'] as const;

/** The landing's rendered sections, top to bottom. */
async function renderedSections(page: Page): Promise<string[]> {
  await expect(page.locator('[data-section="hero"]')).toBeVisible();
  return page.locator('[data-section]').evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-section') ?? ''));
}

test.describe('Landing', () => {
  test('shows its enabled sections in the configured order', async ({ page, request }) => {
    const admin = await apiLogin(request, 'admin@estudio.demo');
    const before = await readConfig(request);
    const keys = sectionKeys.flatMap((key) => [`${key}_enabled`, `${key}_order`]);
    const original = Object.fromEntries(keys.map((key) => [key, before[key] ?? '']));

    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: before.hero_title })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Coaches' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Clases Presenciales' })).toBeVisible();
    expect(await renderedSections(page)).toEqual(['hero', 'about', 'mission', 'class_types', 'coaches', 'packages', 'announcements', 'schedule']);

    try {
      // Coaches first after the hero, the schedule before the class types, the mission and the notices hidden.
      await writeConfig(request, admin, {
        coaches_order: '2',
        schedule_order: '3',
        about_order: '4',
        class_types_order: '5',
        packages_order: '6',
        mission_enabled: 'false',
        announcements_enabled: 'false',
      });
      await page.reload();
      expect(await renderedSections(page)).toEqual(['hero', 'coaches', 'schedule', 'about', 'class_types', 'packages']);
      await expect(page.getByRole('heading', { name: 'Avisos', exact: true })).toHaveCount(0);
    } finally {
      await writeConfig(request, admin, original);
    }
  });

  test('the navbar, the WhatsApp button (521) and a coach card lead where the spec says', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await expect(nav.getByRole('link', { name: 'Nosotros' })).toHaveAttribute('href', '/#nosotros');
    await expect(nav.getByRole('link', { name: 'Horarios' })).toHaveAttribute('href', '/calendario');
    await expect(nav.getByRole('link', { name: 'Paquetes' })).toHaveAttribute('href', '/paquetes');
    await expect(nav.getByRole('link', { name: 'Ingresar' })).toHaveAttribute('href', '/entrar');
    await expect(page.getByRole('link', { name: 'Escríbenos por WhatsApp' })).toHaveAttribute('href', 'https://wa.me/5215512345678');

    const coaches = page.locator('[data-section="coaches"]');
    const firstCoach = coaches.getByRole('link').first();
    const name = (await firstCoach.locator('p').first().textContent())?.trim() ?? '';
    await firstCoach.click();
    await expect(page).toHaveURL(/\/coach\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    await page.getByRole('link', { name: /^Entrena con / }).click();
    await expect(page).toHaveURL(/\/instructor\/\d+$/);
    await expect(page.getByRole('heading', { level: 2, name: /^Entrena con / })).toBeVisible();
    // The public API sends a coach's birthday without the year; the page still shows day and month.
    await expect(page.getByLabel('Cumpleaños')).toHaveText(/^\d{1,2} de (enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre)$/);

    await page.goto('/coach/999999');
    await expect(page).toHaveURL(/\/$/);
  });
});

/** Every <img> inside `scope` finished loading a real picture (a missing file is a 404 now, so a broken one shows as naturalWidth 0). */
async function expectPhotosLoaded(scope: Locator, count: number): Promise<void> {
  const images = scope.locator('img');
  await expect(images).toHaveCount(count);
  for (const image of await images.all()) {
    await image.scrollIntoViewIfNeeded();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  }
}

// Every coach showed initials because /demo/coaches/*.jpg did not exist and the server answered the app's HTML.
for (const [width, height] of [
  [390, 844],
  [1366, 900],
] as const) {
  test(`coach photos show on the landing, /coach and /instructor at ${width}x${height}`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/');
    const coaches = page.locator('[data-section="coaches"]');
    await expectPhotosLoaded(coaches, 5);
    await expect(coaches.getByText(/^[A-Z]{2}$/)).toHaveCount(0);
    await expectPhotosLoaded(page.locator('[data-section="class_types"]'), 4);
    await page.screenshot({ path: test.info().outputPath(`landing-coaches-${width}x${height}.png`) });
    await shoot(page, 'landing-coaches', coaches);
    await page.setViewportSize({ width, height });

    await coaches.getByRole('link', { name: /Valeria Montes/ }).click();
    await expect(page).toHaveURL(/\/coach\/\d+$/);
    const portrait = page.getByRole('img', { name: 'Valeria Montes' });
    await expect.poll(() => portrait.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`coach-${width}x${height}.png`), fullPage: true });
    await shoot(page, 'coach');
    await page.setViewportSize({ width, height });

    await page.getByRole('link', { name: /^Entrena con / }).click();
    await expect(page).toHaveURL(/\/instructor\/\d+$/);
    await expect.poll(() => page.getByRole('img', { name: 'Valeria Montes' }).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await page.screenshot({ path: test.info().outputPath(`instructor-${width}x${height}.png`), fullPage: true });
    await shoot(page, 'instructor');
  });
}

test('a missing picture or asset is a 404, an app route is the app', async ({ request }) => {
  for (const url of ['/demo/coaches/nadie.jpg', '/assets/nope-abc123.js', '/robots.txt']) {
    const res = await request.get(url);
    expect(res.status(), url).toBe(404);
    expect(await res.text(), url).not.toContain('id="root"');
  }
  const photo = await request.get('/demo/coaches/valeria.jpg');
  expect(photo.status()).toBe(200);
  expect(photo.headers()['content-type']).toBe('image/jpeg');
  expect((await photo.body()).length).toBeLessThan(40 * 1024);
  const route = await request.get('/coach/1');
  expect(route.status()).toBe(200);
  expect(await route.text()).toContain('id="root"');
});
