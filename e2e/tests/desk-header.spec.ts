import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from './fixtures.ts';
import { demoPassword } from './helpers.ts';
import { apiLogin, deskLink, deskWebProcess, repoRoot, serverProcess, stop, waitFor, deskSignIn } from './desk-processes.ts';
import { addDays, weekStart } from './booking-helpers.ts';
import { launchOptionsOn } from './pinned-clock.ts';
import { testClockEnv } from '../../scripts/test-clock.mjs';

/**
 * Review of the front desk, in Chromium against `desk:web` with its
 * own server: the header keeps every control reachable and readable at a
 * phone's 390 px, 1024×768 and 1366×900, for staff and for an admin (whose
 * side menu folds away on a phone), and the page never scrolls sideways; the
 * counter warnings' title says what is missing (documents, profile or both);
 * a change the server refused reads its reason in the staff wording.
 * Screenshots at the three sizes when SHOTS_DIR is set.
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverPort = basePort + 62;
const deskPort = basePort + 63;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(repoRoot, '.tmp', `desk-header-e2e-${basePort}`);
const shots = process.env.SHOTS_DIR;
const sizes = [
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
  { width: 1366, height: 900 },
];

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

test.setTimeout(400_000);
// A stuck action fails in 30 s rather than waiting out the whole test.
test.use({ actionTimeout: 30_000 });

/**
 * The studio (server, desk and Chromium) runs on a clock pinned to a Wednesday
 * at 10:00 in Mexico City, whatever the hour of the run (decision 010): the offline booking needs a class still
 * to come today.
 */
const clock = testClockEnv(`${addDays(weekStart(new Date()), 16)}T10:00:00-06:00`);
test.use({ launchOptions: launchOptionsOn(clock) });

async function startServer(): Promise<void> {
  server = serverProcess({ port: serverPort, work, env: { ...clock } });
  await waitFor(`${serverUrl}/api/health`, 120_000);
}

test.beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 'README'), 'Datos desechables de la prueba de la cabecera de recepción.');
  await startServer();
  desk = deskWebProcess({ port: deskPort, work, serverUrl, env: { ...clock } });
  await waitFor(`${deskUrl}/health`, 240_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

async function photograph(page: Page, name: string, focus?: Locator): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  const original = page.viewportSize();
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300);
    await focus?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, `${name}-${size.width}x${size.height}.png`) });
  }
  if (original) await page.setViewportSize(original);
}


/** The page is no wider than the window: nothing to scroll sideways. */
const pageOverflow = (page: Page) => page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth);

/** Inside the window and its text whole (no element narrower than its text). */
async function readable(page: Page, control: Locator, what: string) {
  await expect(control, what).toBeVisible();
  const box = await control.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  expect(box, what).not.toBeNull();
  expect(box!.x, what).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, what).toBeLessThanOrEqual(width + 0.5);
  const cut = await control.evaluate((el) => [el, ...el.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth + 1));
  expect(cut, `${what}: texto cortado`).toBe(false);
}

/** Every header control at this size, reachable and readable; on a phone the account's are in the header's menu. */
async function checkHeader(page: Page, who: { name: string; admin: boolean }) {
  const width = page.viewportSize()?.width ?? 0;
  expect(await pageOverflow(page), `desplazamiento horizontal a ${width}px`).toBeLessThanOrEqual(0);
  const header = page.locator('header');
  const status = page.getByTestId('connection-status');
  await readable(page, status, 'estado de conexión');
  await expect(status).toHaveAccessibleName(/En línea/);
  await readable(page, page.getByTestId('pending-count'), 'cambios sin enviar');
  await expect(page.getByTestId('pending-count')).toHaveAccessibleName(/Todo enviado/);
  for (const button of await header.getByRole('button').all()) if (await button.isVisible()) await readable(page, button, `botón ${await button.getAttribute('aria-label') ?? await button.textContent()}`);
  if (width >= 992) {
    await readable(page, header.getByText(who.name), 'nombre');
    await readable(page, header.getByRole('button', { name: 'Cerrar sesión' }), 'Cerrar sesión');
    await readable(page, header.getByTestId('lock-button'), 'Bloquear');
    await readable(page, header.getByRole('button', { name: 'PIN de bloqueo' }), 'PIN de bloqueo');
  } else {
    await header.getByRole('button', { name: 'Menú de la cuenta' }).click();
    const menu = page.getByRole('menu');
    await readable(page, menu.getByText(who.name), 'nombre en el menú');
    for (const item of ['Bloquear', 'PIN de bloqueo', 'Cerrar sesión']) await readable(page, menu.getByRole('menuitem', { name: item }), item);
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
  }
  if (who.admin) {
    const nav = page.getByTestId('admin-nav');
    if (width < 768) {
      await expect(nav).not.toBeInViewport();
      await header.getByRole('button', { name: 'Menú de administración' }).click();
    }
    // Whole, not while it still slides in (it measured x = -39 under load).
    await expect(nav).toBeInViewport({ ratio: 1 });
    await readable(page, nav.getByRole('button', { name: 'Recepción' }), 'Recepción en el menú');
    if (width < 768) {
      await nav.getByRole('button', { name: 'Recepción' }).click();
      await expect(nav).not.toBeInViewport();
    }
    expect(await pageOverflow(page), `desplazamiento horizontal a ${width}px con el menú`).toBeLessThanOrEqual(0);
  }
}

