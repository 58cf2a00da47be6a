import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './fixtures.ts';
import { deskLink, deskSignIn, deskWebProcess, repoRoot, serverProcess, stop, waitFor } from './desk-processes.ts';

/**
 * A receptionist's whole shift at the counter, in Chromium against `desk:web`
 * with its own server, once on a 1366×900 screen and once on a 1280×720 one:
 * open the drawer with a float, sell a cart (a package and a water) in cash
 * with the change, a split payment (cash and the card terminal), print the
 * receipt, take back a product, fix a customer's details, leave a note, lose the connection and
 * register a first-time walk-in and sell to her, get it back, and close the
 * drawer short with the reason. Screenshots of each step when SHOTS_DIR is set.
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverPort = basePort + 86;
const deskPort = basePort + 87;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(repoRoot, '.tmp', `desk-whole-shift-e2e-${basePort}`);
const shots = process.env.SHOTS_DIR;

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

test.setTimeout(400_000);
test.use({ actionTimeout: 30_000 });

async function startServer(): Promise<void> {
  server = serverProcess({ port: serverPort, work, env: { START_DESK: '0' } });
  await waitFor(`${serverUrl}/api/health`, 120_000);
}

test.beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 'README'), 'Datos desechables de la prueba del turno completo en recepción.');
  await startServer();
  desk = deskWebProcess({ port: deskPort, work, serverUrl });
  await waitFor(`${deskUrl}/health`, 240_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

const amountOf = (text: string | null) => Number((text ?? '').replace(/[^0-9.]/g, ''));

async function openCustomer(page: Page, query: string, email: string) {
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill(query);
  await page.getByTestId('customer-hit').filter({ hasText: email }).click();
  return page.getByTestId('customer-card');
}

for (const size of [
  { width: 1366, height: 900, walkIn: { name: 'Ximena', phone: '5587651001', email: 'ximena.turno@prueba.mx' } },
  { width: 1280, height: 720, walkIn: { name: 'Paola', phone: '5587651002', email: 'paola.turno@prueba.mx' } },
]) {
  test(`a whole shift at ${size.width}×${size.height}: drawer, cart with change, split payment, receipt, details, note, an offline walk-in, and the close`, async ({ page }) => {
    await page.setViewportSize(size);
    // `phone`: the screen is new, so it is looked at on a phone's 390 px too.
    const shot = async (name: string, phone = false) => {
      if (!shots) return;
      await page.screenshot({ path: path.join(shots, `shift-${name}-${size.width}x${size.height}.png`) });
      if (!phone) return;
      await page.setViewportSize({ width: 390, height: 844 });
      await page.waitForTimeout(300);
      await page.screenshot({ path: path.join(shots, `shift-${name}-390x844.png`) });
      await page.setViewportSize(size);
      await page.waitForTimeout(300);
    };
    await page.goto(deskLink(deskUrl));
    const indicator = page.getByTestId('sync-indicator');
    // The page first asks the desk for its session: the sign-in or the desk shows once it answers, not at once.
    const signIn = page.getByRole('button', { name: 'Entrar' });
    await expect(indicator.or(signIn)).toBeVisible({ timeout: 60_000 });
    if (await signIn.isVisible()) await deskSignIn(page, 'recepcion@estudio.demo');
    await expect(indicator).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
    await expect(page.getByText('Descargando los datos del estudio…')).toHaveCount(0, { timeout: 60_000 });

    // 1. The drawer opens with the float.
    await page.getByRole('tab', { name: 'Caja' }).click();
    const closed = page.getByTestId('cash-drawer-closed');
    await closed.getByLabel('Fondo inicial').fill('500');
    await closed.getByRole('button', { name: 'Abrir caja' }).click();
    const open = page.getByTestId('cash-drawer-open');
    await expect(open.getByTestId('drawer-expected')).toHaveText('$500.00');
    await shot('1-drawer-open');

    // 2. Mariana buys five classes and a water, in cash: the change before charging, then the receipt, printed.
    let card = await openCustomer(page, 'clie', 'cliente@estudio.demo');
    await card.getByRole('button', { name: 'Vender' }).click();
    const sale = page.getByRole('dialog', { name: /Vender a Mariana/ });
    for (const name of [/^5 Clases/, /^Agua natural 600 ml/]) {
      await sale.getByLabel('Agregar a la cuenta').click();
      await page.getByRole('option', { name }).click();
    }
    await sale.getByLabel('Forma de pago').click();
    await page.getByRole('option', { name: 'Efectivo' }).click();
    const cartTotal = amountOf(await sale.getByTestId('sale-total').textContent());
    const tendered = Math.ceil((cartTotal + 1) / 100) * 100;
    await sale.getByLabel('Recibido').fill(String(tendered));
    await expect(sale.getByTestId('cash-change')).toContainText((tendered - cartTotal).toFixed(2));
    await shot('2-cart-change');
    await sale.getByRole('button', { name: /Cobrar/ }).click();
    await expect(sale.getByTestId('receipt-preview')).toContainText('Agua natural 600 ml × 1');
    await page.evaluate(() => {
      (window as unknown as { printed: number }).printed = 0;
      window.print = () => {
        (window as unknown as { printed: number }).printed += 1;
      };
    });
    await sale.getByRole('button', { name: 'Imprimir recibo' }).click();
    expect(await page.evaluate(() => (window as unknown as { printed: number }).printed)).toBe(1);
    await page.emulateMedia({ media: 'print' });
    await expect(page.getByTestId('receipt-print')).toContainText('5 Clases');
    if (shots) await page.getByTestId('receipt-print').screenshot({ path: path.join(shots, `shift-3-receipt-80mm-${size.width}x${size.height}.png`) });
    await page.emulateMedia({ media: 'screen' });
    await shot('3-receipt');
    await sale.getByRole('button', { name: 'Listo' }).click();
    await expect(sale).toHaveCount(0);

    // 3. Grip socks paid $100 in cash and the rest on the card terminal.
    await card.getByRole('button', { name: 'Vender' }).click();
    await sale.getByLabel('Agregar a la cuenta').click();
    await page.getByRole('option', { name: /^Calcetas antiderrapantes/ }).click();
    await sale.getByLabel('Forma de pago').click();
    await page.getByRole('option', { name: 'Tarjeta' }).click();
    await sale.getByTestId('sale-split').click();
    await sale.getByLabel('Parte en efectivo', { exact: true }).fill('100');
    await sale.getByLabel('Recibido').fill('100');
    await sale.getByLabel('Últimos 4 dígitos').fill('5555');
    await sale.getByLabel('Autorización').fill('TURNO1');
    await shot('4-split');
    await sale.getByRole('button', { name: /Cobrar/ }).click();
    await expect(sale.getByTestId('receipt-preview')).toContainText('Efectivo $100.00 + Tarjeta ···· 5555 · aut. TURNO1');
    await sale.getByRole('button', { name: 'Listo' }).click();

    // 4. The water was the wrong one: she brings it back, the money comes out of the drawer and it goes back on the shelf.
    await card.getByTestId('card-products-tab').click();
    const bought = card.getByTestId('product-purchase').filter({ hasText: 'Agua natural 600 ml × 1' }).first();
    await bought.getByRole('button', { name: 'Devolver' }).click();
    const giveBack = page.getByRole('dialog', { name: /^Devolver Agua natural 600 ml/ });
    await giveBack.getByRole('button', { name: 'Registrar devolución' }).click();
    await expect(giveBack.getByText('Escribe por qué se devuelve.')).toBeVisible();
    await giveBack.getByLabel('Motivo').fill('Quería agua mineral.');
    await expect(giveBack.getByTestId('product-return-estimate')).toContainText('$25.00');
    await shot('4b-product-return', true);
    await giveBack.getByRole('button', { name: 'Registrar devolución' }).click();
    await expect(page.getByText('Devolución registrada: entrégale $25.00 en efectivo.')).toBeVisible();
    await expect(bought).toContainText('1 devuelta');
    await shot('4c-products-tab', true);

    // 5. Diego's birth date, which every scan asked for, and a note for the team.
    card = await openCustomer(page, 'nuevo@', 'nuevo@estudio.demo');
    await card.getByRole('button', { name: 'Editar datos' }).click();
    const edit = page.getByRole('dialog', { name: /^Datos de Diego/ }).getByTestId('desk-customer-edit');
    await edit.getByTestId('desk-edit-birthdate').fill('1995-02-14');
    await shot('5-edit');
    await edit.getByRole('button', { name: 'Guardar datos' }).click();
    await expect(page.getByText('Datos del cliente guardados.')).toBeVisible();
    await expect(card.getByText(/Perfil incompleto: falta .*fecha de nacimiento/)).toHaveCount(0, { timeout: 20_000 });
    const notes = card.getByTestId('customer-notes');
    await notes.getByRole('button', { name: 'Agregar nota' }).click();
    const noteDialog = page.getByRole('dialog', { name: 'Agregar nota' });
    await noteDialog.getByLabel('Qué debe saber el equipo').fill(`Prefiere la clase de las 7 (${size.width}).`);
    await noteDialog.getByRole('button', { name: 'Guardar nota' }).click();
    await expect(notes.getByTestId('customer-note').filter({ hasText: `Prefiere la clase de las 7 (${size.width}).` })).toBeVisible();
    await shot('6-note');

    // 6. The internet goes: a first-time walk-in is registered here and buys a class in cash.
    await stop(server);
    await expect(indicator).toHaveAttribute('data-online', 'false', { timeout: 30_000 });
    await page.getByRole('tab', { name: 'Clientes' }).click();
    await page.getByTestId('new-customer').click();
    const form = page.getByRole('dialog', { name: 'Registrar cliente nuevo' });
    await expect(form.getByTestId('register-offline')).toBeVisible();
    await form.getByLabel('Nombre', { exact: true }).fill(size.walkIn.name);
    await form.getByLabel('Apellidos').fill('Sin Conexión');
    await form.getByLabel('Teléfono').fill(size.walkIn.phone);
    await form.getByLabel('Correo electrónico').fill(size.walkIn.email);
    await form.getByTestId('new-customer-birthdate').fill('1998-07-21');
    for (const box of await form.getByRole('checkbox').all()) await box.check();
    await shot('7-walk-in-offline', true);
    await form.getByRole('button', { name: 'Registrar' }).click();
    await expect(form).toHaveCount(0);
    card = page.getByTestId('customer-card');
    await expect(card.getByRole('heading', { name: `${size.walkIn.name} Sin Conexión` })).toBeVisible();
    await card.getByRole('button', { name: 'Vender' }).click();
    const walkInSale = page.getByRole('dialog', { name: new RegExp(`Vender a ${size.walkIn.name}`) });
    await walkInSale.getByLabel('Agregar a la cuenta').click();
    await page.getByRole('option', { name: /^1 Clase/ }).click();
    await walkInSale.getByLabel('Forma de pago').click();
    await page.getByRole('option', { name: 'Efectivo' }).click();
    await walkInSale.getByLabel('Recibido').fill('500');
    await walkInSale.getByRole('button', { name: /Cobrar/ }).click();
    await expect(walkInSale.getByTestId('receipt-preview')).toContainText('1 Clase');
    await walkInSale.getByRole('button', { name: 'Listo' }).click();
    await expect(page.getByTestId('pending-count')).toHaveAccessibleName(/2 cambios sin enviar/);
    await expect(card.getByTestId('credit-total')).toHaveText('1');
    // Her birth date was asked at the counter: her first scan will not warn about her profile.
    await expect(card.getByText(/Perfil incompleto/)).toHaveCount(0);
    await shot('8-walk-in-sold');

    // 7. Back: she is the server's customer now, with her class; the drawer counts her cash.
    await startServer();
    await expect(indicator).toHaveAttribute('data-online', 'true', { timeout: 90_000 });
    await expect(page.getByTestId('pending-count')).toHaveAccessibleName(/Todo enviado/, { timeout: 60_000 });
    await expect(card.getByRole('heading', { name: `${size.walkIn.name} Sin Conexión` })).toBeVisible();
    await expect(card.getByTestId('credit-total')).toHaveText('1');
    await page.getByRole('tab', { name: 'Caja' }).click();
    await expect(open.getByTestId('drawer-lines')).toContainText('1 Clase', { timeout: 20_000 });
    await expect(open.getByTestId('drawer-lines')).toContainText('Calcetas antiderrapantes × 1 (pago dividido)');
    await expect(open.getByTestId('drawer-lines')).toContainText('Agua natural 600 ml × 1 (devolución)');
    const expected = amountOf(await open.getByTestId('drawer-expected').textContent());
    expect(expected).toBeGreaterThan(500 + cartTotal + 100);
    await shot('9-drawer-before-close');

    // 8. Fifty pesos short: closed with what happened.
    await open.getByRole('button', { name: 'Cerrar caja' }).click();
    const closing = page.getByRole('dialog', { name: 'Cerrar la caja' });
    await closing.getByLabel('Efectivo contado').fill((expected - 50).toFixed(2));
    await expect(closing.getByTestId('drawer-difference')).toHaveText('Faltan $50.00');
    await closing.getByLabel('¿Qué pasó con la diferencia?').fill('Se dio cambio de más en la venta sin conexión.');
    await shot('10-drawer-close');
    await closing.getByRole('button', { name: 'Cerrar caja' }).click();
    await expect(closing).toHaveCount(0);
    await expect(page.getByTestId('cash-drawer-last')).toContainText('Faltan $50.00');
    await shot('11-drawer-closed');
  });
}
