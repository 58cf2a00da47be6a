import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { expectNoAxeViolations } from './axe.ts';
import { signIn } from './helpers.ts';
import { shoot } from './shots.ts';

/**
 * What the customer controls: the channels of the optional
 * messages in Mi Información, the private calendar feed, and the stop link's
 * page (opening it changes nothing; the button does).
 * SHOTS_DIR=<dir> photographs the new section and the stop page at 1366x900 and 390x844.
 */
const password = 'Mensajes-2026';
const alert = (page: Page, text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text });

interface Preferences {
  email_enabled: boolean;
  whatsapp_enabled: boolean;
  email: string;
  phone: string | null;
  calendar_url: string;
  stop_url: string;
}

/** A fresh account (identity and customer, with a phone) made through the API, as the sign-up page makes it when she ticks the optional messages. */
async function freshAccount(request: APIRequestContext): Promise<{ email: string; token: string }> {
  const stamp = `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-8);
  const email = `mensajes.${stamp}@correo.mx`;
  const signedUp = await request.post('/api/auth/signup', { data: { email, password } });
  expect(signedUp.status()).toBe(200);
  const { idToken } = (await signedUp.json()) as { idToken: string };
  const pages = (await (await request.get('/api/pages')).json()) as { pages: { page_id: number; required: boolean }[] };
  const made = await request.post('/api/customer/signup', {
    headers: { authorization: `Bearer ${idToken}` },
    data: { name: 'Paola', last_name: 'Rivas', phone: `56${stamp}`, email, accepted_page_ids: pages.pages.filter((p) => p.required).map((p) => p.page_id), optional_messages: true },
  });
  expect(made.status(), await made.text()).toBe(200);
  return { email, token: idToken };
}

async function preferences(request: APIRequestContext, token: string): Promise<Preferences> {
  const answer = await request.get('/api/customer/messages', { headers: { authorization: `Bearer ${token}` } });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as Preferences;
}

const pathOf = (url: string) => {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
};

test.describe('Mensajes', () => {
  test('a customer turns WhatsApp off in Mi Información and it stays off; the calendar link answers text/calendar and can be changed', async ({ page, request }) => {
    const { email, token } = await freshAccount(request);
    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/mystudio$/);
    await page.goto('/mystudio/informacion');

    const section = page.getByRole('region', { name: 'Mensajes' });
    await expect(section).toBeVisible();
    const whatsapp = section.getByRole('switch', { name: 'WhatsApp' });
    const mail = section.getByRole('switch', { name: 'Correo electrónico' });
    await expect(mail).toBeChecked();
    await expect(whatsapp).toBeChecked();
    await expect(section.getByText(`A ${email}`)).toBeVisible();
    await expect(section.getByText('Los recibos de tus compras, los cambios de contraseña y las clases que el estudio cancele siempre te llegan por correo.')).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, 'mi-informacion-mensajes', section);

    await whatsapp.click();
    await expect(alert(page, 'Tus mensajes se actualizaron.')).toBeVisible();
    await expect(whatsapp).not.toBeChecked();
    await page.reload();
    await expect(page.getByRole('region', { name: 'Mensajes' }).getByRole('switch', { name: 'WhatsApp' })).not.toBeChecked();
    await expect(page.getByRole('region', { name: 'Mensajes' }).getByRole('switch', { name: 'Correo electrónico' })).toBeChecked();
    expect(await preferences(request, token)).toMatchObject({ email_enabled: true, whatsapp_enabled: false });

    // The calendar feed: shown, subscribable, and it answers an iCalendar.
    const field = section.getByLabel('Enlace de tu calendario');
    const url = await field.inputValue();
    expect(url).toMatch(/\/api\/calendar\/[A-Za-z0-9_-]+\.ics$/);
    expect(url).toBe((await preferences(request, token)).calendar_url);
    const feed = await request.get(pathOf(url));
    expect(feed.status()).toBe(200);
    expect(feed.headers()['content-type']).toBe('text/calendar; charset=utf-8');
    expect(await feed.text()).toMatch(/^BEGIN:VCALENDAR\r\n/);
    const webcal = url.replace(/^https?:\/\//, 'webcal://');
    await expect(section.getByRole('link', { name: 'Apple Calendar' })).toHaveAttribute('href', webcal);
    await expect(section.getByRole('link', { name: 'Agregar a Google Calendar' })).toHaveAttribute('href', `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcal)}`);

    // Shared by mistake: a new link, and the old one stops working.
    await section.getByRole('button', { name: 'Cambiar enlace' }).click();
    const dialog = page.getByRole('dialog', { name: '¿Cambiar el enlace de tu calendario?' });
    await expect(dialog).toBeVisible();
    // A modal over the page: the screen as it is, not the whole page.
    await shoot(page, 'mi-informacion-cambiar-enlace', undefined, { fullPage: false });
    await dialog.getByRole('button', { name: 'Cambiar enlace' }).click();
    await expect(alert(page, 'Listo: este es tu nuevo enlace. El anterior ya no funciona.')).toBeVisible();
    await expect(field).not.toHaveValue(url);
    const renewed = await field.inputValue();
    expect((await request.get(pathOf(url))).status()).toBe(404);
    expect((await request.get(pathOf(renewed))).status()).toBe(200);
  });

  test('the stop link shows what will stop, changes nothing until the button, then stops the e-mails', async ({ page, request }) => {
    const { token } = await freshAccount(request);
    const { stop_url: stopUrl } = await preferences(request, token);
    await page.goto(pathOf(stopUrl));
    await expect(page.getByRole('heading', { level: 1, name: 'Dejar de recibir mensajes' })).toBeVisible();
    await expect(page.getByText(/^Correo electrónico \(me•••@correo\.mx\)$/)).toBeVisible();
    await expect(page.getByText(/^WhatsApp \(•••• \d{4}\)$/)).toBeVisible();
    await expectNoAxeViolations(page);
    await shoot(page, 'baja-antes');
    // Opening the link (as a mail scanner does) changed nothing.
    expect(await preferences(request, token)).toMatchObject({ email_enabled: true, whatsapp_enabled: true });

    await page.getByRole('button', { name: 'Dejar de recibir mensajes' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Listo, ya no te enviaremos estos mensajes' })).toBeVisible();
    await expect(page.getByText('Puedes volver a activarlos cuando quieras en Mi Información.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ir a Mi Información' })).toHaveAttribute('href', '/mystudio/informacion');
    await expectNoAxeViolations(page);
    await shoot(page, 'baja-despues');
    expect(await preferences(request, token)).toMatchObject({ email_enabled: false, whatsapp_enabled: false });

    // Opened again: nothing left to stop.
    await page.reload();
    await expect(page.getByText('Ya no recibes mensajes opcionales por ningún medio.')).toBeVisible();
  });

  test('an old or made-up stop link gets a friendly message', async ({ page }) => {
    await page.goto('/mensajes/baja?token=enlace-viejo');
    await expect(page.getByRole('heading', { level: 1, name: 'Este enlace ya no funciona' })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveText('Este enlace para dejar de recibir mensajes no es válido o ya cambió. Puedes elegir tus mensajes en Mi Información.');
    await expectNoAxeViolations(page);
    await shoot(page, 'baja-enlace-invalido');
    await page.goto('/mensajes/baja');
    await expect(page.getByRole('alert')).toContainText('El enlace está incompleto.');
  });
});
