import { expect, test } from './fixtures.ts';
import { expectNoAxeViolations } from './axe.ts';
import { expectKeyboardOn, expectSignedIn, signIn } from './helpers.ts';
import { addDays, apiLogin, classesBetween, isFull, localDate, openClass, weekStart } from './booking-helpers.ts';

/**
 * axe-core on every page of a customer's account and on the dialogs she opens
 * there, at a phone's size and a desktop's: what she sees once its data has
 * arrived has no violations. The calendar's card states are in
 * accessibility-calendar.spec.ts (on a pinned clock).
 */
const accountPages = [
  '/mystudio/informacion',
  '/mystudio/membresias',
  '/mystudio/pagos',
  '/mystudio/creditos',
  '/mystudio/reservaciones',
  '/mystudio/waitlists',
  '/mystudio/paquetes',
  '/mystudio/online',
];

for (const size of [
  { width: 390, height: 844 },
  { width: 1366, height: 900 },
]) {
  test.describe(`Accesibilidad (axe-core) de la cuenta, a ${size.width}×${size.height}`, () => {
    // axe reads every node of a page, eight pages or three dialogs a test.
    test.describe.configure({ timeout: 180_000 });
    test.beforeEach(async ({ page }) => {
      await signIn(page, 'cliente@estudio.demo');
      await expectSignedIn(page, /Mariana/);
      await page.setViewportSize(size);
    });

    test('every account page has no violations', async ({ page }) => {
      for (const path of accountPages) {
        await page.goto(path);
        await expect(page.getByRole('heading', { level: 1 }).first(), path).toBeVisible();
        await expectNoAxeViolations(page);
      }
    });

    test('the booking, waitlist and cancellation dialogs have no violations while open', async ({ page, request }) => {
      const token = await apiLogin(request, 'cliente@estudio.demo');
      const monday = weekStart(addDays(localDate(new Date()), 7));
      const week = await classesBetween(request, monday, addDays(monday, 6), token);
      await page.goto(`/mystudio?semana=${monday}`);

      await page.locator(`[data-class-id="${openClass(week, 1).single_class_id}"]`).click();
      const booking = page.getByRole('dialog', { name: 'Reservar Clase' });
      await expect(booking.getByRole('button', { name: 'Reservar', exact: true })).toBeVisible();
      await expectNoAxeViolations(page);
      await page.keyboard.press('Escape');
      await expect(booking).toBeHidden();
      await expectKeyboardOn(page.locator(`[data-class-id="${openClass(week, 1).single_class_id}"]`));

      const full = week.find((c) => isFull(c) && c.class_reservations.length === 0 && !c.class_package_id);
      if (full) {
        await page.locator(`[data-class-id="${full.single_class_id}"]`).click();
        const waitlist = page.getByRole('dialog', { name: 'Lista de Espera' });
        await expect(waitlist).toBeVisible();
        await expectNoAxeViolations(page);
        await page.keyboard.press('Escape');
        await expect(waitlist).toBeHidden();
      }

      await page.goto('/mystudio/reservaciones');
      const cancel = page.getByRole('button', { name: /^Cancelar/ }).first();
      if (await cancel.isVisible()) {
        await cancel.click();
        await expect(page.getByRole('dialog')).toBeVisible();
        await expectNoAxeViolations(page);
        await page.keyboard.press('Escape');
        await expect(page.getByRole('dialog')).toBeHidden();
        // The keyboard goes back to the button that opened it, not to the top of the page.
        await expectKeyboardOn(cancel);
      }
    });
  });
}
