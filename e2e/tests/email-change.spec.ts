import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { signIn } from './helpers.ts';

const password = 'Secreta1';
const alert = (page: Page, text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text });

/** A fresh account (identity and customer) made through the API, as the sign-up page makes it. */
async function freshAccount(request: APIRequestContext): Promise<string> {
  const stamp = `${Date.now()}`;
  const email = `cambio.${stamp}@correo.mx`;
  const signedUp = await request.post('/api/auth/signup', { data: { email, password } });
  expect(signedUp.status()).toBe(200);
  const { idToken } = (await signedUp.json()) as { idToken: string };
  const pages = (await (await request.get('/api/pages')).json()) as { pages: { page_id: number; required: boolean }[] };
  const customer = await request.post('/api/customer/signup', {
    headers: { authorization: `Bearer ${idToken}` },
    data: { name: 'Renata', last_name: 'Salas', phone: `57${stamp.slice(-8)}`, email, accepted_page_ids: pages.pages.filter((p) => p.required).map((p) => p.page_id) },
  });
  expect(customer.status()).toBe(200);
  return email;
}

test.describe('Cambio de correo', () => {
  test('a customer asks for a new e-mail in Mi Información and is told the truth: the link cannot reach her while the studio sends no e-mail', async ({ page, request }) => {
    const email = await freshAccount(request);
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/mystudio$/);
    await page.goto('/mystudio/informacion');
    await expect(page.getByRole('heading', { level: 1, name: 'Mi Información' })).toBeVisible();

    const form = page.getByRole('form', { name: 'Cambiar correo' });
    const field = form.getByLabel('Correo electrónico');
    await expect(field).toHaveValue(email);
    await field.fill(`nuevo.${email}`);
    await form.getByLabel('Contraseña actual').fill('Equivocada1');
    await form.getByRole('button', { name: 'Cambiar correo' }).click();
    await expect(alert(page, 'La contraseña es incorrecta. Por favor, intenta de nuevo')).toBeVisible();

    await form.getByLabel('Contraseña actual').fill(password);
    await form.getByRole('button', { name: 'Cambiar correo' }).click();
    // The demo studio sends no e-mail yet: the link cannot reach her, and she is told so, not that it went (decision 079).
    await expect(alert(page, 'El estudio aún no envía correos, así que el enlace para confirmar tu correo nuevo no puede llegarte.')).toBeVisible();
    await expect(alert(page, 'Te enviamos un correo')).toHaveCount(0);
    // Nothing changes until the link is opened: the field shows the current e-mail again.
    await expect(field).toHaveValue(email);
  });

  test('an invalid link on /confirmar-correo says so and leads back to Mi Información', async ({ page }) => {
    await page.goto('/confirmar-correo?token=no-es-un-codigo');
    await expect(page.getByRole('alert').filter({ hasText: 'El enlace para confirmar tu correo no es válido o ya expiró.' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ir a Mi Información' })).toHaveAttribute('href', '/mystudio/informacion');
  });
});