async function signOut(page: Page) {
  if ((page.viewportSize()?.width ?? 0) < 992) {
    await page.locator('header').getByRole('button', { name: 'Menú de la cuenta' }).click();
    await page.getByRole('menuitem', { name: 'Cerrar sesión' }).click();
  } else {
    await page.locator('header').getByRole('button', { name: 'Cerrar sesión' }).click();
  }
  await expect(page.getByRole('button', { name: 'Entrar' })).toBeVisible();
}

test('the header at 390, 1024 and 1366 px, staff and admin: every control reachable and whole, no sideways scroll', async ({ page }) => {
  await page.goto(deskLink(deskUrl));
  for (const who of [
    { email: 'recepcion@estudio.demo', name: 'Andrea Torres', admin: false, shot: 'header-staff' },
    { email: 'admin@estudio.demo', name: 'Carlos Méndez', admin: true, shot: 'header-admin' },
  ]) {
    await page.setViewportSize({ width: 1366, height: 900 });
    await deskSignIn(page, who.email);
    await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 90_000 });
    await expect(page.getByText('Descargando los datos del estudio…')).toHaveCount(0, { timeout: 90_000 });
    for (const size of sizes) {
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
      await checkHeader(page, who);
    }
    await photograph(page, who.shot);
    if (who.admin) {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.locator('header').getByRole('button', { name: 'Menú de administración' }).click();
      if (shots) await page.screenshot({ path: path.join(shots, 'header-admin-nav-open-390x844.png') });
      await page.getByTestId('admin-nav').getByRole('button', { name: 'Recepción' }).click();
      await page.locator('header').getByRole('button', { name: 'Menú de la cuenta' }).click();
      if (shots) await page.screenshot({ path: path.join(shots, 'header-admin-menu-open-390x844.png') });
      await page.keyboard.press('Escape');
    }
    await signOut(page);
  }
});

