import { expect, type APIRequestContext, type Locator, type Page } from './fixtures.ts';
import { shoot } from './shots.ts';

export interface ShopPackage {
  class_package_id: number;
  title: string;
  price: string;
  sale_price: string | null;
  free_trial_length: number | null;
  is_subscription: boolean;
  is_special_event: boolean;
  event_date: string | null;
}

/** The demo shop's packages (GET /api/class_packages). */
export async function shopPackages(request: APIRequestContext): Promise<ShopPackage[]> {
  const answer = await request.get('/api/class_packages');
  expect(answer.ok()).toBeTruthy();
  return ((await answer.json()) as { class_packages: ShopPackage[] }).class_packages;
}

export async function packageId(request: APIRequestContext, title: string): Promise<number> {
  const found = (await shopPackages(request)).find((p) => p.title === title);
  expect(found, `package ${title}`).toBeDefined();
  return (found as ShopPackage).class_package_id;
}

/** A fresh visitor signs up in the checkout's inline form; the session starts on the same page. */
export async function signUpInline(page: Page, name: string, options: { free?: boolean; trial?: boolean } = {}): Promise<string> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  const email = `${name.toLowerCase()}.${stamp}@ejemplo.mx`;
  await expect(page.getByRole('heading', { name: 'Crea tu cuenta' })).toBeVisible();
  await page.getByLabel('Nombre').fill(name);
  await page.getByLabel('Apellido').fill('Compradora');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Teléfono').fill(`56${stamp.slice(-8)}`);
  await page.getByLabel('Fecha de nacimiento').fill('1992-03-14');
  await page.getByLabel('Contraseña', { exact: true }).fill('Compra2024');
  await page.getByLabel('Confirma tu contraseña').fill('Compra2024');
  await page.getByRole('checkbox', { name: /^Acepto/ }).check();
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  // Signed in: the form gives way to the payment choices (cash first, the demo's default; card for a free trial) or the free offer.
  await expect(page.getByRole('heading', { name: 'Crea tu cuenta' })).toBeHidden();
  if (options.free) await expect(page.getByRole('button', { name: 'Obtener Oferta' })).toBeVisible();
  else if (options.trial) await expect(page.getByRole('radio', { name: /^Tarjeta$/ })).toBeChecked();
  else await expect(page.getByRole('radio', { name: /Efectivo/ })).toBeChecked();
  return email;
}

/** Picks 'Tarjeta', accepts the studio's documents and types a card into the sandbox form ('Pagar Ahora', or `pay` for a trial). */
export async function fillSandboxCard(page: Page, number: string, { pay: payLabel = 'Pagar Ahora' } = {}): Promise<void> {
  await page.getByRole('radio', { name: /^(Tarjeta|Nueva tarjeta)$/ }).check();
  const documents = page.getByRole('checkbox', { name: /Acepto los siguientes documentos/ });
  if (await documents.count()) await documents.check();
  const pay = page.getByRole('button', { name: payLabel });
  // Spec §5: 'Pagar Ahora' stays disabled while the card is empty.
  await expect(pay).toBeDisabled();
  await page.getByLabel('Número de tarjeta').fill(number);
  await page.getByLabel('Vencimiento (MM/AA)').fill('12/2031');
  await page.getByLabel('CVC').fill('123');
  await expect(pay).toBeEnabled();
}

/** The two sizes every checkout screen is checked at: a phone and a laptop. */
export const checkoutSizes = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'laptop', width: 1366, height: 900 },
] as const;

/** shoot() in the middle of a test: the pictures at both sizes, then the test goes on at the size it was using. */
export async function shootHere(page: Page, name: string, target?: Locator): Promise<void> {
  const size = page.viewportSize();
  await shoot(page, name, target);
  if (size) await page.setViewportSize(size);
}
