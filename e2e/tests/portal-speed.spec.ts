import { expect, test } from './fixtures.ts';
import { openClass, startsAfter, upcomingClasses, weekStart } from './booking-helpers.ts';
import { expectSignedIn, signIn } from './helpers.ts';
import { packageId } from './checkout-helpers.ts';
import { shoot } from './shots.ts';

/**
 * Decision 026: the public pages come from the server rendered with the
 * studio's data, so a phone on 4G paints them before the JavaScript arrives;
 * the browser's first render then takes over without a loader in between.
 */
test.describe('pre-rendered public pages', () => {
  test.describe('without JavaScript', () => {
    test.use({ javaScriptEnabled: false });

    for (const [width, height] of [
      [390, 844],
      [1366, 900],
    ] as const) {
      test(`the landing, /paquetes, /calendario and a checkout show their content at ${width}x${height}`, async ({ page, request }) => {
        await page.setViewportSize({ width, height });
        await page.goto('/');
        await expect(page).toHaveTitle('Estudio Demo');
        await expect(page.getByRole('heading', { level: 1, name: 'Estudio Demo' })).toBeVisible();
        const coaches = page.locator('[data-section="coaches"]');
        await expect(coaches.getByText('Valeria Montes')).toBeVisible();
        for (const photo of await coaches.locator('img').all()) {
          await photo.scrollIntoViewIfNeeded();
          await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
        }
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.screenshot({ path: test.info().outputPath(`landing-nojs-${width}x${height}.png`) });

        await page.goto('/paquetes');
        await expect(page.getByText('10 Clases').first()).toBeVisible();
        await page.screenshot({ path: test.info().outputPath(`paquetes-nojs-${width}x${height}.png`) });

        // A week with classes still to come (on a Sunday night this week's are all over).
        const next = (await upcomingClasses(request)).find((c) => startsAfter(c, 0));
        if (!next) throw new Error('the demo schedule has no class to come');
        await page.goto(`/calendario?semana=${weekStart(next.class_date)}`);
        await expect(page.getByRole('heading', { level: 1, name: 'Horarios' })).toBeVisible();
        await expect(page.locator('[data-class-id]').first()).toBeVisible();
        await page.screenshot({ path: test.info().outputPath(`calendario-nojs-${width}x${height}.png`) });

        // A checkout shows what it sells before any script (decision 036); who pays is the browser's to know.
        await page.goto(`/checkout/${await packageId(request, '5 Clases')}`);
        await expect(page.getByRole('heading', { name: '5 Clases' })).toBeVisible();
        await expect(page.getByText('$800.00')).toBeVisible();
        await expect(page.getByRole('button', { name: 'Crear cuenta' })).toHaveCount(0);
        await page.screenshot({ path: test.info().outputPath(`checkout-nojs-${width}x${height}.png`) });
      });
    }
  });

  test('the browser takes over the landing without a loader, an error or a second request for the configuration', async ({ page }) => {
    const problems: string[] = [];
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(String(error)));
    const configRequests: string[] = [];
    page.on('request', (request) => request.url().includes('/api/appconfig') && configRequests.push(request.url()));
    // Records whether the app's loader ever appeared over the page the server sent.
    await page.addInitScript(() => {
      new MutationObserver(() => {
        if (document.querySelector('[aria-label="Cargando"]')) document.documentElement.dataset.loaderSeen = 'true';
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/');
    await expect(page.getByRole('link', { name: 'Escríbenos por WhatsApp' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1, name: 'Estudio Demo' })).toBeVisible();
    // The app is live: the mobile menu opens (a pre-rendered page alone would not react).
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('button', { name: 'Abrir menú' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.documentElement.dataset.loaderSeen ?? 'false')).toBe('false');
    expect(configRequests).toEqual([]);
    expect(problems).toEqual([]);
    await shoot(page, 'landing');
  });

  test('the browser adopts every pre-rendered page as it is, signed out and signed in: no node built again, no mismatch (decision 043)', async ({ page, request }) => {
    test.setTimeout(180_000);
    const warnings: string[] = [];
    page.on('console', (message) => (message.type() === 'error' || message.text().includes('hidratación')) && warnings.push(`${page.url()}: ${message.text()}`));
    page.on('pageerror', (error) => warnings.push(`${page.url()}: ${String(error)}`));
    // Every element the server sent, taken before the app starts (after the page's load event, decision 036).
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => {
        (window as unknown as { serverNodes: Element[] }).serverNodes = [...document.querySelectorAll('#root *')];
      });
    });
    const next = (await upcomingClasses(request)).find((c) => startsAfter(c, 0));
    if (!next) throw new Error('the demo schedule has no class to come');
    await page.goto('/');
    const coach = await page.locator('a[href^="/coach/"]').first().getAttribute('href');
    const pages = ['/', '/paquetes', `/calendario?semana=${weekStart(next.class_date)}`, `/checkout/${await packageId(request, '5 Clases')}`, '/preguntas-frecuentes', '/ubicacion', '/avisos', coach!];
    const adoption = async () =>
      page.evaluate(() => {
        const nodes = (window as unknown as { serverNodes: Element[] }).serverNodes;
        return { sent: nodes.length, kept: nodes.filter((node) => node.isConnected).length };
      });
    for (const signedIn of [false, true]) {
      if (signedIn) {
        await signIn(page, 'cliente@estudio.demo');
        await expect(page).toHaveURL(/\/mystudio$/);
      }
      // Signed in, the pages where the session changes what is shown: the header, a class's card, who pays.
      // The account's calendar too (decision 059): the server's page is the week a visitor would see.
      for (const path of signedIn ? [...pages.slice(0, 4), '/mystudio'] : pages) {
        await page.goto(path);
        // The landing starts its app when a visitor reaches for it (decision 054): a turn of the wheel.
        if ((await page.evaluate(() => document.documentElement.dataset.app)) === 'on-demand') {
          await page.mouse.wheel(0, 1);
          await page.waitForFunction(() => document.documentElement.dataset.app === 'started', null, { timeout: 15_000 });
        }
        const { sent, kept } = await adoption();
        expect(sent, path).toBeGreaterThan(20);
        // What only the browser knows renders after the hydration (the header of a signed-in customer, a checkout's
        // forms): a few nodes of the server's page give way to it, the page itself stays.
        expect(kept / sent, `${path}${signedIn ? ' (con sesión)' : ''}: ${kept} de ${sent}`).toBeGreaterThan(signedIn ? 0.6 : 0.9);
      }
    }
    expect(warnings).toEqual([]);
  });

  // The landing and the shop ask for no more than the entry until the visitor reaches for the app: landing-on-demand.spec.ts (decision 054).
  test("the calendar's pictures come before the app: only the small entry is asked for before the page's load event (decision 036)", async ({ page }) => {
    await page.goto('/calendario');
    // The page's own clock: when each script was asked for, against the start of its load event.
    const scripts = await page.evaluate(() => {
      const loadAt = performance.getEntriesByType('navigation')[0]!.toJSON().loadEventStart as number;
      return performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => ({ file: new URL(entry.name).pathname, beforeLoad: entry.startTime < loadAt }));
    });
    const early = scripts.filter((s) => s.beforeLoad).map((s) => s.file);
    expect(early).toHaveLength(1);
    expect(early[0]).toMatch(/^\/assets\/index-[\w-]+\.js$/);
    // The app came after the load event and started (the fixture's goto waits for it).
    expect(scripts.some((s) => !s.beforeLoad && /^\/assets\/main-[\w-]+\.js$/.test(s.file))).toBe(true);
    expect(await page.evaluate(() => document.documentElement.dataset.app)).toBe('started');
  });

  test('a tap on a class of the pre-rendered calendar before the app has started is not lost (decision 031)', async ({ page, request }) => {
    // A class anyone could book, in its week (on a Sunday night this week's classes are all over).
    const target = openClass(await upcomingClasses(request), 2, (c) => c.class_type.spot_map === null);
    // The calendar's own chunk arrives 1.5 s late, as on a slow phone: the server's page is on screen, the app is not yet.
    let releaseChunk: () => void = () => undefined;
    const chunkHeld = new Promise<void>((resolve) => (releaseChunk = resolve));
    await page.route(/\/assets\/SchedulePage-[\w-]+\.js$/, async (route) => {
      await chunkHeld;
      await route.continue();
    });
    await page.goto(`/calendario?semana=${weekStart(target.class_date)}`, { waitUntil: 'commit' });
    const card = page.locator(`[data-class-id="${target.single_class_id}"]`);
    await expect(card).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.dataset.app ?? 'not started')).toBe('not started');
    await card.click();
    setTimeout(releaseChunk, 1_500);
    // The app's card got the tap: a visitor is asked to sign in first.
    await expect(page.getByRole('dialog', { name: 'Inicia sesión para reservar' })).toBeVisible({ timeout: 15_000 });
    expect(await page.evaluate(() => document.documentElement.dataset.app)).toBe('started');
  });

  test('a signed-in page still comes with the configuration and its route chunk preloaded', async ({ request }) => {
    const html = await (await request.get('/mystudio/creditos')).text();
    expect(html).toContain('<script type="application/json" id="portal-state">');
    expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/AccountArea-[\w-]+\.js">/);
    expect(html).toMatch(/<link rel="modulepreload" crossorigin href="\/assets\/CreditsPage-[\w-]+\.js">/);
    expect(html).toContain('<div id="root"></div>');
  });

  test("the account's calendar comes rendered: its header and the week before the app, the customer's name after it (decision 059)", async ({ page, request }) => {
    const html = await (await request.get('/mystudio')).text();
    expect(html).toContain('<title>Calendario · Estudio Demo</title>');
    expect(html).toMatch(/data-class-id="\d+"/);
    // Every part of the page inline: no part sent after the page with a script to move it in (the CSP refuses those).
    expect(html).not.toContain('$RC(');
    expect(html).not.toContain('<template id="B:');
    await signIn(page, 'cliente@estudio.demo');
    await expect(page).toHaveURL(/\/mystudio$/);
    // Until the app runs, the server's page: the header with a bar where the name goes, and the week's classes.
    let releaseApp = () => undefined as void;
    const appHeld = new Promise<void>((resolve) => (releaseApp = resolve));
    await page.route(/\/assets\/main-[\w-]+\.js$/, async (route) => {
      await appHeld;
      await route.continue();
    });
    await page.goto('/mystudio', { waitUntil: 'domcontentloaded' });
    await page.waitForLoadState('load');
    await expect(page.getByRole('heading', { level: 1, name: 'Calendario' })).toBeVisible();
    await expect(page.locator('[data-class-id]').first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Mi Cuenta' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.dataset.app ?? 'not started')).not.toBe('started');
    await shoot(page, 'mystudio-before-app');
    releaseApp();
    await expectSignedIn(page, /Mariana/);
    await page.unroute(/\/assets\/main-[\w-]+\.js$/);
  });
});

test("a signed-in customer's checkout does not download the sign-up form's code (decision 036)", async ({ page, request }) => {
  await signIn(page, 'cliente@estudio.demo');
  await expect(page).toHaveURL(/\/mystudio$/);
  const scripts: string[] = [];
  page.on('request', (request) => request.resourceType() === 'script' && scripts.push(new URL(request.url()).pathname));
  await page.goto(`/checkout/${await packageId(request, '5 Clases')}`);
  await expect(page.getByRole('heading', { name: 'Forma de Pago' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Crear cuenta' })).toHaveCount(0);
  expect(scripts.filter((file) => /\/(CheckoutAuth|SignupForm|zod)-[\w-]+\.js$/.test(file))).toEqual([]);
});
