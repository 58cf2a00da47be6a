import { expect, test } from './fixtures.ts';
import { shoot } from './shots.ts';

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
    await page.getByRole('checkbox', { name: /^Acepto/ }).check();
    // The optional messages are asked apart from the terms, and left unticked: she does not tick them.
    const optional = page.getByRole('checkbox', { name: /^Quiero recibir recordatorios de mis clases/ });
    await expect(optional).not.toBeChecked();
    await expect(page.getByText('Opcional. Puedes cambiarlo cuando quieras en Mi Información.')).toBeVisible();
    await shoot(page, 'registro-mensajes-opcionales');

    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(page).toHaveURL(/\/mystudio$/);
    await expect(page.getByRole('button', { name: /Valeria/ })).toBeVisible();
    // Sign-up accepted the required pages and asked for the whole profile: no terms, no profile field is asked again.
    // What is left are the studio's first-class questions, asked once on the calendar before the first booking (decision 087).
    const complete = page.getByRole('dialog', { name: 'Completar Información' });
    await expect(complete.getByLabel('Contacto de emergencia (nombre y teléfono) (Opcional)')).toBeVisible();
    await expect(page.getByRole('dialog')).toHaveCount(1);
    await expect(complete.getByRole('textbox', { name: 'Teléfono', exact: true })).toHaveCount(0);
    await expect(complete.getByRole('textbox', { name: 'Fecha de nacimiento', exact: true })).toHaveCount(0);

    // Without her yes, Mi Información shows both channels of the optional messages off; she turns e-mail on there.
    await page.goto('/mystudio/informacion');
    const messages = page.getByRole('region', { name: 'Mensajes' });
    await expect(messages.getByText('Son opcionales: solo te llegan por los medios que actives.', { exact: false })).toBeVisible();
    await expect(messages.getByRole('switch', { name: 'Correo electrónico' })).not.toBeChecked();
    await expect(messages.getByRole('switch', { name: 'WhatsApp' })).not.toBeChecked();
    await shoot(page, 'mi-informacion-mensajes-sin-permiso', messages);
    await messages.getByRole('switch', { name: 'Correo electrónico' }).click();
    await expect(page.getByText('Tus mensajes se actualizaron.')).toBeVisible();
    await page.reload();
    await expect(page.getByRole('switch', { name: 'Correo electrónico' })).toBeChecked();
    await expect(page.getByRole('switch', { name: 'WhatsApp' })).not.toBeChecked();
  });

  test("a date the server refuses shows under its field, in people's words, with one alert", async ({ page }) => {
    const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
    await page.goto('/registro');
    await expect(page).toHaveTitle('¡Regístrate! · Estudio Demo');
    // The inputs stop where the server's schemas would refuse.
    await expect(page.getByLabel('Nombre')).toHaveAttribute('maxlength', '100');
    await expect(page.getByLabel('Correo electrónico')).toHaveAttribute('maxlength', '254');
    await expect(page.getByLabel('Contraseña', { exact: true })).toHaveAttribute('maxlength', '256');

    // Every field empty: a message under each, and one alert, not one per field.
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(page.getByText('Debes llenar este campo.')).toHaveCount(7);
    await expect(page.locator('.mantine-Notification-root')).toHaveCount(1);
    await expect(page.locator('.mantine-Notification-root')).toHaveText('Revisa los campos faltantes o inválidos.');

    await page.getByLabel('Nombre').fill('Renata');
    await page.getByLabel('Apellidos').fill('Fechas');
    await page.getByLabel('Correo electrónico').fill(`renata.${stamp}@ejemplo.mx`);
    await page.getByLabel('Teléfono').fill(`57${stamp.slice(-8)}`);
    await page.getByLabel('Fecha de nacimiento').fill('1850-01-01');
    await page.getByLabel('Contraseña', { exact: true }).fill('Renata2024');
    await page.getByLabel('Confirma tu contraseña').fill('Renata2024');
    await page.getByRole('checkbox', { name: /^Acepto/ }).check();
    await page.getByRole('button', { name: 'Crear cuenta' }).click();

    const birthdate = page.getByLabel('Fecha de nacimiento');
    await expect(birthdate).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(/^La fecha de nacimiento debe estar entre el 1 de enero de 1900 y el /)).toBeVisible();
    await expect(page.locator('.mantine-Notification-root')).toHaveText('Revisa el campo: Fecha de nacimiento');
    await expect(page.getByText(/Revisa el campo birthdate|se esperaba|Demasiado/)).toHaveCount(0);
    await shoot(page, 'registro-fecha-rechazada');

    // Corrected, the same sign-up goes through.
    await birthdate.fill('1990-06-02');
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(page).toHaveURL(/\/mystudio$/);
    await expect(page.getByRole('button', { name: /Renata/ })).toBeVisible();
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
    await page.getByRole('checkbox', { name: /^Acepto/ }).check();
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(page.getByText('Ya tienes una cuenta con nosotros. Por favor, inicia sesión.')).toBeVisible();
  });
});
