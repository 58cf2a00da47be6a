import { SMTPServer } from 'smtp-server';
import { expect, test, type APIRequestContext } from './fixtures.ts';
import { apiLogin } from './desk-processes.ts';
import { adminStudio, openSection } from './admin-studio.ts';
import { shootDesk } from './shots.ts';

/**
 * The owner invites the customers she brought over to create their password (decision 128), in the desk's admin
 * console (desk:web in Chromium) against its own server: with no e-mail set up the card says why it cannot; with
 * e-mail, two of them are invited after a confirmation, the console says the e-mails wait in the outbox, and they
 * arrive at the studio's SMTP server. Then an ARCO answer says the e-mail to the customer is queued, not sent.
 */
const { serverUrl, adminDesk } = adminStudio('import-invitations', 76);
const smtpPort = Number(process.env.E2E_PORT ?? 3100) + 78;
const arrived: { to: string[] }[] = [];
let smtp: SMTPServer | null = null;
const tag = String(Date.now()).slice(-6);
const emails = [1, 2, 3].map((i) => `invitada${i}.${tag}@correo.mx`);

async function studioMail(request: APIRequestContext, token: string) {
  const saved = await request.put(`${serverUrl}/api/messaging/settings`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { smtp_host: '127.0.0.1', smtp_port: smtpPort, smtp_secure: false, smtp_from: 'Estudio Demo <hola@estudio.demo>' },
  });
  expect(saved.ok(), await saved.text()).toBeTruthy();
}

test.beforeAll(async () => {
  smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => {
        arrived.push({ to: session.envelope.rcptTo.map((r) => r.address) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp!.once('error', reject);
    smtp!.listen(smtpPort, '127.0.0.1', () => resolve());
  });
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

test('the owner invites imported customers to create their password, two at a time, and reads that the e-mails wait in the outbox', async ({ page, request }) => {
  const owner = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const csv = ['Nombre;Apellidos;Correo electrónico', ...emails.map((email, i) => `Invitada ${i + 1};Importada;${email}`)].join('\r\n');
  const imported = await request.post(`${serverUrl}/api/import/customers`, { headers: { Authorization: `Bearer ${owner}` }, data: { csv, dry_run: false } });
  expect(imported.ok(), await imported.text()).toBeTruthy();

  // No e-mail set up: the count, and why nobody can be invited yet.
  await adminDesk(page);
  await openSection(page, 'Importar clientes');
  const card = page.getByTestId('import-invitations');
  await expect(card.getByTestId('import-invitations-counts')).toContainText(/clientes sin contraseña no han recibido la invitación/);
  await expect(card.getByTestId('import-invitations-no-channel')).toContainText('Este estudio todavía no envía correos');
  await expect(card.getByRole('button', { name: 'Invitar a crear su contraseña' })).toBeDisabled();
  await shootDesk(page, 'import-invitations-no-channel', card);

  // E-mail set up: invite two, after saying how many.
  await studioMail(request, owner);
  await page.reload();
  await openSection(page, 'Importar clientes');
  await expect(card.getByTestId('import-invitations-no-channel')).toHaveCount(0);
  const waiting = Number((await card.getByTestId('import-invitations-counts').innerText()).match(/^(\d+)/)?.[1]);
  expect(waiting).toBeGreaterThanOrEqual(3);
  await card.getByLabel('Cuántos invitar en esta vuelta').fill('2');
  await card.getByRole('button', { name: 'Invitar a crear su contraseña' }).click();
  const confirm = page.getByRole('dialog', { name: 'Invitar a crear su contraseña' });
  await expect(confirm).toContainText('Se prepararán 2 correos, uno por cliente');
  await shootDesk(page, 'import-invitations-confirm', undefined, { fullPage: false });
  await confirm.getByRole('button', { name: 'Invitar a 2 clientes' }).click();
  const result = card.getByTestId('import-invitations-result');
  await expect(result).toContainText('2 correos en la bandeja de salida; se enviarán en unos minutos.');
  await expect(result).toContainText(waiting - 2 === 1 ? 'Queda 1 cliente por invitar' : `Quedan ${waiting - 2} clientes por invitar`);
  await expect(result).not.toContainText(/enviad/i);
  await expect(card.getByTestId('import-invitations-counts')).toContainText(`${waiting - 2}`);
  await expect(card.getByTestId('import-invitations-counts')).toContainText('2 clientes ya la recibieron');
  await shootDesk(page, 'import-invitations-result', card);

  // They leave through the studio's SMTP server (the delivery worker), each once, with the demo's other waiting messages.
  const invitedArrived = () => arrived.flatMap((m) => m.to).filter((to) => emails.includes(to));
  await expect.poll(() => invitedArrived().length, { timeout: 60_000 }).toBe(2);
  expect(new Set(invitedArrived()).size).toBe(2);
});

test('an ARCO answer says the e-mail to the customer is queued, not that it was sent', async ({ page, request }) => {
  await studioMail(request, await apiLogin(request, serverUrl, 'admin@estudio.demo'));
  const customer = await apiLogin(request, serverUrl, 'cliente@estudio.demo');
  const asked = await request.post(`${serverUrl}/api/customer/privacy_requests`, {
    headers: { Authorization: `Bearer ${customer}` },
    data: { kind: 'rectification', details: 'Mi segundo apellido se escribe con z: Gómez.' },
  });
  expect(asked.ok(), await asked.text()).toBeTruthy();
  await adminDesk(page);
  await openSection(page, 'Derechos ARCO');
  const request_ = page.getByTestId('privacy-request').filter({ hasText: 'Mi segundo apellido se escribe con z' });
  await request_.getByRole('button', { name: 'Responder' }).click();
  const dialog = page.getByTestId('privacy-answer');
  await expect(dialog.getByTestId('privacy-answer-mail')).toHaveText('Al guardarla, se le enviará por correo a cliente@estudio.demo; también la lee en Mi Información.');
  await dialog.getByRole('textbox', { name: 'Respuesta para el cliente' }).fill('Listo: ya corregimos tu apellido.');
  await shootDesk(page, 'privacy-answer-mail', undefined, { fullPage: false });
  await dialog.getByRole('button', { name: 'Guardar respuesta' }).click();
  const notice = page.locator('.mantine-Notification-root').filter({ hasText: 'Respuesta guardada.' });
  await expect(notice).toContainText('Se enviará al cliente por correo en unos minutos; está en la bandeja de salida (Mensajes).');
  await shootDesk(page, 'privacy-answer-queued', undefined, { fullPage: false });
});
