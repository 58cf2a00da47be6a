import { expect, test } from './fixtures.ts';
import { expectNoAxeViolations } from './axe.ts';
import { signIn } from './helpers.ts';
import { packageId } from './checkout-helpers.ts';

// The account's weekly calendar, with every card state, is in accessibility-calendar.spec.ts (on a pinned clock).
test.describe('Accesibilidad (axe-core)', () => {
  test('the landing page has no violations', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Coaches' })).toBeVisible();
    // The schedule section has loaded its week: classes, or the line saying there are none left.
    const schedule = page.locator('[data-section="schedule"]');
    await expect(schedule.locator('[data-class-id]').or(schedule.getByText(/^No hay (más )?clases programadas/)).first()).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('the shop has no violations', async ({ page }) => {
    await page.goto('/paquetes');
    await expect(page.getByRole('heading', { name: 'Paquetes', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Comprar 5 Clases' })).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test('the sign-in page has no violations', async ({ page }) => {
    await page.goto('/entrar');
    await expect(page.getByLabel('Correo electrónico')).toBeVisible();
    await expectNoAxeViolations(page);
  });

  test("a package's checkout, signed in, has no violations", async ({ page, request }) => {
    const id = await packageId(request, '5 Clases');
    await signIn(page, 'cliente@estudio.demo');
    await expect(page).toHaveURL(/\/mystudio$/);
    await page.goto(`/checkout/${id}`);
    await expect(page.getByTestId('checkout-title')).toHaveText('5 Clases');
    await expect(page.getByRole('radio', { name: /Efectivo/ })).toBeChecked();
    await expectNoAxeViolations(page);
  });
});

// The first Tab of a page reaches "Saltar al contenido": shown while focused, it moves the keyboard past the
// header and its menu, so the next Tab is inside the page (on the calendar, toward the first class).
test.describe('Saltar al contenido', () => {
  for (const size of [
    { width: 390, height: 844 },
    { width: 1366, height: 900 },
  ]) {
    test(`the landing and the account calendar start the keyboard with it, at ${size.width}×${size.height}`, async ({ page }) => {
      await page.setViewportSize(size);
      const skip = page.getByRole('link', { name: 'Saltar al contenido' });
      // From the top of a page: the first Tab shows the link, Enter focuses the page, the next Tab is inside it.
      const skipsToTheContent = async (shot: string) => {
        await page.keyboard.press('Tab');
        await expect(skip).toBeFocused();
        await expect(skip).toBeInViewport();
        if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/skip-link-${shot}-${size.width}x${size.height}.png` });
        await page.keyboard.press('Enter');
        await expect(page.getByRole('main')).toBeFocused();
        await page.keyboard.press('Tab');
        expect(await page.evaluate(() => document.activeElement?.closest('main') !== null && document.activeElement !== document.querySelector('main'))).toBe(true);
      };

      await page.goto('/');
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expect(skip).not.toBeInViewport();
      await skipsToTheContent('landing');

      await signIn(page, 'cliente@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);
      await page.goto('/mystudio');
      await expect(page.locator('[data-class-id]').first()).toBeVisible();
      await skipsToTheContent('calendar');
    });
  }
});
