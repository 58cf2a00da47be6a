import { expect, test } from './fixtures.ts';
import { expectSignedIn, signIn } from './helpers.ts';

test('/mystudio signed out shows Accediendo, then /entrar', async ({ page }) => {
  await page.goto('/mystudio');
  await expect(page.getByText('Accediendo')).toBeVisible();
  await expect(page).toHaveURL(/\/entrar$/);
  await expect(page.getByRole('heading', { name: 'Entrar Ahora' })).toBeVisible();
});

test('nuevo@ accepts the required terms, then is asked to complete the profile in place', async ({ page }) => {
  await signIn(page, 'nuevo@estudio.demo');
  await expectSignedIn(page, /Diego/);

  const terms = page.getByRole('dialog', { name: 'Términos y condiciones' });
  await expect(terms).toBeVisible();
  await terms.getByRole('button', { name: 'Aceptar' }).click();
  await expect(terms.getByText(/^Debes aceptar .+ para continuar$/)).toBeVisible();
  await terms.getByRole('checkbox', { name: /^Acepto / }).check();
  await terms.getByRole('button', { name: 'Aceptar' }).click();
  // Then the privacy notice, required too (Mexico's law).
  const notice = page.getByRole('dialog', { name: 'Aviso de privacidad' });
  await expect(notice).toBeVisible();
  await notice.getByRole('checkbox', { name: 'Acepto Aviso de privacidad' }).check();
  await notice.getByRole('button', { name: 'Aceptar' }).click();

  const complete = page.getByRole('dialog', { name: 'Completar Información' });
  await expect(complete).toBeVisible();
  await expect(complete.getByText('Debes completar tu información personal antes de reservar clases.')).toBeVisible();
  // What is missing is asked in place (decision 087): sent empty, each missing field says so and nothing is saved.
  await complete.getByRole('button', { name: 'Completar Información' }).click();
  await expect(complete.getByText('Debes llenar este campo.')).toHaveCount(2);
  await expect(complete.getByRole('textbox', { name: 'Teléfono', exact: true })).toBeVisible();
  await expect(complete.getByRole('textbox', { name: 'Fecha de nacimiento', exact: true })).toBeVisible();
  // Mi Información is never covered by it: she can complete her profile there too.
  await page.goto('/mystudio/informacion');
  await expect(page.getByRole('heading', { level: 1, name: 'Mi Información' })).toBeVisible();
  await expect(complete).toHaveCount(0);
});

test('the account layout shows the banner, the navigation and the footer', async ({ page }) => {
  await signIn(page, 'cliente@estudio.demo');
  await expectSignedIn(page, /Mariana/);
  await expect(page.getByRole('link', { name: /Nuevo! Clases de Barre/ })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Principal' });
  await expect(nav.getByRole('link', { name: 'Presenciales' })).toHaveAttribute('href', '/mystudio');
  await expect(nav.getByRole('link', { name: 'Online' })).toHaveAttribute('href', '/mystudio/online');
  await expect(nav.getByRole('link', { name: 'Paquetes' })).toHaveAttribute('href', '/mystudio/paquetes');
  const footer = page.getByRole('contentinfo');
  await expect(footer.getByRole('heading', { name: 'CONTACTO' })).toBeVisible();
  await expect(footer.getByRole('link', { name: '5512345678' })).toHaveAttribute('href', 'https://wa.me/525512345678');
  await expect(footer.getByRole('heading', { name: 'UBICACIÓN' })).toBeVisible();
  await expect(footer.getByRole('link', { name: 'Avisos' })).toHaveAttribute('href', '/avisos');
  await expect(footer.getByText('Powered by')).toBeVisible();
});

test('the mobile drawer has the menu and the account links', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'cliente@estudio.demo');
  await expect(page).toHaveURL(/\/mystudio$/);
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByText('Menú', { exact: true })).toBeVisible();
  await expect(drawer.getByText('Mi Cuenta', { exact: true })).toBeVisible();
  // Mis Cargos and Mis Créditos too (subscriptions and restricted class types are on in the demo studio).
  for (const item of ['Calendario', 'Online', 'Reservaciones', 'Paquetes', 'Mi Información', 'Mis Compras', 'Mis Cargos', 'Mis Créditos']) {
    await expect(drawer.getByRole('link', { name: item, exact: true })).toBeVisible();
  }
  await drawer.getByRole('button', { name: 'Salir' }).click();
  await expect(page).toHaveURL(/\/entrar$/);
});

test('an unknown route shows the not-found page', async ({ page }) => {
  await page.goto('/esta/ruta/no-existe');
  await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  await expect(page).toHaveTitle('Página no encontrada · Estudio Demo');
  await page.getByRole('link', { name: 'Volver al inicio' }).click();
  // '/' is the public landing.
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('[data-section="hero"]')).toBeVisible();
});

test('each account page titles its browser tab, and the title follows the page', async ({ page }) => {
  await signIn(page, 'cliente@estudio.demo');
  await expect(page).toHaveURL(/\/mystudio$/);
  await expect(page).toHaveTitle('Calendario · Estudio Demo');
  for (const [path, title] of [
    ['/mystudio/informacion', 'Mi Información'],
    ['/mystudio/membresias', 'Mis Compras'],
    ['/mystudio/pagos', 'Mis Cargos'],
    ['/mystudio/creditos', 'Mis Créditos'],
    ['/mystudio/waitlists', 'Mis Listas de Espera'],
    ['/mystudio/online', 'Clases Online'],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveTitle(`${title} · Estudio Demo`);
  }
  // Moving inside the app (no reload) retitles the tab too.
  await page.getByRole('button', { name: /Mariana/ }).click();
  await page.getByRole('menuitem', { name: 'Mi Información' }).click();
  await expect(page).toHaveTitle('Mi Información · Estudio Demo');
  await page.goto('/entrar');
  await expect(page).toHaveTitle(/· Estudio Demo$/);
});