test('the counter warnings say what is missing, and a refused change reads in the staff wording', async ({ page, request }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(deskLink(deskUrl));
  await deskSignIn(page, 'recepcion@estudio.demo');
  const indicator = page.getByTestId('sync-indicator');
  await expect(indicator).toHaveAttribute('data-online', 'true', { timeout: 90_000 });
  await expect(page.getByText('Descargando los datos del estudio…')).toHaveCount(0, { timeout: 90_000 });

  // Diego (the seed's new customer) has not accepted the documents and has no phone or birth date.
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('nuevo@');
  await page.getByTestId('customer-hit').filter({ hasText: 'nuevo@estudio.demo' }).click();
  const card = page.getByTestId('customer-card');
  const warnings = card.getByTestId('counter-warnings');
  await expect(warnings).toContainText('Documentos sin aceptar y perfil incompleto');
  await photograph(page, 'warnings-both', warnings);
  await warnings.getByRole('button', { name: 'Registrar aceptación' }).click();
  const accept = page.getByRole('dialog', { name: /Aceptación de documentos/ });
  // The dialog lists the documents once it has read them: `all()` does not wait (under load it found none, and the
  // click met 'Marca al menos un documento').
  await expect(accept.getByRole('checkbox').first()).toBeVisible();
  for (const box of await accept.getByRole('checkbox').all()) await box.check();
  await accept.getByRole('button', { name: 'Registrar aceptación' }).click();
  await expect(page.getByText('Aceptación registrada.')).toBeVisible();
  // Everything accepted: the box is about the profile only.
  await expect(warnings.getByText('No ha aceptado:')).toHaveCount(0);
  await expect(warnings).toContainText('Perfil incompleto: falta');
  await expect(warnings).not.toContainText('Documentos sin aceptar');
  await expect(warnings.locator('.mantine-Alert-title')).toHaveText('Perfil incompleto');
  await photograph(page, 'warnings-profile', warnings);

  // The server goes away; the receptionist signs in again offline and books Mariana into a class.
  await stop(server);
  await expect(indicator).toHaveAttribute('data-online', 'false', { timeout: 30_000 });
  await signOut(page);
  await deskSignIn(page, 'recepcion@estudio.demo');
  await expect(indicator).toHaveAttribute('data-online', 'false', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('clie');
  await page.getByTestId('customer-hit').filter({ hasText: 'cliente@estudio.demo' }).click();
  const credits = Number(await card.getByTestId('credit-total').textContent());
  expect(credits).toBeGreaterThan(0);
  await card.getByRole('button', { name: 'Reservar clase' }).click();
  const dialog = page.getByRole('dialog', { name: /Reservar una clase para/ });
  await dialog.getByLabel('Clase').click();
  // The first class still open (today's evening on the pinned clock): the last one sits below the list's fold, and a click
  // there on a loaded machine could leave the list open over the button.
  await page.getByRole('option', { disabled: false }).first().click();
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Reservar clase' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('pending-count')).toHaveAccessibleName(/1 cambio sin enviar/);

  // Back: meanwhile the office took all her classes away, so the server refuses the booking ('booking/no-credits').
  await startServer();
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const cliente = await apiLogin(request, serverUrl, 'cliente@estudio.demo');
  const me = (await (await request.get(`${serverUrl}/api/customer`, { headers: { Authorization: `Bearer ${cliente}` } })).json()) as { customer: { customer_id: number } };
  const taken = await request.put(`${serverUrl}/api/customer/removeClasses`, {
    data: { customer_id: me.customer.customer_id, amount: credits, reason: 'Ajuste de saldo' },
    headers: { Authorization: `Bearer ${admin}` },
  });
  expect(taken.ok(), await taken.text()).toBeTruthy();
  const prompt = page.getByTestId('password-needed');
  await expect(prompt).toBeVisible({ timeout: 60_000 });
  await prompt.getByLabel('Contraseña').fill(demoPassword);
  await prompt.getByRole('button', { name: 'Conectar' }).click();

  const rejection = page.getByTestId('rejection');
  await expect(rejection).toBeVisible({ timeout: 60_000 });
  await expect(rejection).toContainText('Llama a Mariana López');
  await expect(rejection).toContainText('El cliente no tiene créditos para esta clase.');
  await expect(rejection).not.toContainText(/\b(tus|tienes|has agotado)\b/i);
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300);
    await readable(page, rejection.getByRole('button', { name: 'Entendido' }), `Entendido a ${size.width}px`);
    expect(await pageOverflow(page), `desplazamiento horizontal a ${size.width}px`).toBeLessThanOrEqual(0);
  }
  await photograph(page, 'rejection-staff-wording', rejection);

  // With no credits left, booking her again offers the sale right there.
  await page.setViewportSize({ width: 1366, height: 900 });
  await rejection.getByRole('button', { name: 'Entendido' }).click();
  await card.getByRole('button', { name: 'Reservar clase' }).click();
  await dialog.getByLabel('Clase').click();
  await page.getByRole('option', { disabled: false }).first().click();
  await expect(page.getByRole('listbox')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Reservar clase' }).click();
  await expect(dialog.getByRole('alert')).toContainText('El cliente no tiene créditos para esta clase.');
  await photograph(page, 'walk-in-no-credits-sell', dialog);
  await dialog.getByTestId('sell-instead').click();
  await expect(page.getByRole('dialog', { name: /^Vender a Mariana López/ })).toBeVisible();
});
