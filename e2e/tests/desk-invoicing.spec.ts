import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Locator, type Page } from './fixtures.ts';
import { demoPassword } from './helpers.ts';
import { deskLink, deskWebProcess, repoRoot, serverProcess, stop, waitFor } from './desk-processes.ts';
import { shoot } from './shots.ts';
import { startFacturapiFake, type FacturapiFake } from '../../server/test/support/facturapi-fake/server.ts';

/**
 * CFDI at the front desk (decision 084): the owner's Facturación tab (the
 * studio's fiscal data and the PAC key, written and never shown back), and a
 * sale at the counter invoiced from the customer's card, the RFC checked as
 * the SAT checks it and the state following the invoice until it is stamped
 * by the loopback facturapi fake. Its own server and desk:web.
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverUrl = `http://127.0.0.1:${basePort + 82}`;
const deskUrl = `http://127.0.0.1:${basePort + 83}`;
const work = path.join(repoRoot, '.tmp', `desk-invoicing-e2e-${basePort}`);

test.describe.configure({ mode: 'serial' });
let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;
let pac: FacturapiFake;
const studioPacKey = 'sk_test_facturapi_estudio';

test.beforeAll(async () => {
  test.setTimeout(600_000);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // The key the owner writes in Facturación below is the one this PAC answers to.
  pac = await startFacturapiFake({ key: studioPacKey });
  desk = deskWebProcess({ port: basePort + 83, work, serverUrl });
  // The CFDI sender runs every 30 s on the studio's clock; a quick tick keeps the wait short.
  server = serverProcess({ port: basePort + 82, work, env: { START_DESK: '0', FACTURAPI_API_BASE: pac.baseUrl, CLOCK_TICK_MS: '1000' } });
  await waitFor(`${serverUrl}/api/health`, 180_000);
  await waitFor(`${deskUrl}/health`, 240_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
  await pac?.close();
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

const openSection = (page: Page, name: string) => page.getByTestId('admin-nav').getByRole('button', { name, exact: true }).click();

/** The desk's three sizes: the two of every screen (shots.ts) and the terminal's own 1280×720. */
async function shootDesk(page: Page, name: string, target?: Locator) {
  await shoot(page, name, target);
  const dir = process.env.SHOTS_DIR;
  if (!dir) return;
  await target?.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${dir}/${name}-1280x720.png` });
}

test('the owner reads the studio fiscal data in Facturación and writes the PAC key, which is never shown back', async ({ page, request }) => {
  await adminDesk(page);
  await openSection(page, 'Configuración');
  await page.getByTestId('settings-tab-facturacion').click();
  await expect(page.getByTestId('setting-fiscal_rfc')).toHaveValue('EKU9003173C9');
  const panel = page.getByTestId('pac-settings');
  await expect(panel.getByTestId('pac-state')).toHaveText('Sin llave: las facturas se guardan como pendientes y se timbran en cuanto configures la llave.');
  await shootDesk(page, 'desk-facturacion-sin-llave');

  await panel.getByLabel('Llave secreta de Facturapi').fill(studioPacKey);
  await panel.getByTestId('pac-save').click();
  await expect(page.getByText('Proveedor de facturación guardado.')).toBeVisible();
  await expect(panel.getByTestId('pac-state')).toHaveText('Llave guardada');
  await expect(panel.getByTestId('pac-key-saved')).toBeVisible();
  await expect(panel).not.toContainText(studioPacKey);
  await shootDesk(page, 'desk-facturacion-llave', panel);

  // Written, never read back: the API says only that a key is set.
  const login = await request.post(`${serverUrl}/api/auth/login`, { data: { email: 'admin@estudio.demo', password: demoPassword } });
  const token = ((await login.json()) as { idToken: string }).idToken;
  const stored = await (await request.get(`${serverUrl}/api/cfdi/pac`, { headers: { Authorization: `Bearer ${token}` } })).json();
  expect(JSON.stringify(stored)).not.toContain(studioPacKey);
  expect(stored).toMatchObject({ facturapi_key_set: true });
});

test('a sale at the counter is invoiced from the customer card: a wrong RFC is refused under its field, then the invoice is stamped', async ({ page }) => {
  test.setTimeout(240_000);
  await adminDesk(page);
  await openSection(page, 'Recepción');
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('cliente@estudio.demo');
  await page.getByTestId('customer-hit').filter({ hasText: 'cliente@estudio.demo' }).click();
  const card = page.getByTestId('customer-card');
  await card.getByRole('button', { name: 'Agregar acceso' }).click();
  const grant = page.getByRole('dialog', { name: /Agregar acceso/ });
  await grant.getByLabel('Paquete').click();
  await page.getByRole('option', { name: '10 Clases · $1,350.00' }).click();
  await grant.getByLabel('Forma de pago').click();
  await page.getByRole('option', { name: 'Efectivo' }).click();
  await grant.getByRole('button', { name: 'Agregar acceso' }).click();
  await grant.getByRole('button', { name: 'Listo' }).click();
  await expect(grant).toHaveCount(0);

  // The sale reaches the server through the replica; its row under Compras then offers Facturar (read from the server).
  await card.getByRole('tab', { name: 'Compras' }).click();
  const row = card.locator('tr[data-purchase-id]').filter({ hasText: '10 Clases' }).filter({ hasText: '$1,350.00' }).first();
  const issue = row.getByRole('button', { name: 'Facturar' });
  await expect(issue).toBeVisible({ timeout: 60_000 });
  await issue.click();
  const modal = page.getByRole('dialog', { name: 'Facturar' });
  await modal.getByLabel('RFC').fill('GODE561231GR9');
  await modal.getByLabel('Nombre o razón social').fill('Emilio González Díaz');
  await modal.getByLabel('Régimen fiscal').click();
  await page.getByRole('option', { name: /^612 · / }).click();
  await modal.getByLabel('Código postal fiscal').fill('06700');
  await modal.getByTestId('desk-issue-confirm').click();
  await expect(modal.getByText(/último carácter no corresponde/)).toBeVisible();
  await expect(modal.getByLabel('RFC')).toHaveAttribute('aria-invalid', 'true');
  await shootDesk(page, 'desk-facturar-rfc', modal);

  await modal.getByLabel('RFC').fill('GODE561231GR8');
  await modal.getByTestId('desk-issue-confirm').click();
  await expect(modal).toHaveCount(0);
  await expect(row.getByText(/Factura en proceso|Facturada/)).toBeVisible({ timeout: 20_000 });
  // The clock's sender stamps it through facturapi; the card follows within its refresh.
  await expect(row.getByText('Facturada')).toBeVisible({ timeout: 90_000 });
  expect([...pac.invoices.values()].some((i) => (i.customer as { tax_id: string }).tax_id === 'GODE561231GR8' && i.total === 1350)).toBe(true);
  await shootDesk(page, 'desk-factura-timbrada', card);
});
