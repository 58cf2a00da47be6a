import { expect, test, type Page } from './fixtures.ts';
import { signIn } from './helpers.ts';
import { packageId } from './checkout-helpers.ts';
import { shoot } from './shots.ts';

/**
 * The account pages on a phone. Mis Créditos and Mis Cargos
 * were tables cut off at 390 px, the drawer did not reach them, the purchase
 * badge was cut and the card's expiry label wrapped beside the CVC. Every
 * account page works at 360 px wide.
 */

/** True when nothing on the page is wider than the window (no sideways scroll, nothing cut at the edge). */
async function fitsTheWindow(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

/** Elements of the locator whose text is cut (ellipsis or clipped): their content is wider than their box. */
async function cutTexts(page: Page, selector: string): Promise<string[]> {
  return page.locator(selector).evaluateAll((nodes) =>
    nodes.filter((node) => (node as HTMLElement).offsetParent !== null && node.scrollWidth > node.clientWidth + 1).map((node) => node.textContent ?? ''),
  );
}

/** shoot() photographs at both sizes and leaves the window at 1280x720: back to the phone afterwards. */
async function shootOnPhone(page: Page, width: number, name: string, target?: Parameters<typeof shoot>[2], options?: Parameters<typeof shoot>[3]): Promise<void> {
  if (width !== 390) return;
  await shoot(page, name, target, options);
  await page.setViewportSize({ width, height: 844 });
}

for (const width of [360, 390]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height: 844 } });

    test('Mis Créditos and Mis Cargos are cards with every label and amount whole', async ({ page }) => {
      await signIn(page, 'cliente@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);

      await page.goto('/mystudio/creditos');
      await expect(page.getByRole('heading', { name: 'Mis Créditos' })).toBeVisible();
      const credit = page.getByTestId('credit-card').first();
      await expect(credit).toBeVisible();
      await expect(credit.getByText('Expiran en', { exact: true })).toBeVisible();
      await expect(credit.getByText('Tipo de Clase', { exact: true })).toBeVisible();
      await expect(page.getByRole('table')).toHaveCount(0);
      expect(await fitsTheWindow(page)).toBe(true);
      expect(await cutTexts(page, '[data-testid="credit-card"] p, [data-testid="credit-card"] div')).toEqual([]);
      await shootOnPhone(page, width, 'mis-creditos');

      await page.goto('/mystudio/pagos');
      await expect(page.getByRole('heading', { name: 'Mis Cargos' })).toBeVisible();
      const charge = page.getByTestId('charge-card').first();
      await expect(charge).toBeVisible();
      // The whole amount, cents and all ('$1,350.0' was cut before).
      await expect(charge.getByText(/^\$[\d,]+\.\d{2}$/)).toBeVisible();
      await expect(page.getByRole('table')).toHaveCount(0);
      expect(await fitsTheWindow(page)).toBe(true);
      expect(await cutTexts(page, '[data-testid="charge-card"] p, [data-testid="charge-card"] .mantine-Badge-label')).toEqual([]);
      await shootOnPhone(page, width, 'mis-cargos');
    });

    test('the drawer reaches Mis Cargos and Mis Créditos', async ({ page }) => {
      await signIn(page, 'cliente@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);
      for (const [name, path] of [
        ['Mis Cargos', '/mystudio/pagos'],
        ['Mis Créditos', '/mystudio/creditos'],
      ] as const) {
        await page.getByRole('button', { name: 'Abrir menú' }).click();
        const drawer = page.getByRole('dialog');
        await drawer.getByRole('link', { name }).click();
        await expect(page).toHaveURL(new RegExp(`${path}$`));
        await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
      }
      await page.getByRole('button', { name: 'Abrir menú' }).click();
      await expect(page.getByRole('dialog').getByRole('link', { name: 'Mis Compras' })).toBeVisible();
      await shootOnPhone(page, width, 'menu-movil', undefined, { fullPage: false });
    });

    test('Mis Compras shows each status badge whole', async ({ page }) => {
      await signIn(page, 'cliente@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);
      await page.goto('/mystudio/membresias');
      await expect(page.getByTestId('purchase-card').first()).toBeVisible();
      expect(await cutTexts(page, '[data-testid="purchase-card"] .mantine-Badge-label')).toEqual([]);
      expect(await fitsTheWindow(page)).toBe(true);
      await shootOnPhone(page, width, 'mis-compras');
    });

    test('every account page fits the window', async ({ page }) => {
      // Ten pages, each waited on until its network is quiet: 45 s is a page's budget, not ten (it ran out on a busy machine).
      test.setTimeout(120_000);
      await signIn(page, 'cliente@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);
      for (const path of ['/mystudio', '/mystudio/reservaciones', '/mystudio/creditos', '/mystudio/waitlists', '/mystudio/paquetes', '/mystudio/membresias', '/mystudio/pagos', '/mystudio/metodos', '/mystudio/informacion', '/mystudio/online']) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
        // Lists load after the heading; wait for the network to settle before measuring.
        await page.waitForLoadState('networkidle');
        expect(await fitsTheWindow(page), path).toBe(true);
      }
    });

    test("the card's expiry and CVC are never misaligned: each label on one line, side by side or stacked", async ({ page, request }) => {
      const id = await packageId(request, '1 Clase');
      await signIn(page, 'cliente@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);
      await page.goto(`/checkout/${id}`);
      await page.getByRole('radio', { name: /^(Tarjeta|Nueva tarjeta)$/ }).check();
      const expiry = page.getByLabel('Vencimiento (MM/AA)');
      const cvc = page.getByLabel('CVC');
      await expect(expiry).toBeVisible();
      for (const name of ['Vencimiento (MM/AA)', 'CVC']) {
        const label = page.locator('label', { hasText: name });
        const lineHeight = await label.evaluate((node) => parseFloat(getComputedStyle(node).lineHeight));
        expect((await label.boundingBox())?.height ?? 0, name).toBeLessThan(lineHeight * 1.5);
      }
      const [a, b] = [await expiry.boundingBox(), await cvc.boundingBox()];
      if (!a || !b) throw new Error('the card fields have no box');
      // Side by side: the same line. Stacked: the CVC wholly below the expiry.
      expect(Math.abs(a.y - b.y) <= 1 || b.y >= a.y + a.height).toBe(true);
      expect(await fitsTheWindow(page)).toBe(true);
      await shootOnPhone(page, width, 'checkout-tarjeta', page.getByRole('form', { name: 'Tarjeta' }));
    });
  });
}
