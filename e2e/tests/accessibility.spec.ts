import { expect, test, type Page } from '@playwright/test';
import { AxeBuilder } from '@axe-core/playwright';
import { expectSignedIn, signIn } from './helpers.ts';
import { packageId } from './checkout-helpers.ts';

type Violation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/** One line per failing node: rule, impact, selector and axe's own summary of what to fix. */
function readable(violations: Violation[]): string[] {
  return violations.flatMap((v) =>
    v.nodes.map((node) => `${v.id} (${v.impact ?? 'sin impacto'}): ${v.help} — ${node.target.join(' ')} — ${(node.failureSummary ?? '').replace(/\s+/g, ' ')}`),
  );
}

/**
 * Runs axe-core (every rule of its default set: WCAG 2 A/AA and best practices)
 * on the page as it is once its data has arrived, and expects nothing.
 */
async function expectNoAxeViolations(page: Page): Promise<void> {
  // The sections fetch their data after the first paint; axe must see what a visitor sees.
  await page.waitForLoadState('networkidle');
  const { violations } = await new AxeBuilder({ page }).analyze();
  expect(readable(violations), `axe-core en ${page.url()}`).toEqual([]);
}

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

  test("the account's weekly calendar has no violations", async ({ page }) => {
    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await expect(page.getByRole('heading', { name: 'Calendario', level: 1 })).toBeVisible();
    // This week (with its past days dimmed, unless today is Monday), once loaded...
    await expect(page.locator('[data-class-id]').or(page.getByText(/^No hay (más )?clases programadas/)).first()).toBeVisible();
    await expectNoAxeViolations(page);
    // ...and next week, which always has classes in the seed.
    await page.getByRole('button', { name: 'Semana siguiente' }).click();
    // The pointer left on the arrow keeps its tooltip open; axe is about the page, not a hover.
    await page.mouse.move(0, 0);
    await expect(page.getByRole('tooltip')).toHaveCount(0);
    await expect(page).toHaveURL(/semana=/);
    await expect(page.locator('[data-class-id]').first()).toBeVisible();
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
