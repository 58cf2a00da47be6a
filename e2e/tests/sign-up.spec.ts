import { expect, test } from '@playwright/test';

test.describe('Registro', () => {
  test('a new visitor creates an account and lands in /mystudio', async ({ page }) => {
    const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    const phone = `55${stamp.slice(-8)}`;
    await page.goto('/registro');
    await expect(page.getByRole('heading', { name: '¡Regístrate!' })).toBeVisible();

    await page.getByLabel('Nombre').fill('Valeria');
    await page.getByLabel('Apellido').fill('Prueba');
    await page.getByLabel('Correo electrónico').fill(`valeria.${stamp}@ejemplo.mx`);
    // The phone keeps digits only, 10 at most.
    await page.getByLabel('Teléfono').fill(`(${phone.slice(0, 3)}) ${phone.slice(3)}99`);
    await expect(page.getByLabel('Teléfono')).toHaveValue(phone);
    await page.getByLabel('Fecha de nacimiento').fill('1994-05-17');
    await page.getByLabel('Contraseña', { exact: true }).fill('Valeria2024');
    await page.getByLabel('Confirma tu contraseña').fill('Valeria2025');

    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(page.getByText('Las contraseñas no coinciden')).toBeVisible();
    await page.getByLabel('Confirma tu contraseña').fill('Valeria2024');

    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(page.getByText('Debes aceptar los términos y condiciones antes de continuar.')).toBeVisible();
    await page.getByRole('checkbox').check();

    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(page).toHaveURL(/\/mystudio$/);
    await expect(page.getByRole('button', { name: /Valeria/ })).toBeVisible();
    // Sign-up accepted the required pages and asked for the whole profile: nothing blocks.
    await expect(page.getByRole('dialog')).toHaveCount(0);
  });

  test('an e-mail that already has an account is told to sign in', async ({ page }) => {
    await page.goto('/registro');
    await page.getByLabel('Nombre').fill('Mariana');
    await page.getByLabel('Apellido').fill('López');
    await page.getByLabel('Correo electrónico').fill('cliente@estudio.demo');
    await page.getByLabel('Teléfono').fill('5511112222');
    await page.getByLabel('Fecha de nacimiento').fill('1990-01-01');
    await page.getByLabel('Contraseña', { exact: true }).fill('Demo1234!');
    await page.getByLabel('Confirma tu contraseña').fill('Demo1234!');
    await page.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(page.getByText('Ya tienes una cuenta con nosotros. Por favor, inicia sesión.')).toBeVisible();
  });
});
