import { expect, test } from './fixtures.ts';
import { apiLogin } from './desk-processes.ts';
import { adminStudio, openSection } from './admin-studio.ts';
import { shootDesk } from './shots.ts';

/**
 * The owner's products at the counter, in the desk's admin console (desk:web
 * in Chromium) against its own server: she adds water with its stock, reads
 * why a price in words is refused, changes the price and the stock, sees grip
 * socks not counted and a towel sold out beside it, and deletes the water.
 */
const { serverUrl, adminDesk } = adminStudio('admin-products', 72);

test('the owner adds water with its stock, edits it, sees it listed beside a sold-out towel, and deletes it', async ({ page, request }) => {
  const water = `Agua 600 ml ${Date.now() % 100000}`;
  // The demo studio's products (a towel rental not counted among them), and a towel the owner added from another computer, sold out.
  const owner = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  for (const data of [{ name: 'Toalla de microfibra', price: '250', stock: 0 }]) {
    const made = await request.post(`${serverUrl}/api/products`, { headers: { Authorization: `Bearer ${owner}` }, data });
    expect(made.ok(), await made.text()).toBeTruthy();
  }

  await adminDesk(page);
  await openSection(page, 'Productos');
  const screen = page.getByTestId('admin-products');
  const rows = screen.getByTestId('product-row');
  await expect(rows.filter({ hasText: 'Renta de toalla' })).toContainText('Sin control');
  await expect(rows.filter({ hasText: 'Calcetas antiderrapantes' })).toContainText('10 piezas');
  await expect(rows.filter({ hasText: 'Toalla de microfibra' }).getByTestId('product-sold-out')).toHaveText('Agotado');

  // Nothing typed: each field says what it needs, in Spanish.
  await page.getByTestId('product-new').click();
  const form = page.getByTestId('product-form');
  await page.getByTestId('product-save').click();
  await expect(form.getByText('Escribe el nombre del producto.')).toBeVisible();
  await expect(form.getByText('Escribe el precio en pesos, con hasta dos decimales.')).toBeVisible();
  await expect(form.getByText('Escribe las piezas en existencia como un número entero.')).toBeVisible();
  await form.getByLabel('Nombre').fill(water);
  await form.getByLabel('Precio (MXN)').fill('quinientos');
  await page.getByTestId('product-save').click();
  await expect(form.getByText('Escribe el precio en pesos, con hasta dos decimales.')).toBeVisible();
  await expect(form.getByText('Escribe el nombre del producto.')).toBeHidden();
  await expect(form).not.toContainText('price');
  await shootDesk(page, 'admin-products-form-errors', form);

  await form.getByLabel('Precio (MXN)').fill('25');
  await form.getByLabel('Existencias (piezas)').fill('48');
  await page.getByTestId('product-save').click();
  await expect(form).toBeHidden();
  await expect(page.getByText('Producto creado.')).toBeVisible();
  const row = rows.filter({ hasText: water });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('$25.00');
  await expect(row).toContainText('48 piezas');
  await expect(row).toContainText('Disponible');
  // Listed by name: the new water first ('Agua 600…' before 'Agua natural…').
  await expect(rows.first()).toContainText(water);

  // The same name again is refused under the name itself.
  await page.getByTestId('product-new').click();
  await form.getByLabel('Nombre').fill(water.toUpperCase());
  await form.getByLabel('Precio (MXN)').fill('30');
  await form.getByLabel('Existencias (piezas)').fill('1');
  await page.getByTestId('product-save').click();
  await expect(form.getByText('Ya hay un producto con este nombre.')).toBeVisible();
  await form.getByRole('button', { name: 'Cancelar' }).click();
  await expect(form).toBeHidden();

  // A new price and the last bottles sold: the row reads Agotado.
  await row.getByRole('button', { name: `Editar ${water}` }).click();
  await expect(form.getByLabel('Existencias (piezas)')).toHaveValue('48');
  await form.getByLabel('Precio (MXN)').fill('28.50');
  await form.getByLabel('Existencias (piezas)').fill('0');
  await page.getByTestId('product-save').click();
  await expect(form).toBeHidden();
  await expect(row).toContainText('$28.50');
  await expect(row.getByTestId('product-sold-out')).toHaveText('Agotado');
  await shootDesk(page, 'admin-products-list', screen);

  // Stock no longer counted, and off the counter.
  await row.getByRole('button', { name: `Editar ${water}` }).click();
  await form.getByTestId('product-counted').click({ force: true });
  await expect(form.getByLabel('Existencias (piezas)')).toHaveCount(0);
  await form.getByTestId('product-available').click({ force: true });
  await page.getByTestId('product-save').click();
  await expect(form).toBeHidden();
  await expect(row).toContainText('Sin control');
  await expect(row).toContainText('Oculto');
  const listed = await request.get(`${serverUrl}/api/products`, { headers: { Authorization: `Bearer ${owner}` } });
  const stored = ((await listed.json()) as { products: { name: string; price: string; stock: number | null; available: boolean }[] }).products.find((p) => p.name === water);
  expect(stored).toMatchObject({ price: '28.50', stock: null, available: false });

  // Deleted, after saying what happens.
  await row.getByRole('button', { name: `Eliminar ${water}` }).click();
  const confirm = page.getByRole('dialog', { name: `Eliminar ${water}` });
  await expect(confirm.getByTestId('product-remove-text')).toContainText('Se eliminará el producto.');
  await shootDesk(page, 'admin-products-delete', confirm, { fullPage: false });
  await confirm.getByTestId('confirm-button').click();
  await expect(page.getByText('Producto eliminado.')).toBeVisible();
  await expect(row).toHaveCount(0);
  await expect(rows).toHaveCount(4);
});
