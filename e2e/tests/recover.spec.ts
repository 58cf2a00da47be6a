import { expect, test } from '@playwright/test';

test('/recuperar sends the recovery e-mail', async ({ page }) => {
  await page.goto('/recuperar');
  const email = page.getByLabel('Correo electrónico');
  await expect(email).toHaveAttribute('type', 'email');
  await email.fill('cliente@estudio.demo');
  await page.getByRole('button', { name: 'Recuperar' }).click();
  await expect(page.getByText('Te hemos enviado un correo para reestablecer tu contraseña.')).toBeVisible();
  await page.getByRole('link', { name: 'Regresar a Entrar' }).click();
  await expect(page).toHaveURL(/\/entrar$/);
});
