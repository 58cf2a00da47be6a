import { expect, test } from './fixtures.ts';
import { expectSignedIn, signIn, userMenu } from './helpers.ts';

test.describe('Entrar', () => {
  test('the login screen shows what the spec lists', async ({ page }) => {
    await page.goto('/entrar');
    await expect(page.getByRole('heading', { name: 'Entrar Ahora' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Estudio Demo' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Crea tu cuenta' })).toHaveAttribute('href', '/registro');
    await expect(page.getByRole('link', { name: '¿Olvidaste tu contraseña?' })).toHaveAttribute('href', '/recuperar');
  });

  test('the seeded customer signs in and sees her name in the user menu', async ({ page }) => {
    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await userMenu(page, /Mariana/).click();
    for (const item of ['Mi Información', 'Mis Compras', 'Mis Cargos', 'Mis Créditos', 'Mis Reservaciones', 'Salir']) {
      await expect(page.getByRole('menuitem', { name: item })).toBeVisible();
    }
    // A signed-in visitor of the login screen goes to /mystudio.
    await page.goto('/entrar');
    await expectSignedIn(page, /Mariana/);
  });

  test('a wrong password says so', async ({ page }) => {
    await signIn(page, 'cliente@estudio.demo', 'no-es-la-contraseña');
    await expect(page.getByText('La contraseña es incorrecta. Por favor, intenta de nuevo')).toBeVisible();
    await expect(page).toHaveURL(/\/entrar$/);
  });

  test('an unknown e-mail invites to sign up', async ({ page }) => {
    await signIn(page, `nadie-${Date.now()}@estudio.demo`);
    await expect(page.getByText('Lo sentimos. No encontramos una cuenta con ese correo. ¡Regístrate!')).toBeVisible();
  });

  test('Mostrar/Ocultar toggles the password field', async ({ page }) => {
    await page.goto('/entrar');
    const password = page.getByLabel('Contraseña', { exact: true });
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Mostrar' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Ocultar' }).click();
    await expect(password).toHaveAttribute('type', 'password');
  });

  test('Salir signs out', async ({ page }) => {
    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await userMenu(page, /Mariana/).click();
    await page.getByRole('menuitem', { name: 'Salir' }).click();
    await expect(page).toHaveURL(/\/entrar$/);
    await page.goto('/mystudio');
    await expect(page).toHaveURL(/\/entrar$/);
  });
});
