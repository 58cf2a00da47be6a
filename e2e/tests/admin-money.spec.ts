import { readFileSync } from 'node:fs';
import { expect, test } from './fixtures.ts';
import { apiLogin } from './desk-processes.ts';
import { adminStudio, openSection } from './admin-studio.ts';
import { shoot } from './shots.ts';

/**
 * Points 4 and 8, as the studio's owner uses the desk's admin
 * console (desk:web in Chromium) against its own server: selling at the
 * counter at the price shown, the day's cash-up and the split by payment
 * method, a refund with its reason, the CSV exports opened and read, a new
 * customer and her e-mail changed, a discount saved without an amount.
 */
const { serverUrl, adminDesk } = adminStudio('admin-money', 62);

/** '$1,350.00' → 135000 */
const cents = (text: string) => Math.round(Number(text.replace(/[^\d.-]/g, '')) * 100);

/** A CSV as Excel reads it: BOM, comma-separated, quoted cells. */
function readCsv(text: string): string[][] {
  expect(text.charCodeAt(0)).toBe(0xfeff);
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 1; i < text.length; i++) {
    const ch = text[i] as string;
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (ch === '"') quoted = !quoted;
    else if (quoted) cell += ch;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += ch;
  }
  return rows;
}

test('the owner sells at the counter at the price shown, reads the cash-up, refunds with a reason and exports the purchases', async ({ page, request }) => {
  test.setTimeout(240_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await adminDesk(page);

  // The day's cash-up before the sale.
  await openSection(page, 'Reportes');
  const expected = page.getByTestId('expected-cash');
  await expect(expected).toContainText('$');
  const before = cents((await expected.textContent()) ?? '');

  // At the counter: 10 Clases is offered at the price a grant charges (the sale price).
  await openSection(page, 'Recepción');
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('cliente@estudio.demo');
  await page.getByTestId('customer-hit').filter({ hasText: 'cliente@estudio.demo' }).click();
  const card = page.getByTestId('customer-card');
  await card.getByRole('button', { name: 'Agregar acceso' }).click();
  const grant = page.getByRole('dialog', { name: /Agregar acceso/ });
  await grant.getByLabel('Paquete').click();
  await expect(page.getByRole('option', { name: '10 Clases · $1,350.00' })).toBeVisible();
  await page.getByRole('option', { name: '10 Clases · $1,350.00' }).click();
  await grant.getByLabel('Forma de pago').click();
  await page.getByRole('option', { name: 'Efectivo' }).click();
  await grant.getByRole('button', { name: 'Agregar acceso' }).click();
  await grant.getByRole('button', { name: 'Listo' }).click();
  await expect(grant).toHaveCount(0);

  // Reportes: the drawer has $1,350.00 more; cash shows in the split by method.
  const mine = async () => {
    const answer = await request.get(`${serverUrl}/api/purchases`, { headers: { Authorization: `Bearer ${await apiLogin(request, serverUrl, 'cliente@estudio.demo')}` } });
    const list = ((await answer.json()) as { purchases: { purchase_id: number; title: string; total_payment: string }[] }).purchases;
    return list.filter((p) => p.title === '10 Clases').sort((a, b) => b.purchase_id - a.purchase_id)[0];
  };
  await expect.poll(async () => (await mine())?.total_payment, { timeout: 20_000 }).toBe('1350.00');
  const sold = (await mine())!;
  await openSection(page, 'Reportes');
  await expect.poll(async () => cents((await expected.textContent()) ?? ''), { timeout: 20_000 }).toBe(before + 135_000);
  await expect(page.getByTestId('method-cash')).toBeVisible();
  await expect(page.getByTestId('cash-up-lines')).toContainText('Mariana López');
  await shoot(page, 'admin-money-reports', page.getByTestId('cash-up'));

  // Clientes: the owner refunds it; the reason is required.
  await openSection(page, 'Clientes');
  await page.getByTestId('admin-search').fill('cliente@estudio.demo');
  await page.getByTestId('admin-customer-row').filter({ hasText: 'cliente@estudio.demo' }).click();
  const row = page.getByTestId('admin-customer-purchase').filter({ hasText: '10 Clases' }).filter({ hasText: '$1,350.00' }).first();
  await row.getByRole('button', { name: 'Reembolsar' }).click();
  const form = page.getByTestId('refund-form');
  await expect(form.getByTestId('refundable')).toHaveText('$1,350.00');
  await expect(form).toContainText('Entrega el dinero al cliente');
  await shoot(page, 'admin-money-refund', form);
  await page.getByTestId('refund-confirm').click();
  await expect(form.getByText('Escribe el motivo del reembolso (al menos 3 letras).')).toBeVisible();
  await form.getByLabel('Motivo').fill('Se equivocó de paquete');
  await page.getByTestId('refund-confirm').click();
  await expect(page.getByText('Reembolso de $1,350.00 registrado.')).toBeVisible();
  // The purchase reads as what happened to its money (newest first), and the customer's total no longer counts it.
  await expect(page.getByTestId('admin-customer-purchase').filter({ hasText: '10 Clases' }).first()).toContainText('Reembolsada');

  // Reportes: the drawer is back where it was, the refund is listed.
  await openSection(page, 'Reportes');
  await expect.poll(async () => cents((await expected.textContent()) ?? ''), { timeout: 20_000 }).toBe(before);
  await expect(page.getByTestId('refunds-total')).toContainText('$1,350.00');

  // The export of purchases, downloaded and opened: the sale is there, refunded, with its reason.
  const download = page.waitForEvent('download');
  await page.getByTestId('export-purchases').click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^compras_\d{4}-\d\d-\d\d_\d{4}-\d\d-\d\d\.csv$/);
  const rows = readCsv(readFileSync((await file.path()) as string, 'utf8'));
  expect(rows[0]?.slice(0, 3)).toEqual(['ID compra', 'Fecha', 'ID cliente']);
  const line = rows.find((r) => Number(r[0]) === sold.purchase_id);
  expect(line?.slice(3, 10)).toEqual(['Mariana López', 'cliente@estudio.demo', '10 Clases', '1500.00', '1350.00', 'Efectivo', 'Reembolsada']);
  expect(line?.[13]).toBe('Se equivocó de paquete');
  // Attendance too, one row per class of the period.
  const attendance = page.waitForEvent('download');
  await page.getByTestId('export-attendance').click();
  const att = readCsv(readFileSync((await (await attendance).path()) as string, 'utf8'));
  expect(att[0]).toContain('Asistencias');
  expect(att.length).toBeGreaterThan(1);
  await shoot(page, 'admin-money-exports', page.getByTestId('exports'));
  expect(errors).toEqual([]);
});

