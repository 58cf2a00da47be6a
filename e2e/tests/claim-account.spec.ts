import { SMTPServer } from 'smtp-server';
import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { apiLogin, bearer } from './booking-helpers.ts';
import { expectSignedIn, signIn } from './helpers.ts';
import { shoot } from './shots.ts';

/**
 * Decision 017: a first-time walk-in registered at the front desk (no
 * password yet) signs up on the portal with the same e-mail, is told the
 * studio already registered them and that a link was mailed, opens the link
 * (read here from the outbox, as an admin), creates the password and signs
 * in to the account the desk made, credits included.
 * SHOTS_DIR=<dir> photographs the changed screens at 1366x900 and 390x844.
 */
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-8);

async function registerAtDesk(request: APIRequestContext) {
  const n = stamp();
  const email = `rocio.${n}@mostrador.mx`;
  const staff = await apiLogin(request, 'recepcion@estudio.demo');
  const pages = (await (await request.get('/api/pages')).json()) as { pages: { page_id: number; required: boolean }[] };
  const created = await request.post('/api/customer', {
    headers: bearer(staff),
    data: { name: 'Rocío', last_name: 'Mostrador', phone: `57${n}`, email, accepted_page_ids: pages.pages.filter((p) => p.required).map((p) => p.page_id) },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const { customer } = (await created.json()) as { customer: { customer_id: number } };
  // Classes given free are the owner's to give (reception's gifts stop at a limit).
  const admin = await apiLogin(request, 'admin@estudio.demo');
  const credit = await request.post('/api/available_classes', { headers: bearer(admin), data: { customer_id: customer.customer_id, available_classes: 3, reason: 'Paquete pagado en el mostrador' } });
  expect(credit.ok(), await credit.text()).toBeTruthy();
  return { email, customerId: customer.customer_id, phone: `57${n}` };
}

/**
 * The studio's e-mail goes to a real SMTP server on loopback for this file: staff
 * never read a link that signs in as the customer (decision 068), so the link is
 * read where the customer would read it, in the mail that arrived.
 */
const smtpPort = Number(process.env.E2E_PORT ?? 3100) + 91;
const arrived: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer | null = null;

async function studioMail(request: APIRequestContext, host: string | null) {
  const admin = await apiLogin(request, 'admin@estudio.demo');
  const body = host ? { smtp_host: host, smtp_port: smtpPort, smtp_secure: false, smtp_from: 'Estudio Demo <hola@estudio.demo>' } : { smtp_host: '', smtp_port: null, smtp_from: '' };
  const saved = await request.put('/api/messaging/settings', { headers: bearer(admin), data: body });
  expect(saved.ok(), await saved.text()).toBeTruthy();
}

test.beforeAll(async ({ request }) => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        arrived.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp!.once('error', reject);
    smtp!.listen(smtpPort, '127.0.0.1', () => resolve());
  });
  await studioMail(request, '127.0.0.1');
});

