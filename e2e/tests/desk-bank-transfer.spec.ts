import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './fixtures.ts';
import { demoPassword } from './helpers.ts';
import { apiLogin, deskLink, deskWebProcess, repoRoot, serverProcess, stop, waitFor } from './desk-processes.ts';
import { shoot } from './shots.ts';

/**
 * The studio's bank account for transfers, kept in the desk's Paquetes screen and shown on
 * every pending 'Efectivo' order. Its own server and desk:web (no portal needed: the answer is read from the API).
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverUrl = `http://127.0.0.1:${basePort + 70}`;
const deskUrl = `http://127.0.0.1:${basePort + 71}`;
const work = path.join(repoRoot, '.tmp', `desk-bank-e2e-${basePort}`);

test.describe.configure({ mode: 'serial' });
let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

test.beforeAll(async () => {
  test.setTimeout(600_000);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  desk = deskWebProcess({ port: basePort + 71, work, serverUrl });
  server = serverProcess({ port: basePort + 70, work, env: { START_DESK: '0' } });
  await waitFor(`${serverUrl}/api/health`, 180_000);
  await waitFor(`${deskUrl}/health`, 240_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

async function adminDesk(page: Page) {
  await page.goto(deskLink(deskUrl));
  const email = page.getByLabel('Correo electrónico');
  await expect(page.getByTestId('admin-nav').or(email)).toBeVisible({ timeout: 60_000 });
  if (await email.isVisible()) {
    await email.fill('admin@estudio.demo');
    await page.getByLabel('Contraseña').fill(demoPassword);
    await page.getByRole('button', { name: 'Entrar' }).click();
  }
  await expect(page.getByTestId('admin-nav')).toBeVisible({ timeout: 60_000 });
}

test('the admin keeps the bank, CLABE and beneficiary; a CLABE with a wrong check digit is refused under the field', async ({ page, request }) => {
  await adminDesk(page);
  await page.getByTestId('admin-nav').getByRole('button', { name: 'Paquetes', exact: true }).click();
  const panel = page.getByTestId('bank-transfer-settings');
  await expect(panel.getByLabel('Banco para transferencias')).toHaveValue('BBVA México');
  await expect(panel.getByLabel('CLABE interbancaria')).toHaveValue('012180001234567899');
  await expect(panel.getByLabel('Beneficiario de la cuenta')).toHaveValue('Estudio Demo S.A. de C.V.');

  // A digit mistyped: the check digit no longer matches (core's isValidClabe), nothing is sent.
  await panel.getByLabel('CLABE interbancaria').fill('012 180 00123456789 0');
  await expect(panel.getByLabel('CLABE interbancaria')).toHaveValue('012180001234567890');
  await panel.getByRole('button', { name: 'Guardar' }).click();
  await expect(panel.getByText('La CLABE debe tener 18 dígitos y el último es su dígito verificador: revísala en tu estado de cuenta.')).toBeVisible();
  await shoot(page, 'desk-bank-transfer-error', panel);

  await panel.getByLabel('CLABE interbancaria').fill('002010077777777771');
  await panel.getByLabel('Beneficiario de la cuenta').fill('Movimiento Roma S.C.');
  await panel.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('Datos de transferencia guardados.')).toBeVisible();
  const config = (await (await request.get(`${serverUrl}/api/appconfig`)).json()) as { config: { key: string; value: string }[] };
  const value = (key: string) => config.config.find((e) => e.key === key)?.value;
  expect([value('bank_name'), value('bank_clabe'), value('bank_beneficiary')]).toEqual(['BBVA México', '002010077777777771', 'Movimiento Roma S.C.']);
});

test("the front desk collects a pending 'Efectivo' order as a bank transfer: the purchase is paid and the drawer does not move", async ({ page, request }) => {
  const customer = await apiLogin(request, serverUrl, 'nuevo@estudio.demo');
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const { class_packages: packages } = (await (await request.get(`${serverUrl}/api/class_packages`)).json()) as { class_packages: { class_package_id: number; title: string }[] };
  const single = packages.find((p) => p.title === '1 Clase')!;
  const order = await request.post(`${serverUrl}/api/checkout`, { headers: auth(customer), data: { class_package_id: single.class_package_id, payment_method: 2 } });
  expect(order.ok(), await order.text()).toBeTruthy();
  const { purchase_id: purchaseId } = (await order.json()) as { purchase_id: number };
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date());
  const drawer = async () => ((await (await request.get(`${serverUrl}/api/reports/cash_up?date=${today}`, { headers: auth(admin) })).json()) as { expected_cash: string }).expected_cash;
  const before = await drawer();

  // This desk is the owner's (signed in by the test above): its Recepción screen is the front desk's.
  await adminDesk(page);
  await page.getByTestId('admin-nav').getByRole('button', { name: 'Recepción', exact: true }).click();
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('nuevo@');
  await page.getByTestId('customer-hit').filter({ hasText: 'nuevo@estudio.demo' }).click();
  const card = page.getByTestId('customer-card');
  await card.getByRole('tab', { name: 'Compras' }).click();
  const row = card.locator(`tr[data-purchase-id="${purchaseId}"]`);
  await expect(row).toBeVisible({ timeout: 30_000 });
  await row.getByRole('button', { name: 'Marcar pagado' }).click();
  const menu = page.getByRole('menu');
  await expect(menu).toContainText('¿Cómo pagó? Solo el efectivo entra al corte de caja.');
  await expect(menu.getByRole('menuitem', { name: 'Cobrado en efectivo' })).toBeVisible();
  if (process.env.SHOTS_DIR) {
    for (const [width, height] of [
      [1366, 900],
      [1280, 720],
      [390, 844],
    ] as const) {
      // Mantine's menu closes when the window is resized: closed first, then opened at this size for the picture.
      await page.keyboard.press('Escape');
      await expect(menu).toHaveCount(0);
      await page.setViewportSize({ width, height });
      await row.getByRole('button', { name: 'Marcar pagado' }).click();
      await expect(menu).toBeVisible();
      await menu.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${process.env.SHOTS_DIR}/desk-collect-how-${width}x${height}.png` });
    }
  }
  await menu.getByRole('menuitem', { name: 'Cobrado por transferencia' }).click();
  await expect(row.getByRole('button', { name: 'Marcar pagado' })).toHaveCount(0, { timeout: 30_000 });

  // The server has it as paid, by transfer: a sale that is not cash in the drawer.
  await expect
    .poll(async () => ((await (await request.get(`${serverUrl}/api/purchases/${purchaseId}`, { headers: auth(admin) })).json()) as { purchase: { status: string } }).purchase.status, { timeout: 30_000 })
    .toBe('completed');
  expect(await drawer()).toBe(before);
});