test('Clientes: the owner registers a new customer, then changes her e-mail', async ({ page, request }) => {
  await adminDesk(page);
  await openSection(page, 'Clientes');
  await page.getByTestId('admin-customer-new').click();
  const form = page.getByRole('dialog', { name: 'Registrar cliente nuevo' });
  const phone = `55${String(Date.now()).slice(-8)}`;
  await form.getByLabel('Nombre').fill('Renata');
  await form.getByLabel('Apellidos').fill('Caja Prueba');
  await form.getByLabel('Teléfono').fill(phone);
  await form.getByLabel('Correo electrónico').fill(`renata.${phone}@prueba.mx`);
  // The documents to accept come once the form has read them: `all()` does not wait.
  await expect(form.getByRole('checkbox').first()).toBeVisible();
  for (const box of await form.getByRole('checkbox').all()) await box.check();
  await form.getByRole('button', { name: 'Registrar' }).click();
  await expect(form).toHaveCount(0);
  const detail = page.getByTestId('admin-customer-detail');
  await expect(detail.getByRole('heading', { name: 'Renata Caja Prueba' })).toBeVisible({ timeout: 15_000 });

  // The edit form has her e-mail: one another account has is refused under the field.
  const edit = page.getByTestId('admin-customer-edit');
  await edit.getByLabel('Correo electrónico').fill('cliente@estudio.demo');
  await edit.getByRole('button', { name: 'Guardar' }).click();
  await expect(edit.getByText('Ya existe una cuenta con ese correo electrónico.')).toBeVisible();
  await edit.getByLabel('Correo electrónico').fill(`renata.nueva.${phone}@prueba.mx`);
  await shoot(page, 'admin-money-customer-edit', edit);
  await edit.getByRole('button', { name: 'Guardar' }).click();
  await expect(page.getByText('El correo del cliente cambió')).toBeVisible();
  await expect(detail).toContainText(`renata.nueva.${phone}@prueba.mx`);
  const staff = await apiLogin(request, serverUrl, 'recepcion@estudio.demo');
  const found = await request.get(`${serverUrl}/api/customer/phone`, { params: { phone }, headers: { Authorization: `Bearer ${staff}` } });
  expect(((await found.json()) as { customer: { email: string } }).customer.email).toBe(`renata.nueva.${phone}@prueba.mx`);
});

test('Descuentos: a code saved without an amount says so under the field, in Spanish', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await adminDesk(page);
  await openSection(page, 'Descuentos');
  await page.getByTestId('discount-new').click();
  const form = page.getByTestId('discount-form');
  await form.getByLabel('Código').fill('SINIMPORTE');
  await page.getByTestId('discount-save').click();
  await expect(form.getByText('Escribe el descuento.')).toBeVisible();
  await shoot(page, 'admin-money-discount', form);
  expect(errors).toEqual([]);
  await form.getByLabel('Descuento (%)').fill('15');
  await page.getByTestId('discount-save').click();
  await expect(form).toBeHidden();
  await expect(page.getByTestId('discount-row').filter({ hasText: 'SINIMPORTE' })).toContainText('15%');
});
