import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from './fixtures.ts';
import { SMTPServer } from 'smtp-server';
import { apiLogin, deskLink, deskSignIn, deskWebProcess, repoRoot, serverProcess, stop, waitFor } from './desk-processes.ts';

/**
 * Mensajes in the desk's admin console (desk:web in Chromium, its
 * own server): the admin points the studio's e-mail at an SMTP server (a real
 * smtp-server on loopback, started here, which keeps what arrives), a port
 * out of range reads the server's Spanish refusal under Puerto, Enviar prueba
 * delivers a message the test reads back (with the saved user and password),
 * a port where nothing listens reads why the test failed, and the password is
 * never shown again. WhatsApp Business the same way against a loopback
 * server speaking the Cloud API's message endpoint (the request's path, token
 * and template are read back); its token is never shown again either. The list says what each message is, to whom, and
 * whether it was sent, waits for its next attempt (a 451) or failed and why
 * (a 550); the automatic notices save with their Spanish names and refuse a
 * value out of range under the setting. Screenshots at 390, 1024 and 1366 px
 * when SHOTS_DIR is set, and no sideways scroll at any of them.
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverPort = basePort + 64;
const deskPort = basePort + 65;
const smtpPort = basePort + 66;
/** Nothing listens here: Enviar prueba must say it could not connect. */
const closedPort = basePort + 67;
/** A loopback HTTP server speaking the WhatsApp Cloud API's message endpoint. */
const cloudApiPort = basePort + 68;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(repoRoot, '.tmp', `desk-messages-e2e-${basePort}`);
const shots = process.env.SHOTS_DIR;
const sizes = [
  { width: 390, height: 844 },
  { width: 1024, height: 768 },
  { width: 1366, height: 900 },
];
const smtpUser = 'estudio-smtp';
const smtpPassword = `s3creto-${process.pid}-smtp`;
/** RCPT TO answers for these: a permanent refusal (the message fails) and a temporary one (it waits for its next attempt). */
const bounced = 'nuevo@estudio.demo';
const deferred = 'recepcion@estudio.demo';
const delivered = 'cliente@estudio.demo';

interface Received {
  to: string[];
  user: string | null;
  raw: string;
}

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;
let smtp: SMTPServer | null = null;
const received: Received[] = [];
let cloudApi: Server | null = null;
const cloudRequests: { path: string; headers: IncomingHttpHeaders; body: Record<string, unknown> }[] = [];
const whatsappToken = `EAAprueba${process.pid}token`;

test.setTimeout(400_000);

test.beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  writeFileSync(path.join(work, 'README'), 'Datos desechables de la prueba de Mensajes en la consola de recepción.');
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === smtpUser && auth.password === smtpPassword) return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Credenciales inválidas'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (address.address === bounced) return callback(Object.assign(new Error('5.1.1 Mailbox does not exist'), { responseCode: 550 }));
      if (address.address === deferred) return callback(Object.assign(new Error('4.2.1 Mailbox busy, try again later'), { responseCode: 451 }));
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), user: typeof session.user === 'string' ? session.user : null, raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp!.once('error', reject);
    smtp!.listen(smtpPort, '127.0.0.1', () => resolve());
  });
  cloudApi = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      cloudRequests.push({ path: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown> });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ messaging_product: 'whatsapp', contacts: [{ input: 'x', wa_id: 'x' }], messages: [{ id: `wamid.prueba${cloudRequests.length}` }] }));
    });
  });
  await new Promise<void>((resolve) => cloudApi!.listen(cloudApiPort, '127.0.0.1', () => resolve()));
  // The clock stays off (no reminders or summaries in the list); the sender looks at the outbox twice a second.
  server = serverProcess({ port: serverPort, work, env: { START_DESK: '0', CLOCK: 'off', MESSAGE_POLL_MS: '500' } });
  desk = deskWebProcess({ port: deskPort, work, serverUrl });
  await waitFor(`${serverUrl}/api/health`, 120_000);
  await waitFor(`${deskUrl}/health`, 240_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  await new Promise<void>((resolve) => (cloudApi ? cloudApi.close(() => resolve()) : resolve()));
});

