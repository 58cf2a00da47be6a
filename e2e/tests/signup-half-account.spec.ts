import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { expectSignedIn, signIn } from './helpers.ts';

/**
 * Break 6: a sign-up whose phone is refused has already created the
 * identity. The person must be able to finish it — by correcting the phone,
 * by signing up again later, or by signing in — and never be stuck between
 * 'Ya tienes una cuenta' and 'No encontramos tu cuenta de cliente.'.
 */
const alert = (page: Page, text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text });
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-8);

/** A complete account that owns `phone`, made through the API. */
async function accountWithPhone(request: APIRequestContext, phone: string): Promise<void> {
  const email = `duena.${stamp()}@ejemplo.mx`;
  const identity = await request.post('/api/auth/signup', { data: { email, password: 'Duena2024!' } });
  const { idToken } = (await identity.json()) as { idToken: string };
  const pages = (await (await request.get('/api/pages')).json()) as { pages: { page_id: number; required: boolean }[] };
  const customer = await request.post('/api/customer/signup', {
    headers: { authorization: `Bearer ${idToken}` },
    data: { email, name: 'Dueña', last_name: 'Teléfono', phone, birthdate: '1990-01-01', accepted_page_ids: pages.pages.filter((p) => p.required).map((p) => p.page_id) },
  });
  expect(customer.ok(), await customer.text()).toBeTruthy();
}

async function fillSignup(page: Page, { email, phone, password }: { email: string; phone: string; password: string }) {
  await page.getByLabel('Nombre').fill('Renata');
  await page.getByLabel('Apellido').fill('Mitad');
  await page.getByLabel('Correo electrónico').fill(email);
  await page.getByLabel('Teléfono').fill(phone);
  await page.getByLabel('Fecha de nacimiento').fill('1995-03-08');
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByLabel('Confirma tu contraseña').fill(password);
  await page.getByRole('checkbox', { name: /^Acepto/ }).check();
}

/** Signs up with a phone another account has: refused by the phone field, the identity already exists. */
async function refusedSignup(page: Page, request: APIRequestContext, email: string, password: string) {
  const taken = `56${stamp()}`;
  await accountWithPhone(request, taken);
  await page.goto('/registro');
  await fillSignup(page, { email, phone: taken, password });
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  await expect(page.getByLabel('Teléfono')).toHaveAccessibleDescription(/Ya existe una cuenta con ese número de teléfono/);
  // The message under the field, and one alert that points to it (never the same words twice).
  await expect(alert(page, 'Revisa el campo: Teléfono')).toBeVisible();
}

test.describe('Registro que se detuvo a la mitad', () => {
  test('correcting the phone on the same page completes the account, and signing in afterwards works', async ({ page, request }) => {
    const email = `renata.${stamp()}@ejemplo.mx`;
    await refusedSignup(page, request, email, 'Renata2024!');
    await page.getByLabel('Teléfono').fill(`57${stamp()}`);
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expectSignedIn(page, /Renata/);

    await page.evaluate(() => localStorage.clear());
    await signIn(page, email, 'Renata2024!');
    await expectSignedIn(page, /Renata/);
  });

  test('signing up again later with the same e-mail and password finishes the account instead of saying it exists', async ({ page, request }) => {
    const email = `renata.${stamp()}@ejemplo.mx`;
    await refusedSignup(page, request, email, 'Renata2024!');
    // The tab is closed; another day the person starts over.
    await page.reload();
    await fillSignup(page, { email, phone: `57${stamp()}`, password: 'Renata2024!' });
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expectSignedIn(page, /Renata/);
    await expect(alert(page, 'Ya tienes una cuenta con nosotros')).toHaveCount(0);
  });

  test('signing in with the half account leads to finishing the profile, not to a dead end', async ({ page, request }) => {
    const email = `renata.${stamp()}@ejemplo.mx`;
    await refusedSignup(page, request, email, 'Renata2024!');
    await signIn(page, email, 'Renata2024!');
    await expect(page).toHaveURL(/\/registro$/);
    const form = page.getByRole('form', { name: 'Completa tu registro' });
    await expect(form.getByText(`Tu cuenta ${email} ya existe, pero faltan tus datos.`)).toBeVisible();
    await expect(alert(page, 'No encontramos tu cuenta de cliente.')).toHaveCount(0);
    await expect(form.getByLabel('Correo electrónico')).toHaveValue(email);
    await expect(form.getByLabel('Contraseña', { exact: true })).toHaveCount(0);

    await form.getByLabel('Nombre').fill('Renata');
    await form.getByLabel('Apellido').fill('Mitad');
    await form.getByLabel('Teléfono').fill(`58${stamp()}`);
    await form.getByLabel('Fecha de nacimiento').fill('1995-03-08');
    await form.getByRole('checkbox', { name: /^Acepto/ }).check();
    await form.getByRole('button', { name: 'Terminar registro' }).click();
    await expectSignedIn(page, /Renata/);

    await page.evaluate(() => localStorage.clear());
    await signIn(page, email, 'Renata2024!');
    await expectSignedIn(page, /Renata/);
  });

  test('someone else\'s e-mail with a wrong password is still told the account exists', async ({ page }) => {
    await page.goto('/registro');
    await fillSignup(page, { email: 'cliente@estudio.demo', phone: `59${stamp()}`, password: 'NoEsSuya2024' });
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(alert(page, 'Ya tienes una cuenta con nosotros. Por favor, inicia sesión.')).toBeVisible();
    await expect(page).toHaveURL(/\/registro$/);
  });
});
