import { expect, type APIRequestContext, type Page } from '@playwright/test';

export interface ShopPackage {
  class_package_id: number;
  title: string;
  price: string;
  sale_price: string | null;
  free_trial_length: number | null;
  is_subscription: boolean;
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
export async function signUpInline(page: Page, name: string, options: { free?: boolean } = {}): Promise<string> {
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
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  // Signed in: the form gives way to the payment choices (cash first, the demo's default) or the free offer.
  await expect(page.getByRole('heading', { name: 'Crea tu cuenta' })).toBeHidden();
  if (options.free) await expect(page.getByRole('button', { name: 'Obtener Oferta' })).toBeVisible();
  else await expect(page.getByRole('radio', { name: /Efectivo/ })).toBeChecked();
  return email;
}

/** Picks 'Tarjeta', accepts the studio's documents and types a card into the sandbox form. */
export async function fillSandboxCard(page: Page, number: string): Promise<void> {
  await page.getByRole('radio', { name: /^(Tarjeta|Nueva tarjeta)$/ }).check();
  const documents = page.getByRole('checkbox', { name: /Acepto los siguientes documentos/ });
  if (await documents.count()) await documents.check();
  const pay = page.getByRole('button', { name: 'Pagar Ahora' });
  // Spec §5: 'Pagar Ahora' stays disabled while the card is empty.
  await expect(pay).toBeDisabled();
  await page.getByLabel('Número de tarjeta').fill(number);
  await page.getByLabel('Vencimiento (MM/AAAA)').fill('12/2031');
  await page.getByLabel('CVC').fill('123');
  await expect(pay).toBeEnabled();
}
