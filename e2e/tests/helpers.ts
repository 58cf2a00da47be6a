import { expect, type Locator, type Page } from './fixtures.ts';

export const demoPassword = 'Demo1234!';

/** Signs in through the /entrar form. */
export async function signIn(page: Page, email: string, password = demoPassword): Promise<void> {
  await page.goto('/entrar');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
}

/** The desktop user menu button, which carries the customer's name. */
export const userMenu = (page: Page, name: string | RegExp) => page.getByRole('button', { name });

export async function expectSignedIn(page: Page, name: string | RegExp): Promise<void> {
  await expect(page).toHaveURL(/\/mystudio$/);
  await expect(userMenu(page, name)).toBeVisible();
}

/**
 * The keyboard is on this element (document.activeElement), whether or not the browser window itself has the focus:
 * toBeFocused also asks the window, which another page of the run (axe's) may hold for a moment.
 */
export async function expectKeyboardOn(target: Locator): Promise<void> {
  await expect.poll(() => target.evaluate((element) => element === document.activeElement), { timeout: 10_000 }).toBe(true);
}