/** The whole screen, and what the admin sees screen by screen while scrolling down it. */
async function photograph(page: Page, size: { width: number; height: number }) {
  mkdirSync(shots!, { recursive: true });
  await expect(page.locator('.mantine-Notification-root')).toHaveCount(0, { timeout: 15_000 });
  const name = `mensajes-${size.width}x${size.height}`;
  await page.screenshot({ path: path.join(shots!, `${name}.png`), fullPage: true });
  const height = await page.evaluate(() => document.scrollingElement?.scrollHeight ?? 0);
  const step = size.height - 64; // under the fixed header
  for (let y = 0, n = 1; y < height && n <= 8; y += step, n++) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(shots!, `${name}-${n}.png`) });
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** The page is no wider than the window: nothing to scroll sideways. */
const pageOverflow = (page: Page) => page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) - window.innerWidth);

async function openMensajes(page: Page) {
  await page.goto(deskLink(deskUrl));
  const email = page.getByLabel('Correo electrónico');
  await expect(page.getByTestId('admin-nav').or(email)).toBeVisible({ timeout: 60_000 });
  if (await email.isVisible()) await deskSignIn(page, 'admin@estudio.demo');
  await expect(page.getByTestId('admin-nav')).toBeVisible({ timeout: 60_000 });
  await page.getByTestId('admin-nav').getByRole('button', { name: 'Mensajes', exact: true }).click();
  await expect(page.getByTestId('sending-settings')).toBeVisible();
}

/** The Mantine input labelled `label` inside `scope`, and the error shown under it. */
const field = (scope: Locator, label: string) => scope.getByRole('textbox', { name: label, exact: true });

/** The Subject header as read (RFC 2047 encoded words, as nodemailer writes 'contraseña', decoded). */
function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw.split(/\r?\n\r?\n/)[0] ?? '')?.[1] ?? '';
  return header.replace(/\r?\n[ \t]/g, ' ').replace(/=\?utf-8\?([qb])\?([^?]*)\?=\s*/gi, (_all, how: string, text: string) =>
    how.toLowerCase() === 'b'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9a-f]{2})/gi, (_h, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8'),
  );
}

/**
 * Waits until the server's outbox has a message to `recipient` with `subject`
 * in `status` after `minAttempts` attempts and the provider's answer (a new
 * message is pending too); answers it as the API lists it.
 */
async function outboxRow(request: APIRequestContext, token: string, recipient: string, subject: RegExp, status: string, minAttempts = 1) {
  let found: Record<string, unknown> | undefined;
  await expect
    .poll(
      async () => {
        const answer = await request.get(`${serverUrl}/api/outbox`, { headers: { Authorization: `Bearer ${token}` } });
        const rows = ((await answer.json()) as { outbox_messages: Record<string, unknown>[] }).outbox_messages;
        found = rows.find((m) => m.recipient === recipient && subject.test(String(m.subject ?? '')));
        // A row is counted as attempted when the sender claims it: until the answer, it is pending without an error.
        const settled = found && Number(found.attempts) >= minAttempts && (found.status === 'sent' || found.last_error !== null);
        return settled ? found!.status : `${String(found?.status)} con ${String(found?.attempts)} intentos, sin respuesta`;
      },
      { timeout: 60_000, message: `mensaje a ${recipient} en estado ${status}` },
    )
    .toBe(status);
  return found!;
}