test.afterAll(async ({ request }) => {
  // The other files see the demo studio as it is: with no e-mail set up.
  await studioMail(request, null);
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

/** The path and query of the link in the newest mail that arrived for `email`. */
async function mailedLink(_request: APIRequestContext, email: string): Promise<string> {
  let url: string | undefined;
  await expect
    .poll(
      () => {
        const mail = [...arrived].reverse().find((m) => m.to.includes(email));
        // Quoted-printable: soft line breaks and '=' written as =3D.
        const text = mail?.raw.replace(/=\r?\n/g, '').replace(/=3D/gi, '=');
        url = text ? /https?:\/\/[^\s"<>]+\/recuperar\?token=[^\s"<>]+/.exec(text)?.[0] : undefined;
        return url;
      },
      { message: `a mail to ${email}`, timeout: 60_000 },
    )
    .toBeTruthy();
  const link = new URL(url!);
  return `${link.pathname}${link.search}`;
}

/** The portal's sign-up form, filled as the customer the desk registered would fill it. */
async function signUpOnThePortal(page: Page, desk: { email: string; phone: string }, password: string): Promise<void> {
  await page.goto('/registro');
  await page.getByLabel('Nombre').fill('Rocío');
  await page.getByLabel('Apellido').fill('Mostrador');
  await page.getByLabel('Correo electrónico').fill(desk.email);
  await page.getByLabel('Teléfono').fill(desk.phone);
  await page.getByLabel('Fecha de nacimiento').fill('1992-02-02');
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByLabel('Confirma tu contraseña').fill(password);
  await page.getByRole('checkbox', { name: /^Acepto/ }).check();
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
}

test('a customer registered at the desk signs up, creates the password from the mailed link and finds the desk account', async ({ page, request }) => {
  const desk = await registerAtDesk(request);
  const password = 'Rocio-Mostrador-26';

  await signUpOnThePortal(page, desk, password);

  const status = page.getByRole('status').filter({ hasText: 'Ya estás registrado en el estudio' });
  await expect(status).toBeVisible();
  await expect(status).toContainText('El estudio ya te registró con este correo. Te enviamos un correo con un enlace para crear tu contraseña');
  await expect(status).toContainText(desk.email);
  await shoot(page, 'claim-sent');

  const link = await mailedLink(request, desk.email);
  await page.goto(link);
  await shoot(page, 'claim-link');
  await page.getByLabel('Nueva contraseña').fill(password);
  await page.getByLabel('Confirma tu contraseña').fill(password);
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page).toHaveURL(/\/entrar$/);

  await signIn(page, desk.email, password);
  await expectSignedIn(page, /Rocío/);

  // The account is the desk's: the same customer, the credits staff gave at the counter.
  const tokens = (await (await request.post('/api/auth/login', { data: { email: desk.email, password } })).json()) as { idToken: string };
  const me = (await (await request.get('/api/customer', { headers: bearer(tokens.idToken) })).json()) as { customer: { customer_id: number } };
  expect(me.customer.customer_id).toBe(desk.customerId);
  expect(JSON.stringify(await (await request.get('/api/available_classes', { headers: bearer(tokens.idToken) })).json())).toContain('"available_classes":3');

  // The link worked once.
  await page.goto(link);
  await page.getByLabel('Nueva contraseña').fill('Otra-Clave-2026');
  await page.getByLabel('Confirma tu contraseña').fill('Otra-Clave-2026');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'no es válido o ya expiró' })).toBeVisible();
});

test('¿Olvidaste tu contraseña? with a desk-registered e-mail answers as always and mails the link that creates the password', async ({ page, request }) => {
  const desk = await registerAtDesk(request);
  await page.goto('/recuperar');
  await page.getByLabel('Correo electrónico').fill(desk.email);
  await page.getByRole('button', { name: 'Recuperar' }).click();
  // This file's studio sends e-mail (to the loopback SMTP server): the page says it went.
  await expect(page.getByText('Te hemos enviado un correo para reestablecer tu contraseña.')).toBeVisible();
  const link = await mailedLink(request, desk.email);
  await page.goto(link);
  await page.getByLabel('Nueva contraseña').fill('Rocio-Olvido-26');
  await page.getByLabel('Confirma tu contraseña').fill('Rocio-Olvido-26');
  await page.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page).toHaveURL(/\/entrar$/);
  await signIn(page, desk.email, 'Rocio-Olvido-26');
  await expectSignedIn(page, /Rocío/);
});

test('while the studio cannot send e-mail, the same sign-up says so and sends her to the counter, with no mail promised', async ({ page, request }) => {
  const desk = await registerAtDesk(request);
  await studioMail(request, null);
  try {
    await signUpOnThePortal(page, desk, 'Rocio-Mostrador-26');

    const status = page.getByRole('status').filter({ hasText: 'Ya estás registrado en el estudio' });
    await expect(status).toContainText('todavía no puede enviar correos. Pide en recepción que te ayuden a crear tu contraseña.');
    await expect(status).not.toContainText('Te enviamos');
    await expect(status).not.toContainText('Abre el correo');
    await shoot(page, 'claim-waiting');
  } finally {
    await studioMail(request, '127.0.0.1');
  }
});
