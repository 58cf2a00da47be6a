import { expect, test } from './fixtures.ts';
import { shoot } from './shots.ts';

test('/recuperar in a studio that sends no e-mail says so, and how to get back in through the studio', async ({ page }) => {
  await page.goto('/recuperar');
  const email = page.getByLabel('Correo electrónico');
  await expect(email).toHaveAttribute('type', 'email');
  await email.fill('cliente@estudio.demo');
  await page.getByRole('button', { name: 'Recuperar' }).click();
  // The demo studio has no e-mail set up (decision 079): never 'Te hemos enviado un correo…'.
  const notice = page.getByTestId('recover-no-email');
  await expect(notice).toContainText('Este estudio todavía no envía correos');
  await expect(notice).toContainText('Pide ayuda en recepción');
  await expect(notice).toContainText('WhatsApp 5512345678 · hola@estudio.demo');
  await expect(page.getByText('Te hemos enviado un correo para reestablecer tu contraseña.')).toHaveCount(0);
  await shoot(page, 'recover-no-email');
  await page.getByRole('link', { name: 'Regresar a Entrar' }).click();
  await expect(page).toHaveURL(/\/entrar$/);
});

test('/recuperar?email= (the page the studio sends a customer) comes with her e-mail filled in', async ({ page }) => {
  await page.goto('/recuperar?email=cliente%40estudio.demo');
  await expect(page.getByLabel('Correo electrónico')).toHaveValue('cliente@estudio.demo');
  await shoot(page, 'recover-email-filled');
  await page.getByRole('button', { name: 'Recuperar' }).click();
  await expect(page.getByTestId('recover-no-email')).toContainText('Este estudio todavía no envía correos');
});

test.describe('/recuperar?token= (the link of the recovery e-mail)', () => {
  const newPassword = 'Nueva1234!';

  test('a link that is not valid shows the server message and a way to ask for a new one', async ({ page }) => {
    await page.goto('/recuperar?token=no-es-un-codigo');
    await expect(page.getByRole('heading', { name: 'Restablece tu contraseña' })).toBeVisible();
    await page.getByLabel('Nueva contraseña').fill(newPassword);
    await page.getByLabel('Confirma tu contraseña').fill(newPassword);
    await page.getByRole('button', { name: 'Guardar contraseña' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'El enlace para restablecer tu contraseña no es válido o ya expiró. Solicita uno nuevo.' })).toBeVisible();
    await page.getByRole('link', { name: 'Solicitar un nuevo correo' }).click();
    await expect(page).toHaveURL(/\/recuperar$/);
    await expect(page.getByRole('button', { name: 'Recuperar' })).toBeVisible();
  });

  test('the two passwords must match and follow the policy before anything is sent', async ({ page }) => {
    let sent = false;
    page.on('request', (request) => {
      if (request.url().includes('/trpc/auth.resetPassword')) sent = true;
    });
    await page.goto('/recuperar?token=no-es-un-codigo');
    const password = page.getByLabel('Nueva contraseña');
    await password.fill('abc');
    await page.getByLabel('Confirma tu contraseña').fill('abc');
    await page.getByRole('button', { name: 'Guardar contraseña' }).click();
    await expect(page.getByText('La contraseña debe tener al menos 8 caracteres.')).toBeVisible();

    await password.fill(newPassword);
    await page.getByLabel('Confirma tu contraseña').fill('Otra1234!');
    await page.getByRole('button', { name: 'Guardar contraseña' }).click();
    await expect(page.getByText('Las contraseñas no coinciden')).toBeVisible();

    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Mostrar' }).first().click();
    await expect(password).toHaveAttribute('type', 'text');
    expect(sent).toBe(false);
  });

  test('a saved password says so and leads to /entrar', async ({ page }) => {
    // The code only exists in the outbox e-mail, which the browser cannot read; the server's answer is stood in for.
    let body: unknown;
    await page.route('**/trpc/auth.resetPassword*', async (route) => {
      body = route.request().postDataJSON();
      await route.fulfill({ json: [{ result: { data: { ok: true } } }] });
    });
    await page.goto('/recuperar?token=codigo-del-correo');
    await page.getByLabel('Nueva contraseña').fill(newPassword);
    await page.getByLabel('Confirma tu contraseña').fill(newPassword);
    await page.getByRole('button', { name: 'Guardar contraseña' }).click();
    await expect(page.getByText('Tu contraseña se actualizó. Ya puedes iniciar sesión.')).toBeVisible();
    await expect(page).toHaveURL(/\/entrar$/);
    expect(body).toEqual({ 0: { token: 'codigo-del-correo', password: newPassword } });
  });
});
