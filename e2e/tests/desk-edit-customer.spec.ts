import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures.ts';
import { deskLink, deskSignIn, deskWebProcess, repoRoot, serverProcess, stop, waitFor } from './desk-processes.ts';

/**
 * Recepción edits a customer at the counter (decision 107): the new
 * customer's missing phone and birth date that every scan warned about are
 * filled in with his answers to the studio's questions (the health one with
 * his consent), the warning goes, and the change is in the card's Actividad;
 * the e-mail she signs in with is the owner's to change.
 * Photographed at 1366×900 and 1280×720 when SHOTS_DIR is set.
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverPort = basePort + 74;
const deskPort = basePort + 75;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(repoRoot, '.tmp', `desk-edit-customer-e2e-${basePort}`);

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

test.setTimeout(240_000);

test.beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  server = serverProcess({ port: serverPort, work, env: { START_DESK: '0' } });
  await waitFor(`${serverUrl}/api/health`, 120_000);
  desk = deskWebProcess({ port: deskPort, work, serverUrl });
  await waitFor(`${deskUrl}/health`, 180_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

test("reception fills a new customer's phone and birth date: the card's warning goes and Actividad has the change", async ({ page }) => {
  await page.goto(deskLink(deskUrl));
  await deskSignIn(page, 'recepcion@estudio.demo');
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  await expect(page.getByText('Descargando los datos del estudio…')).toHaveCount(0, { timeout: 60_000 });
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('nuevo@');
  await page.getByTestId('customer-hit').filter({ hasText: 'nuevo@estudio.demo' }).click();
  const card = page.getByTestId('customer-card');
  await expect(card.getByText(/Perfil incompleto: falta .*fecha de nacimiento/)).toBeVisible();

  await card.getByRole('button', { name: 'Editar datos' }).click();
  const dialog = page.getByRole('dialog', { name: /^Datos de Diego/ });
  const form = dialog.getByTestId('desk-customer-edit');
  // He signs in with this e-mail: reception cannot change it, and the refusal says so by name; nothing is saved.
  const email = form.getByLabel('Correo electrónico');
  await email.fill('diego.nuevo@estudio.demo');
  await form.getByRole('button', { name: 'Guardar datos' }).click();
  await expect(form.getByText('Recepción no puede cambiar «Correo electrónico» de un cliente; pídeselo a un administrador.')).toBeVisible();
  await email.fill('nuevo@estudio.demo');
  await form.getByLabel('Teléfono', { exact: true }).fill('55 1298 7654');
  await form.getByTestId('desk-edit-birthdate').fill('1995-02-14');
  // His photo, taken at the counter, so the scan shows his face.
  await form.getByLabel('Tomar o elegir foto').setInputFiles(path.join(repoRoot, 'portal/public/demo/coaches/daniela.jpg'));
  await expect(form.getByText('Foto lista: se guarda con «Guardar datos».')).toBeVisible({ timeout: 20_000 });
  await expect(form.getByTestId('desk-edit-photo')).toHaveAttribute('data-photo', 'new');
  // The studio's questions, answered with him at the counter: a health answer needs his consent, given there.
  const questions = form.getByTestId('desk-edit-questions');
  await questions.getByLabel(/^Contacto de emergencia/).fill('Lucía Pérez (hermana) 55 2222 3333');
  await questions.getByLabel(/^Lesiones o condiciones médicas/).fill('Asma leve: trae su inhalador.');
  await form.getByRole('button', { name: 'Guardar datos' }).click();
  await expect(form.getByText('Para guardar un dato de salud, el cliente debe dar su consentimiento: marca la casilla.')).toBeVisible();
  await expect(dialog).toBeVisible();
  await form.getByRole('checkbox', { name: /consentimiento expreso/ }).check();
  const shots = process.env.SHOTS_DIR;
  for (const [width, height] of [
    [1366, 900],
    [1280, 720],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    if (shots) await page.screenshot({ path: `${shots}/desk-edit-customer-${width}x${height}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await form.getByRole('button', { name: 'Guardar datos' }).click();
  await expect(page.getByText('Datos del cliente guardados.')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(card).toContainText('5512987654', { timeout: 20_000 });
  await expect(card.getByText(/Perfil incompleto: falta .*fecha de nacimiento/)).toHaveCount(0, { timeout: 20_000 });
  await expect(card.getByTestId('card-avatar')).toHaveAttribute('data-photo', 'yes', { timeout: 20_000 });
  const answers = card.getByTestId('customer-answers');
  await expect(answers.locator('[data-answer="emergency_contact"]')).toContainText('Lucía Pérez (hermana) 55 2222 3333');
  await expect(answers.locator('[data-answer="health_notes"]')).toContainText('Asma leve: trae su inhalador.');
  await expect(answers.locator('[data-answer="health_notes"]')).toContainText(/consentimiento/i);
  for (const [width, height] of [[1366, 900], [1280, 720], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    if (shots) await answers.screenshot({ path: `${shots}/desk-edit-customer-answers-${width}x${height}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 720 });

  await card.getByTestId('card-activity-tab').click();
  await expect(card.getByText(/Recepción|Sofía|recepcion/i).first()).toBeVisible();
  if (shots) await page.screenshot({ path: `${shots}/desk-edit-customer-activity-1280x720.png` });
});

test('reception writes an alert and a health note on a customer, and removes its own alert', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  // The desk keeps the receptionist's session from the test before.
  await page.goto(deskLink(deskUrl));
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('nuevo@');
  await page.getByTestId('customer-hit').filter({ hasText: 'nuevo@estudio.demo' }).click();
  const card = page.getByTestId('customer-card');
  const notes = card.getByTestId('customer-notes');
  await expect(notes.getByText('Sin notas.')).toBeVisible();

  await notes.getByRole('button', { name: 'Agregar nota' }).click();
  const dialog = page.getByRole('dialog', { name: 'Agregar nota' });
  // Empty: said in words, nothing saved.
  await dialog.getByRole('button', { name: 'Guardar nota' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Escribe la nota.');
  await dialog.getByLabel('Qué debe saber el equipo').fill('Debe $150 de la clase del sábado: cobrar antes de pasar.');
  const shots = process.env.SHOTS_DIR;
  for (const [width, height] of [[1366, 900], [1280, 720], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    if (shots) await page.screenshot({ path: `${shots}/desk-note-add-${width}x${height}.png` });
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  await dialog.getByRole('button', { name: 'Guardar nota' }).click();
  await expect(dialog).toHaveCount(0);
  const alert = notes.getByTestId('customer-note').filter({ hasText: 'Debe $150' });
  await expect(alert).toHaveAttribute('data-note-kind', 'alert');
  // Sent and back from the server with who wrote it.
  await expect(alert).toContainText('Andrea Torres', { timeout: 20_000 });

  await notes.getByRole('button', { name: 'Agregar nota' }).click();
  await dialog.locator('label').filter({ hasText: /^Salud$/ }).click();
  await expect(dialog.getByText('Confidencial: la ven recepción, administración y el coach de sus clases.')).toBeVisible();
  await dialog.getByLabel('Qué debe saber el equipo').fill('Operado de la rodilla izquierda en octubre: sin saltos.');
  await dialog.getByRole('button', { name: 'Guardar nota' }).click();
  await expect(dialog).toHaveCount(0);
  const health = notes.getByTestId('customer-note').filter({ hasText: 'rodilla izquierda' });
  await expect(health).toHaveAttribute('data-note-kind', 'health');
  // Alerts first, then health notes.
  await expect(notes.getByTestId('customer-note').first()).toHaveAttribute('data-note-kind', 'alert');
  for (const [width, height] of [[1366, 900], [1280, 720], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    if (shots) await notes.screenshot({ path: `${shots}/desk-notes-${width}x${height}.png` });
  }
  await page.setViewportSize({ width: 1366, height: 900 });

  await alert.getByRole('button', { name: 'Quitar alerta' }).click();
  const confirm = page.getByRole('dialog', { name: 'Quitar alerta' });
  await confirm.getByRole('button', { name: 'Quitar nota' }).click();
  await expect(notes.getByTestId('customer-note').filter({ hasText: 'Debe $150' })).toHaveCount(0);
  await expect(health).toBeVisible();
});

test('reception opens its drawer, sells in cash, by card and a cart with a code, and closes it short with the reason', async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto(deskLink(deskUrl));
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  const shots = process.env.SHOTS_DIR;
  const photograph = async (name: string) => {
    for (const [width, height] of [[1366, 900], [1280, 720], [390, 844]] as const) {
      await page.setViewportSize({ width, height });
      if (shots) await page.screenshot({ path: `${shots}/${name}-${width}x${height}.png` });
    }
    await page.setViewportSize({ width: 1366, height: 900 });
  };
  await page.getByRole('tab', { name: 'Caja' }).click();
  const closed = page.getByTestId('cash-drawer-closed');
  await expect(closed.getByText('La caja está cerrada')).toBeVisible();
  await closed.getByLabel('Fondo inicial').fill('quinientos');
  await closed.getByRole('button', { name: 'Abrir caja' }).click();
  await expect(closed.getByText('Escribe el fondo inicial en pesos, con hasta dos decimales.')).toBeVisible();
  await closed.getByLabel('Fondo inicial').fill('500');
  await photograph('desk-drawer-closed');
  await closed.getByRole('button', { name: 'Abrir caja' }).click();
  const open = page.getByTestId('cash-drawer-open');
  await expect(open.getByTestId('drawer-expected')).toHaveText('$500.00');

  // A cash sale at the counter goes into the drawer.
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('nuevo@');
  await page.getByTestId('customer-hit').filter({ hasText: 'nuevo@estudio.demo' }).click();
  const card = page.getByTestId('customer-card');
  await card.getByRole('button', { name: 'Agregar acceso' }).click();
  const grant = page.getByRole('dialog', { name: /Agregar acceso/ });
  await grant.getByLabel('Paquete').click();
  await page.getByRole('option', { name: /^5 Clases/ }).click();
  await grant.getByLabel('Forma de pago').click();
  await page.getByRole('option', { name: 'Efectivo' }).click();
  // What the customer hands over, and the change, before the sale is recorded.
  await grant.getByLabel('Recibido').fill('500');
  await expect(grant.getByText('Faltan $300.00 para el total.')).toBeVisible();
  await grant.getByLabel('Recibido').fill('1000');
  await expect(grant.getByTestId('cash-change')).toHaveText('Cambio: $200.00');
  await photograph('desk-sale-change');
  await grant.getByRole('button', { name: 'Agregar acceso' }).click();
  // The receipt, on screen and for the counter's 80 mm printer.
  await expect(grant.getByTestId('receipt-preview')).toContainText('5 Clases');
  await expect(grant.getByTestId('receipt-change')).toContainText('$200.00');
  await page.evaluate(() => {
    (window as unknown as { printed: number }).printed = 0;
    window.print = () => {
      (window as unknown as { printed: number }).printed += 1;
    };
  });
  await photograph('desk-sale-receipt');
  await grant.getByRole('button', { name: 'Imprimir recibo' }).click();
  expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
  await page.emulateMedia({ media: 'print' });
  await expect(page.getByTestId('receipt-print')).toContainText('Este comprobante no es una factura (CFDI).');
  if (shots) await page.getByTestId('receipt-print').screenshot({ path: `${shots}/desk-receipt-80mm.png` });
  await page.emulateMedia({ media: 'screen' });
  await grant.getByRole('button', { name: 'Listo' }).click();
  await expect(grant).toHaveCount(0);

  // A card on the counter's terminal: the slip's last digits and authorization go with the sale, beside the drawer.
  await card.getByRole('button', { name: 'Agregar acceso' }).click();
  await grant.getByLabel('Paquete').click();
  await page.getByRole('option', { name: /^1 Clase/ }).click();
  await grant.getByLabel('Forma de pago').click();
  await page.getByRole('option', { name: 'Tarjeta' }).click();
  await grant.getByRole('button', { name: 'Agregar acceso' }).click();
  await expect(grant.getByText('Escribe los últimos 4 dígitos de la tarjeta.')).toBeVisible();
  await grant.getByLabel('Últimos 4 dígitos').fill('4242');
  await grant.getByLabel('Autorización').fill('A1B2C3');
  await photograph('desk-sale-terminal');
  await grant.getByRole('button', { name: 'Agregar acceso' }).click();
  await expect(grant.getByTestId('receipt-preview')).toContainText('Tarjeta ···· 4242 · aut. A1B2C3');
  await grant.getByRole('button', { name: 'Listo' }).click();
  await expect(grant).toHaveCount(0);

  // The counter's cart: a package with a discount code and two waters, paid in cash with the change.
  await card.getByRole('button', { name: 'Vender' }).click();
  const sale = page.getByRole('dialog', { name: /Vender a/ });
  await sale.getByRole('button', { name: /Cobrar/ }).click();
  await expect(sale.getByText('La cuenta está vacía: agrega un paquete o un producto.')).toBeVisible();
  const add = async (name: RegExp) => {
    await sale.getByLabel('Agregar a la cuenta').click();
    await page.getByRole('option', { name }).click();
  };
  await add(/^10 Clases/);
  await add(/^Agua natural 600 ml/);
  await add(/^Agua natural 600 ml/);
  await expect(sale.getByLabel('Piezas: Agua natural 600 ml')).toHaveValue('2');
  const listTotal = await sale.getByTestId('sale-total').textContent();
  await sale.getByLabel('Código de descuento').fill('nocodigo');
  await sale.getByRole('button', { name: 'Aplicar' }).click();
  await expect(sale.getByText('Ese código de descuento no existe, venció o está apagado.')).toBeVisible();
  await sale.getByLabel('Código de descuento').fill('verano200');
  await sale.getByRole('button', { name: 'Aplicar' }).click();
  await expect(sale.getByTestId('sale-code-applied')).toHaveText('Código VERANO200: ahorra $200.00');
  const total = Number(((await sale.getByTestId('sale-total').textContent()) ?? '').replace(/[$,]/g, ''));
  expect(total).toBe(Number((listTotal ?? '').replace(/[$,]/g, '')) - 200);
  await sale.getByLabel('Forma de pago').click();
  await page.getByRole('option', { name: 'Efectivo' }).click();
  await sale.getByLabel('Recibido').fill(String(Math.ceil(total / 100) * 100));
  await expect(sale.getByTestId('cash-change')).toBeVisible();
  await photograph('desk-cart-sale');
  await sale.getByRole('button', { name: /Cobrar/ }).click();
  await expect(sale.getByTestId('receipt-preview')).toContainText('10 Clases (con VERANO200)');
  await expect(sale.getByTestId('receipt-preview')).toContainText('Agua natural 600 ml × 2');
  await expect(sale.getByTestId('receipt-preview')).toContainText('$50.00');
  await photograph('desk-cart-receipt');
  await sale.getByRole('button', { name: 'Listo' }).click();
  await expect(sale).toHaveCount(0);

  // A split payment: part in cash (with the change), the rest on the card with its slip.
  await card.getByRole('button', { name: 'Vender' }).click();
  await add(/^Calcetas antiderrapantes/);
  await sale.getByLabel('Forma de pago').click();
  await page.getByRole('option', { name: 'Tarjeta' }).click();
  await sale.getByTestId('sale-split').click();
  await sale.getByLabel('Parte en efectivo', { exact: true }).fill('180');
  await expect(sale.getByText('La parte en efectivo debe ser mayor que $0 y menor que el total de la venta.')).toBeVisible();
  await sale.getByLabel('Parte en efectivo', { exact: true }).fill('100');
  await expect(sale.getByTestId('sale-card-rest')).toHaveText('Con tarjeta: $80.00');
  await sale.getByLabel('Recibido').fill('200');
  await expect(sale.getByTestId('cash-change')).toHaveText('Cambio: $100.00');
  await sale.getByLabel('Últimos 4 dígitos').fill('5555');
  await sale.getByLabel('Autorización').fill('DIV123');
  await photograph('desk-split-sale');
  await sale.getByRole('button', { name: /Cobrar \$180\.00/ }).click();
  await expect(sale.getByTestId('receipt-preview')).toContainText('Efectivo $100.00 + Tarjeta ···· 5555 · aut. DIV123 $80.00');
  await photograph('desk-split-receipt');
  await sale.getByRole('button', { name: 'Listo' }).click();
  await expect(sale).toHaveCount(0);
  await expect(page.getByTestId('pending-count')).toHaveAttribute('aria-label', 'Todo enviado', { timeout: 20_000 });

  await page.getByRole('tab', { name: 'Caja' }).click();
  await expect(open.getByTestId('drawer-lines')).toContainText('5 Clases', { timeout: 20_000 });
  await expect(open.getByTestId('drawer-lines')).toContainText('Tarjeta ···· 4242 · aut. A1B2C3');
  await expect(open.getByTestId('drawer-lines')).toContainText('Agua natural 600 ml × 2');
  await expect(open.getByTestId('drawer-lines')).toContainText('Calcetas antiderrapantes × 1 (pago dividido)');
  const expectedText = (await open.getByTestId('drawer-expected').textContent()) ?? '';
  const expected = Number(expectedText.replace(/[$,]/g, ''));
  expect(expected).toBeGreaterThan(500);
  await photograph('desk-drawer-open');

  await open.getByRole('button', { name: 'Cerrar caja' }).click();
  const closing = page.getByRole('dialog', { name: 'Cerrar la caja' });
  await closing.getByLabel('Efectivo contado').fill(String(expected - 50));
  await expect(closing.getByTestId('drawer-difference')).toHaveText('Faltan $50.00');
  await closing.getByRole('button', { name: 'Cerrar caja' }).click();
  await expect(closing.getByText('La caja no cuadra: escribe qué pasó con la diferencia antes de cerrar.')).toBeVisible();
  await closing.getByLabel('¿Qué pasó con la diferencia?').fill('Se dio cambio de más a una clienta.');
  await photograph('desk-drawer-close');
  await closing.getByRole('button', { name: 'Cerrar caja' }).click();
  await expect(closing).toHaveCount(0);
  await expect(page.getByTestId('cash-drawer-last')).toContainText('Faltan $50.00');
  await expect(closed).toBeVisible();

  // The owner sees every drawer of the day in Reportes, with the difference and why.
  await page.locator('header').getByRole('button', { name: 'Cerrar sesión' }).click();
  await deskSignIn(page, 'admin@estudio.demo');
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 90_000 });
  await page.getByTestId('admin-nav').getByRole('button', { name: 'Reportes' }).click();
  const row = page.getByTestId('cash-shifts').getByTestId('cash-shift-row').filter({ hasText: 'Andrea Torres' });
  await expect(row).toContainText('Faltan $50.00', { timeout: 30_000 });
  await expect(row).toContainText('Se dio cambio de más a una clienta.');
  for (const [width, height] of [[1366, 900], [1280, 720], [390, 844]] as const) {
    await page.setViewportSize({ width, height });
    if (shots) await page.getByTestId('cash-up').screenshot({ path: `${shots}/desk-drawer-owner-${width}x${height}.png` });
  }
});
