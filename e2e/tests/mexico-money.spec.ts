import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { signIn } from './helpers.ts';
import { fillSandboxCard, shootHere } from './checkout-helpers.ts';
import { apiLogin, repoRoot, serverProcess, stop, waitFor } from './desk-processes.ts';
import { startStripeFake, type StripeFake } from '../../server/test/support/stripe-fake/server.ts';
import { startFacturapiFake, type FacturapiFake } from '../../server/test/support/facturapi-fake/server.ts';

/**
 * Mexico's money as a customer meets it (decisions 080-084): an OXXO voucher
 * and a SPEI transfer on the order page, paid by Stripe's signed webhooks
 * (the loopback Stripe fake); meses sin intereses on a Mexican card; the tax
 * profile in Mi Información and 'Solicitar factura' in Mis Compras, stamped
 * once the owner writes the PAC key (the loopback facturapi fake). Its own
 * server, on the portal the suite built, with Stripe and facturapi pointed at
 * the fakes.
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverUrl = `http://127.0.0.1:${basePort + 80}`;
const work = path.join(repoRoot, '.tmp', `mexico-e2e-${basePort}`);

test.describe.configure({ mode: 'serial' });
test.use({ baseURL: serverUrl });
let server: ChildProcess | null = null;
let stripe: StripeFake;
let pac: FacturapiFake;

test.beforeAll(async () => {
  test.setTimeout(300_000);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  stripe = await startStripeFake();
  pac = await startFacturapiFake();
  stripe.webhookUrl = `${serverUrl}/api/webhooks/stripe`;
  server = serverProcess({
    port: basePort + 80,
    work,
    portalDist: path.join(repoRoot, '.tmp', `portal-dist-${basePort}`),
    env: {
      START_DESK: '0',
      PUBLIC_URL: serverUrl,
      STRIPE_SECRET_KEY: 'sk_test_estudio_fake',
      STRIPE_WEBHOOK_SECRET: 'whsec_estudio_prueba',
      STRIPE_API_HOST: stripe.host,
      STRIPE_API_PORT: String(stripe.port),
      STRIPE_API_PROTOCOL: 'http',
      FACTURAPI_API_BASE: pac.baseUrl,
      // The CFDI sender runs every 30 s on the studio's clock; a quick tick keeps the wait short.
      CLOCK_TICK_MS: '1000',
    },
  });
  await waitFor(`${serverUrl}/api/health`, 240_000);
});

test.afterAll(async () => {
  await stop(server);
  await stripe?.close();
  await pac?.close();
});

async function packageId(request: APIRequestContext, title: string): Promise<number> {
  const answer = await request.get(`${serverUrl}/api/class_packages`);
  const found = ((await answer.json()) as { class_packages: { class_package_id: number; title: string }[] }).class_packages.find((p) => p.title === title);
  expect(found).toBeDefined();
  return found!.class_package_id;
}

async function checkout(page: Page, request: APIRequestContext, title: string) {
  await page.goto(`/checkout/${await packageId(request, title)}`);
  await expect(page.getByRole('heading', { name: 'Forma de Pago' })).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Efectivo en OXXO' })).toBeVisible();
}

async function acceptDocuments(page: Page) {
  const documents = page.getByRole('checkbox', { name: /Acepto los siguientes documentos/ });
  if (await documents.count()) await documents.check();
}

const intentOf = (purchaseId: number) => [...stripe.objects.values()].find((o) => o.object === 'payment_intent' && (o.metadata as { purchase_id?: string }).purchase_id === String(purchaseId));
const orderId = (page: Page) => Number(/\/gracias\/(\d+)/.exec(page.url())?.[1]);

test('OXXO: the order page shows the voucher (reference, barcode, amount, expiry) and turns paid when OXXO pays', async ({ page, request }) => {
  await signIn(page, 'cliente@estudio.demo');
  await expect(page).toHaveURL(/\/mystudio/);
  await checkout(page, request, '5 Clases');
  await page.getByRole('radio', { name: 'Efectivo en OXXO' }).check();
  await acceptDocuments(page);
  await expect(page.getByText(/Te damos una ficha con referencia/)).toBeVisible();
  await shootHere(page, 'mexico-checkout-oxxo');
  await page.getByTestId('pay-oxxo').click();
  await expect(page).toHaveURL(/\/gracias\/\d+/);
  const voucher = page.getByTestId('oxxo-voucher');
  await expect(voucher).toBeVisible();
  await expect(voucher.getByTestId('oxxo-barcode')).toBeVisible();
  await expect(voucher).toContainText('$800.00 MXN');
  await expect(voucher).toContainText(/Vence/);
  const reference = (intentOf(orderId(page))!.next_action as { oxxo_display_details: { number: string } }).oxxo_display_details.number;
  await expect(voucher).toContainText(reference);
  await expect(page.getByText('¡Gracias! Tu orden está apartada')).toBeVisible();
  await shootHere(page, 'mexico-order-oxxo');

  expect(await stripe.send(stripe.payVoucher(intentOf(orderId(page))!.id as string))).toBe(200);
  await page.reload();
  await expect(page.getByText('¡Gracias por tu compra!')).toBeVisible();
  await expect(page.getByTestId('oxxo-voucher')).toBeHidden();
});

test('SPEI: a CLABE of her own; a short transfer says how much is missing', async ({ page, request }) => {
  await signIn(page, 'cliente@estudio.demo');
  await expect(page).toHaveURL(/\/mystudio/);
  await checkout(page, request, '10 Clases');
  await page.getByRole('radio', { name: 'Transferencia SPEI' }).check();
  await acceptDocuments(page);
  await page.getByTestId('pay-spei').click();
  await expect(page).toHaveURL(/\/gracias\/\d+/);
  const details = page.getByTestId('spei-details');
  await expect(details).toContainText('Banco Citi México');
  await expect(details).toContainText('$1,350.00 MXN');
  const customer = intentOf(orderId(page))!.customer as string;
  for (const event of stripe.fundBankTransfer(customer, 50_000)) expect(await stripe.send(event)).toBe(200);
  await page.reload();
  await expect(details).toContainText('Recibimos $500.00 MXN; faltan $850.00 MXN');
  await shootHere(page, 'mexico-order-spei');
});

test('meses sin intereses: a Mexican card is offered 3 to 12 months with the monthly amount; the order shows the plan', async ({ page, request }) => {
  await signIn(page, 'cliente@estudio.demo');
  await expect(page).toHaveURL(/\/mystudio/);
  await checkout(page, request, '10 Clases');
  await fillSandboxCard(page, '4000 0048 4000 8001');
  await expect(page.getByTestId('installments-note')).toContainText('desde $1,000.00 MXN');
  await page.getByRole('button', { name: 'Pagar Ahora' }).click();
  const dialog = page.getByRole('dialog', { name: 'Meses sin intereses' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('6 meses sin intereses de $225.00 MXN')).toBeVisible();
  await expect(dialog.getByText('12 meses sin intereses de $112.50 MXN')).toBeVisible();
  await shootHere(page, 'mexico-installments');
  await dialog.getByText('6 meses sin intereses de $225.00 MXN').click();
  await dialog.getByTestId('pay-installments').click();
  await expect(page).toHaveURL(/\/gracias\/\d+/);
  await expect(page.getByText('6 meses sin intereses de $225.00 MXN')).toBeVisible();
  await shootHere(page, 'mexico-order-installments');
});

test('tax profile and Solicitar factura: refused in Spanish under its field, waits without a PAC, stamped once the owner writes the key', async ({ page, request }) => {
  test.setTimeout(150_000);
  await signIn(page, 'cliente@estudio.demo');
  await expect(page).toHaveURL(/\/mystudio/);
  await page.goto('/mystudio/informacion');
  const card = page.getByTestId('tax-profile');
  await card.getByRole('button', { name: 'Agregar datos fiscales' }).click();
  await card.getByLabel('RFC').fill('GODE561231GR9');
  await card.getByLabel('Código postal fiscal').fill('06700');
  await card.getByLabel('Nombre o razón social').fill('Emilio González Díaz');
  await card.getByLabel('Régimen fiscal').click();
  await page.getByRole('option', { name: /^612/ }).click();
  await card.getByRole('button', { name: 'Guardar' }).click();
  await expect(card.getByText(/último carácter no corresponde/)).toBeVisible();
  await shootHere(page, 'mexico-tax-profile-error', card);
  await card.getByLabel('RFC').fill('GODE561231GR8');
  await card.getByRole('button', { name: 'Guardar' }).click();
  await expect(card.getByText('EMILIO GONZÁLEZ DÍAZ')).toBeVisible();
  await shootHere(page, 'mexico-tax-profile', card);

  // A card purchase of this month to invoice (the spec's other tests may not have run).
  const token = await apiLogin(request, serverUrl, 'cliente@estudio.demo');
  const bought = await request.post(`${serverUrl}/api/checkout/attempt`, {
    headers: { authorization: `Bearer ${token}` },
    data: { class_package_id: await packageId(request, '1 Clase'), payment_method: 1, payment_method_token: 'pm_card_visa' },
  });
  expect(bought.ok()).toBeTruthy();
  await page.goto('/mystudio/membresias');
  const ask = page.getByRole('button', { name: 'Solicitar factura' }).first();
  await ask.click();
  await expect(page.getByText(/se emitirá a nombre de EMILIO GONZÁLEZ DÍAZ/)).toBeVisible();
  await page.getByTestId('confirm-invoice').click();
  await expect(page.getByText('Factura en proceso').first()).toBeVisible();
  await shootHere(page, 'mexico-purchases-invoice-pending');

  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const written = await request.put(`${serverUrl}/api/cfdi/pac`, { headers: { authorization: `Bearer ${admin}` }, data: { facturapi_key: pac.key } });
  expect(written.ok()).toBeTruthy();
  await expect(async () => {
    await page.reload();
    await expect(page.getByText('Facturada').first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByRole('button', { name: /PDF/ }).first()).toBeVisible();
  await shootHere(page, 'mexico-purchases-invoice-stamped');
});
