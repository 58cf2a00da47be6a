import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './fixtures.ts';
import { demoPassword } from './helpers.ts';
import { apiLogin, deskLink, deskSignIn, deskWebProcess, repoRoot, serverProcess, stop, waitFor } from './desk-processes.ts';

/**
 * A walk-in during an outage, in Chromium against `desk:web` with its own
 * server: with the server gone, the receptionist registers two first-time
 * customers, sells one a package and a water; when the server is back one of
 * them turns out to have signed up on the portal meanwhile (same e-mail). The
 * desk follows the new customer to her server id, and tells staff that the
 * other's sale went to the existing account, with a way to open her card.
 * Screenshots at 1366×900, 1280×720 and 390×844 when SHOTS_DIR is set.
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverPort = basePort + 84;
const deskPort = basePort + 85;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(repoRoot, '.tmp', `desk-offline-walk-in-e2e-${basePort}`);
const shots = process.env.SHOTS_DIR;
const sizes = [
  { width: 1366, height: 900 },
  { width: 1280, height: 720 },
  { width: 390, height: 844 },
];

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

test.setTimeout(400_000);
test.use({ actionTimeout: 30_000 });

async function startServer(): Promise<void> {
  server = serverProcess({ port: serverPort, work });
  await waitFor(`${serverUrl}/api/health`, 120_000);
}

test.beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 'README'), 'Datos desechables de la prueba del cliente nuevo sin conexión.');
  await startServer();
  desk = deskWebProcess({ port: deskPort, work, serverUrl });
  await waitFor(`${deskUrl}/health`, 240_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

async function photograph(page: Page, name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  const original = page.viewportSize();
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, `${name}-${size.width}x${size.height}.png`) });
  }
  if (original) await page.setViewportSize(original);
}

async function register(page: Page, person: { name: string; lastName: string; phone: string; email: string }) {
  await page.getByTestId('new-customer').click();
  const form = page.getByRole('dialog', { name: 'Registrar cliente nuevo' });
  await expect(form.getByTestId('register-offline')).toContainText('el cliente se registra en esta recepción');
  await form.getByLabel('Nombre', { exact: true }).fill(person.name);
  await form.getByLabel('Apellidos').fill(person.lastName);
  await form.getByLabel('Teléfono').fill(person.phone);
  await form.getByLabel('Correo electrónico').fill(person.email);
  for (const box of await form.getByRole('checkbox').all()) await box.check();
  return form;
}

test('a walk-in registered and sold to with the server down, followed to her account when it is back', async ({ page, request }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(deskLink(deskUrl));
  await deskSignIn(page, 'recepcion@estudio.demo');
  const indicator = page.getByTestId('sync-indicator');
  await expect(indicator).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  await expect(page.getByText('Descargando los datos del estudio…')).toHaveCount(0, { timeout: 60_000 });

  // The server goes away; the receptionist signs in again offline (so the desk waits for her password to send).
  await stop(server);
  await expect(indicator).toHaveAttribute('data-online', 'false', { timeout: 30_000 });
  await page.locator('header').getByRole('button', { name: 'Cerrar sesión' }).click();
  await deskSignIn(page, 'recepcion@estudio.demo');
  await expect(indicator).toHaveAttribute('data-online', 'false', { timeout: 30_000 });
  await page.getByRole('tab', { name: 'Clientes' }).click();

  // A customer the replica already has is refused at once, as online.
  let form = await register(page, { name: 'Mariana', lastName: 'Repetida', phone: '5587659001', email: 'cliente@estudio.demo' });
  await form.getByRole('button', { name: 'Registrar' }).click();
  await expect(form.getByText('Ya existe una cuenta con ese correo electrónico.')).toBeVisible();
  await form.getByRole('button', { name: 'Cancelar' }).click();

  // A first-time walk-in: registered here, her card opens at once.
  form = await register(page, { name: 'Renata', lastName: 'Sin Red', phone: '5587659002', email: 'renata.sinred@prueba.mx' });
  await photograph(page, 'offline-walk-in-form');
  await form.getByRole('button', { name: 'Registrar' }).click();
  await expect(form).toHaveCount(0);
  await expect(page.getByText('Cliente registrado en esta recepción.', { exact: false }).first()).toBeVisible();
  const card = page.getByTestId('customer-card');
  await expect(card.getByRole('heading', { name: 'Renata Sin Red' })).toBeVisible();

  // She buys five classes and a water, in cash.
  await card.getByRole('button', { name: 'Vender' }).click();
  const sale = page.getByRole('dialog', { name: /Vender a Renata Sin Red/ });
  for (const name of [/^5 Clases/, /^Agua natural 600 ml/]) {
    await sale.getByLabel('Agregar a la cuenta').click();
    await page.getByRole('option', { name }).click();
  }
  await sale.getByLabel('Forma de pago').click();
  await page.getByRole('option', { name: 'Efectivo' }).click();
  const total = Number(((await sale.getByTestId('sale-total').textContent()) ?? '').replace(/[$,]/g, ''));
  await sale.getByLabel('Recibido').fill(String(Math.ceil(total / 100) * 100));
  await sale.getByRole('button', { name: /Cobrar/ }).click();
  await expect(sale.getByTestId('receipt-preview')).toContainText('5 Clases');
  await sale.getByRole('button', { name: 'Listo' }).click();
  await expect(sale).toHaveCount(0);
  await expect(card.getByTestId('credit-total')).toHaveText('5');
  await photograph(page, 'offline-walk-in-card');

  // A second walk-in, whose e-mail the portal will have by the time the desk sends her.
  form = await register(page, { name: 'Lupita', lastName: 'Ortiz', phone: '5587659003', email: 'lupita.ortiz@prueba.mx' });
  await form.getByRole('button', { name: 'Registrar' }).click();
  await expect(card.getByRole('heading', { name: 'Lupita Ortiz' })).toBeVisible();
  await card.getByRole('button', { name: 'Vender' }).click();
  const second = page.getByRole('dialog', { name: /Vender a Lupita Ortiz/ });
  await second.getByLabel('Agregar a la cuenta').click();
  await page.getByRole('option', { name: /^5 Clases/ }).click();
  await second.getByLabel('Forma de pago').click();
  await page.getByRole('option', { name: 'Efectivo' }).click();
  await second.getByLabel('Recibido').fill('2000');
  await second.getByRole('button', { name: /Cobrar/ }).click();
  await second.getByRole('button', { name: 'Listo' }).click();
  await expect(page.getByTestId('pending-count')).toHaveAccessibleName(/4 cambios sin enviar/);

  // Back. Meanwhile Guadalupe Ortiz signed up on the portal with that e-mail (registered here by an admin, for the test).
  await startServer();
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const docs = (await (await request.get(`${serverUrl}/api/pages`)).json()) as { pages: { page_id: number; required: boolean }[] };
  const portal = await request.post(`${serverUrl}/api/customer`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: { name: 'Guadalupe', last_name: 'Ortiz Reyes', phone: '5598760003', email: 'lupita.ortiz@prueba.mx', accepted_page_ids: docs.pages.filter((p) => p.required).map((p) => p.page_id) },
  });
  expect(portal.ok(), await portal.text()).toBeTruthy();
  const prompt = page.getByTestId('password-needed');
  await expect(prompt).toBeVisible({ timeout: 60_000 });
  await prompt.getByLabel('Contraseña').fill(demoPassword);
  await prompt.getByRole('button', { name: 'Conectar' }).click();

  // Staff are told where Lupita's sale went, and can open that account.
  const adoption = page.getByTestId('adoption');
  await expect(adoption).toBeVisible({ timeout: 60_000 });
  await expect(adoption).toContainText('«Lupita Ortiz» ya estaba registrado con ese correo como Guadalupe Ortiz Reyes (lupita.ortiz@prueba.mx)');
  await expect(page.getByTestId('pending-count')).toHaveAccessibleName(/Todo enviado/, { timeout: 60_000 });
  await photograph(page, 'offline-walk-in-adopted');
  await adoption.getByRole('button', { name: 'Ver ficha' }).click();
  await expect(card.getByRole('heading', { name: 'Guadalupe Ortiz Reyes' })).toBeVisible();
  await expect(card.getByTestId('credit-total')).toHaveText('5');
  await adoption.getByRole('button', { name: 'Entendido' }).click();
  await expect(adoption).toHaveCount(0);

  // Renata is a customer of the server now, with her sale; the desk shows her under her new id.
  const staff = await apiLogin(request, serverUrl, 'recepcion@estudio.demo');
  const found = await request.get(`${serverUrl}/api/customer/phone`, { params: { phone: '5587659002' }, headers: { Authorization: `Bearer ${staff}` } });
  const renata = ((await found.json()) as { customer: { customer_id: number; email: string } | null }).customer;
  expect(renata?.email).toBe('renata.sinred@prueba.mx');
  await page.getByTestId('customer-search').fill('renata sin');
  await page.getByTestId('customer-hit').filter({ hasText: 'renata.sinred@prueba.mx' }).click();
  await expect(card.getByRole('heading', { name: 'Renata Sin Red' })).toBeVisible();
  await expect(card.getByTestId('credit-total')).toHaveText('5');
  await expect(page.getByTestId('customer-hit')).toHaveCount(1);
});
