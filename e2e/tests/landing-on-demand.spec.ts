import { expect, test, type Page } from './fixtures.ts';
import { apiLogin } from './content-helpers.ts';
import { signIn } from './helpers.ts';
import { shoot } from './shots.ts';

/**
 * Decision 054: the landing (and the shop) is whole as the server sends it, so a visitor
 * downloads the app only when they reach for it: a tap on one of its buttons,
 * a first scroll, touch or key, or the week's calendar coming near the screen.
 * Someone signed in gets the app after the page's load, as on every other page.
 */

/** Every script the page asked for, by path. */
function scriptsOf(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (request) => request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname));
  return scripts;
}

const appState = (page: Page) => page.evaluate(() => document.documentElement.dataset.app ?? 'none');

test.describe('the landing starts its app on demand', () => {
  for (const [width, height] of [
    [390, 844],
    [1366, 900],
  ] as const) {
    test(`a visitor who only looks downloads the small entry alone, at ${width}x${height}`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      const scripts = scriptsOf(page);
      await page.goto('/');
      await page.waitForLoadState('networkidle');
      // A moment more: nothing comes later by itself.
      await page.waitForTimeout(1_000);
      expect(scripts).toHaveLength(1);
      expect(scripts[0]).toMatch(/^\/assets\/index-[\w-]+\.js$/);
      expect(await appState(page)).toBe('on-demand');
      // The page is whole: its sections, pictures and links are there without the app.
      await expect(page.getByRole('heading', { level: 1, name: 'Estudio Demo' })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Ver paquetes' })).toHaveAttribute('href', '/paquetes');
      await page.screenshot({ path: test.info().outputPath(`landing-on-demand-${width}x${height}.png`) });

      // A first scroll starts it, and it adopts the page as it is.
      await page.mouse.wheel(0, 400);
      await expect.poll(() => appState(page), { timeout: 15_000 }).toBe('started');
      expect(scripts.some((file) => /^\/assets\/main-[\w-]+\.js$/.test(file))).toBe(true);
    });
  }

  test('the shop too: its title and cards come from the server, and a card leads to its checkout before any app', async ({ page }) => {
    const scripts = scriptsOf(page);
    await page.goto('/paquetes');
    await page.waitForLoadState('networkidle');
    expect(scripts).toHaveLength(1);
    expect(await appState(page)).toBe('on-demand');
    // The tab's title was the app's to set: the server's page carries it now.
    await expect(page).toHaveTitle('Paquetes · Estudio Demo');
    await page.getByRole('link', { name: 'Comprar 5 Clases' }).click();
    await expect(page).toHaveURL(/\/checkout\/\d+$/);
    await expect(page.getByRole('heading', { name: '5 Clases' })).toBeVisible();
  });

  test("a tap on the phone's menu before the app is there starts it and opens the menu", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/');
    expect(await appState(page)).toBe('on-demand');
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    const menu = page.getByRole('dialog', { name: 'Menú' });
    await expect(menu).toBeVisible({ timeout: 15_000 });
    await expect(menu.getByRole('link', { name: 'Paquetes' })).toBeVisible();
    expect(await appState(page)).toBe('started');
    await shoot(page, 'landing-on-demand-menu', undefined, { fullPage: false });
  });

  test('the week on the landing starts the app as it comes near the screen, and its classes answer a tap', async ({ page }) => {
    await page.goto('/');
    const schedule = page.locator('[data-section="schedule"]');
    await schedule.scrollIntoViewIfNeeded();
    await expect.poll(() => appState(page), { timeout: 15_000 }).toBe('started');
    // A class anyone may book now (not closed, full or started): whatever the hour the run reaches it.
    const card = schedule.locator('[data-class-id][data-state="available"]').first();
    if ((await card.count()) === 0) return void test.info().annotations.push({ type: 'sin clases', description: 'la semana no tiene clases por reservar' });
    await card.click();
    await expect(page.getByRole('dialog', { name: 'Inicia sesión para reservar' })).toBeVisible();
  });

  test('someone signed in gets the app after the load, with their header', async ({ page }) => {
    await signIn(page, 'cliente@estudio.demo');
    await expect(page).toHaveURL(/\/mystudio$/);
    const scripts = scriptsOf(page);
    await page.goto('/');
    expect(await appState(page)).toBe('started');
    expect(scripts.some((file) => /^\/assets\/main-[\w-]+\.js$/.test(file))).toBe(true);
    await expect(page.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Mi Cuenta' })).toBeVisible();
  });

  test("the studio's formatted notices come formatted and sanitized from the server, before any script and after the app", async ({ page, browser, request }) => {
    const admin = await apiLogin(request, 'admin@estudio.demo');
    const headers = { authorization: `Bearer ${admin}` };
    const content =
      '<p>Abrimos una sala <strong>nueva</strong>.</p><p>Detalles en <a href="https://estudio.mx" target="_blank">nuestro sitio</a>.</p>' +
      '<img src="/demo/coaches/valeria.jpg" alt="" onerror="window.__hackeado = 1"><script>window.__hackeado = 2</script>';
    const created = await request.post('/api/announcements', { headers, data: { title: 'Sala nueva', content, available: true } });
    expect(created.ok(), await created.text()).toBe(true);
    const { announcement } = (await created.json()) as { announcement: { announcement_id: number } };
    try {
      const checkNotice = async (on: Page) => {
        const notice = on.locator('[data-section="announcements"] .mantine-Card-root', { hasText: 'Sala nueva' });
        await expect(notice.locator('strong')).toHaveText('nueva');
        await expect(notice.locator('.mantine-Typography-root p')).toHaveCount(2);
        await expect(notice.getByRole('link', { name: 'nuestro sitio' })).toHaveAttribute('rel', 'noopener noreferrer');
        expect(await notice.locator('script, [onerror]').count()).toBe(0);
      };
      // As the server sends it, with no script at all.
      const noScript = await browser.newContext({ javaScriptEnabled: false, baseURL: test.info().project.use.baseURL });
      const bare = await noScript.newPage();
      await bare.goto('/');
      await checkNotice(bare);
      await noScript.close();

      // Chromium reports the payload's handler against the page's policy as soon as a parser reads it, even the inert
      // document DOMPurify parses into before removing it: that report is the policy at work, not a defect.
      const warnings: string[] = [];
      page.on(
        'console',
        (message) =>
          (message.type() === 'error' || message.text().includes('hidratación')) &&
          !message.text().startsWith('Executing inline event handler violates the following Content Security Policy') &&
          warnings.push(message.text()),
      );
      await page.goto('/');
      expect(await appState(page)).toBe('on-demand');
      await checkNotice(page);
      await page.mouse.wheel(0, 400);
      await expect.poll(() => appState(page), { timeout: 15_000 }).toBe('started');
      await checkNotice(page);
      expect(await page.evaluate(() => (window as unknown as { __hackeado?: number }).__hackeado ?? 0)).toBe(0);
      expect(warnings).toEqual([]);
    } finally {
      await request.delete(`/api/announcements/${announcement.announcement_id}`, { headers });
    }
  });
});