test('the admin configures SMTP, sends a test that arrives, reads each message’s fate and sets the automatic notices', async ({ page, request }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  await openMensajes(page);
  const email = page.getByTestId('channel-email');
  await expect(email.getByTestId('channel-email-state')).toHaveText('Sin configurar: los mensajes esperan aquí');
  await expect(page.getByTestId('channel-whatsapp-state')).toHaveText('Sin configurar: los mensajes esperan aquí');
  await expect(page.getByTestId('whatsapp-test')).toBeDisabled();
  if (shots) {
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: path.join(shots, 'mensajes-sin-configurar-1366x900.png') });
  }
  await expect(email.getByTestId('email-test')).toBeDisabled();

  // A port out of range: the server's Spanish refusal under Puerto, never its field key; nothing is stored.
  await field(email, 'Servidor').fill('127.0.0.1');
  await field(email, 'Puerto').fill('70000');
  await email.getByTestId('email-save').click();
  const portError = email.getByText('El puerto SMTP debe ser un número entre 1 y 65535.');
  await expect(portError).toBeVisible();
  await expect(field(email, 'Puerto')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByTestId('sending-settings')).not.toContainText('smtp_port');
  await expect(email.getByTestId('channel-email-state')).toHaveText('Sin configurar: los mensajes esperan aquí');

  // The right values: saved, the channel reads as configured here, the password as 'Guardada'.
  await field(email, 'Puerto').fill(String(smtpPort));
  await expect(portError).toHaveCount(0);
  await field(email, 'Usuario').fill(smtpUser);
  await email.getByLabel('Contraseña').fill(smtpPassword);
  await field(email, 'Remitente').fill('Estudio Demo <hola@estudio.demo>');
  await email.getByTestId('email-save').click();
  await expect(email.getByTestId('channel-email-state')).toHaveText('Configurado (en esta pantalla)');
  await expect(email.getByTestId('smtp-password-saved')).toHaveText('Guardada');
  await expect(email.locator('input[type="password"]')).toHaveCount(0);

  // Enviar prueba: the message arrives at the loopback server, through the saved user and password.
  await email.getByTestId('email-test').click();
  const dialog = page.getByRole('dialog', { name: 'Enviar un correo de prueba' });
  await dialog.getByLabel('Correo de destino').fill('prueba@buzon.demo');
  await dialog.getByRole('button', { name: 'Enviar', exact: true }).click();
  await expect(dialog.getByTestId('test-result')).toContainText('Enviado. El proveedor lo aceptó');
  const test = received.find((m) => m.to.includes('prueba@buzon.demo'));
  expect(test, 'la prueba llegó al servidor SMTP').toBeTruthy();
  expect(test!.user).toBe(smtpUser);
  expect(test!.raw).toContain('Mensaje de prueba');
  expect(test!.raw).toMatch(/^From: .*hola@estudio\.demo/m);
  await dialog.getByRole('button', { name: 'Cerrar' }).click();

  // A port where nothing listens: saved, but the test says why it did not go, in Spanish.
  await field(email, 'Puerto').fill(String(closedPort));
  await email.getByTestId('email-save').click();
  await expect(email.getByTestId('email-test')).toBeEnabled();
  await email.getByTestId('email-test').click();
  await dialog.getByLabel('Correo de destino').fill('prueba@buzon.demo');
  await dialog.getByRole('button', { name: 'Enviar', exact: true }).click();
  await expect(dialog.getByTestId('test-result')).toContainText('No se pudo conectar con el servidor de correo');
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  await field(email, 'Puerto').fill(String(smtpPort));
  await email.getByTestId('email-save').click();
  await expect(email.getByTestId('email-test')).toBeEnabled();

  // WhatsApp Business: an ID that is not digits is refused under its field; the right values save, the token only as 'Guardado'.
  const whatsapp = page.getByTestId('channel-whatsapp');
  await field(whatsapp, 'ID del número').fill('mi-numero');
  await whatsapp.getByLabel('Token de acceso').fill(whatsappToken);
  await whatsapp.getByTestId('whatsapp-save').click();
  await expect(whatsapp.getByText('El identificador del número de WhatsApp son solo dígitos', { exact: false })).toBeVisible();
  await field(whatsapp, 'ID del número').fill('1098765432');
  await field(whatsapp, 'Idioma de las plantillas').fill('es_MX');
  // The API's address is an advanced option, folded away until asked for.
  await expect(field(whatsapp, 'Dirección de la API')).toBeHidden();
  await whatsapp.getByRole('button', { name: 'Opciones avanzadas' }).click();
  await field(whatsapp, 'Dirección de la API').fill(`http://127.0.0.1:${cloudApiPort}/v21.0`);
  await whatsapp.getByTestId('whatsapp-save').click();
  await expect(whatsapp.getByTestId('channel-whatsapp-state')).toHaveText('Configurado (en esta pantalla)');
  await expect(whatsapp.getByTestId('whatsapp-token-saved')).toHaveText('Guardado');
  await whatsapp.getByTestId('whatsapp-test').click();
  const waDialog = page.getByRole('dialog', { name: 'Enviar un WhatsApp de prueba' });
  await waDialog.getByLabel('Número de WhatsApp de destino').fill('55 1234 5678');
  await waDialog.getByRole('button', { name: 'Enviar', exact: true }).click();
  await expect(waDialog.getByTestId('test-result')).toContainText('Enviado. El proveedor lo aceptó (identificador wamid.prueba1)');
  expect(cloudRequests).toHaveLength(1);
  expect(cloudRequests[0]!.path).toBe('/v21.0/1098765432/messages');
  expect(cloudRequests[0]!.headers.authorization).toBe(`Bearer ${whatsappToken}`);
  expect(String(cloudRequests[0]!.body.to)).toContain('5512345678');
  expect(cloudRequests[0]!.body.type).toBe('template');
  await waDialog.getByRole('button', { name: 'Cerrar' }).click();

  // After a reload the password is still only 'Guardada': never its value, not even in the page's HTML.
  await page.reload();
  await page.getByTestId('admin-nav').getByRole('button', { name: 'Mensajes', exact: true }).click();
  await expect(email.getByTestId('smtp-password-saved')).toHaveText('Guardada');
  await expect(field(email, 'Usuario')).toHaveValue(smtpUser);
  await expect(whatsapp.getByTestId('whatsapp-token-saved')).toHaveText('Guardado');
  expect(await page.content()).not.toContain(smtpPassword);
  expect(await page.content()).not.toContain(whatsappToken);
  await email.getByRole('button', { name: 'Cambiar contraseña' }).click();
  await expect(email.getByLabel('Contraseña')).toHaveValue('');
  await email.getByRole('button', { name: 'No cambiar' }).click();
  await expect(email.getByTestId('smtp-password-saved')).toBeVisible();

  // Quitar removes the token: WhatsApp is no longer configured and its field asks for a new one.
  await whatsapp.getByRole('button', { name: 'Quitar token de acceso' }).click();
  await expect(whatsapp).toContainText('Se quitará al pulsar Guardar.');
  await whatsapp.getByTestId('whatsapp-save').click();
  await expect(whatsapp.getByTestId('channel-whatsapp-state')).toHaveText('Sin configurar: los mensajes esperan aquí');
  await expect(whatsapp.getByLabel('Token de acceso')).toHaveValue('');
  await expect(whatsapp.getByTestId('whatsapp-test')).toBeDisabled();

  // Three password e-mails: one arrives, one the mail server refuses for good (550), one it defers (451).
  for (const to of [delivered, bounced, deferred]) {
    const answer = await request.post(`${serverUrl}/api/auth/recover`, { data: { email: to } });
    expect(answer.ok(), await answer.text()).toBeTruthy();
  }
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const subject = /^Restablece tu contraseña/;
  const sent = await outboxRow(request, admin, delivered, subject, 'sent');
  const failed = await outboxRow(request, admin, bounced, subject, 'failed');
  const pending = await outboxRow(request, admin, deferred, subject, 'pending');
  await expect.poll(() => received.some((m) => m.to.includes(delivered) && subject.test(subjectOf(m.raw)))).toBe(true);
  expect(String(pending.last_error)).toContain('451');

  const list = page.getByTestId('outbox-list');
  await list.getByRole('button', { name: 'Actualizar' }).click();
  const rowOf = (to: string) => list.getByTestId('outbox-row').filter({ hasText: to }).filter({ hasText: 'Restablece tu contraseña' }).first();
  for (const [row, m] of [
    [rowOf(delivered), sent],
    [rowOf(bounced), failed],
    [rowOf(deferred), pending],
  ] as const) {
    // What it is about in Spanish (the kind's label), never the kind's key.
    await expect(row.getByTestId('outbox-kind')).toHaveText(String(m.kind_label));
    if (m.customer_name) await expect(row).toContainText(String(m.customer_name));
    await expect(row.getByTestId('outbox-attempts')).toHaveText(String(m.attempts));
  }
  // The customer's name beside the address, also for a message written without its customer.
  expect(sent.customer_name).toBe('Mariana López');
  await expect(rowOf(delivered).getByTestId('outbox-status')).toHaveText('Enviado');
  await expect(rowOf(bounced).getByTestId('outbox-status')).toHaveText(`Falló: ${String(failed.last_error)}`);
  expect(String(failed.last_error)).toContain('550');
  await expect(rowOf(deferred).getByTestId('outbox-status')).toHaveText(/^Pendiente — próximo intento (a las \d{2}:\d{2}|el .+)$/);

  // Avisos automáticos: a value out of range is refused under the setting, by its name; a good one is stored and read back in words.
  const notices = page.getByTestId('automatic-notices');
  await expect(notices).toContainText('Recordatorio 2 horas antes de cada clase.');
  const hours = notices.getByRole('textbox', { name: 'Horas antes de la clase para el recordatorio' });
  await hours.fill('100');
  await notices.getByTestId('notices-save').click();
  await expect(notices.getByText('El valor de «Horas antes de la clase para el recordatorio» no es válido: debe ser un número entero entre 1 y 72.')).toBeVisible();
  await expect(notices).not.toContainText('reminder_hours_before');
  await hours.fill('3');
  await notices.getByRole('switch', { name: 'Asignar lugares de la lista de espera automáticamente' }).check();
  await notices.getByTestId('notices-save').click();
  await expect(page.getByText('Avisos guardados.')).toBeVisible();
  await expect(notices).toContainText('Recordatorio 3 horas antes de cada clase.');
  await expect(notices).toContainText('se reserva para el primero de la lista que tenga créditos');
  const config = ((await (await request.get(`${serverUrl}/api/appconfig`)).json()) as { config: { key: string; value: string }[] }).config;
  expect(config.find((c) => c.key === 'reminder_hours_before')?.value).toBe('3');
  expect(config.find((c) => c.key === 'waitlist_auto_promote')?.value).toBe('true');

  // At a phone's width, at 1024 and at 1366: nothing to scroll sideways, the three kinds of row readable.
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.waitForTimeout(400);
    expect(await pageOverflow(page), `desplazamiento horizontal a ${size.width}px`).toBeLessThanOrEqual(0);
    for (const to of [delivered, bounced, deferred]) {
      const box = await rowOf(to).boundingBox();
      expect(box, `fila de ${to} a ${size.width}px`).not.toBeNull();
      expect(box!.x + box!.width).toBeLessThanOrEqual(size.width + 0.5);
    }
    if (shots) await photograph(page, size);
  }

  // Reintentar puts the failed one back in the queue (after the pictures, which show it failed).
  await page.setViewportSize({ width: 1366, height: 900 });
  await rowOf(bounced).getByRole('button', { name: 'Reintentar' }).click();
  await expect(page.getByText('El mensaje volvió a la cola de envío.')).toBeVisible();
  await outboxRow(request, admin, bounced, subject, 'failed', Number(failed.attempts) + 1);
});
