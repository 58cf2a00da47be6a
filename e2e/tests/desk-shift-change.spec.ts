import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './fixtures.ts';
import { demoPassword } from './helpers.ts';
import { apiLogin, deskLink, repoRoot, stop, waitFor, deskWebProcess, serverProcess, deskSignIn } from './desk-processes.ts';

/**
 * Items 4–6, in Chromium against `desk:web` with its own server
 * process: a shift change while the server is down (a second staff member
 * signs in offline from the lock screen, sets a PIN, locks and unlocks), a
 * change made offline that the server refuses later is named (whom to call,
 * which class or package, the server's reason), and a customer who has not
 * accepted the studio's documents is flagged and accepts them at the counter.
 */
const basePort = Number(process.env.E2E_PORT ?? 3760);
const serverPort = basePort + 50;
const deskPort = basePort + 51;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(repoRoot, '.tmp', `desk-shift-e2e-${basePort}`);
const shots = process.env.SHOTS_DIR ?? path.join(work, 'shots');

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

async function startServer(): Promise<void> {
  server = serverProcess({ port: serverPort, work });
  await waitFor(`${serverUrl}/api/health`, 120_000);
}

/** The screen at the three sizes staff use (reception PC, small laptop, phone). */
async function snap(page: Page, name: string) {
  const original = page.viewportSize();
  for (const [w, h] of [
    [1366, 900],
    [1024, 768],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.waitForTimeout(150);
    await page.screenshot({ path: path.join(shots, `${name}-${w}x${h}.png`) });
  }
  if (original) await page.setViewportSize(original);
}

test.beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(path.join(work, 'no-portal'), { recursive: true });
  mkdirSync(shots, { recursive: true });
  writeFileSync(path.join(work, 'README'), 'Datos desechables de la prueba de cambio de turno.');
  await startServer();
  desk = deskWebProcess({ port: deskPort, work, serverUrl });
  await waitFor(`${deskUrl}/health`, 180_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});


async function openCustomer(page: Page, query: string, email: string) {
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill(query);
  await page.getByTestId('customer-hit').filter({ hasText: email }).click();
  return page.getByTestId('customer-card');
}

test('a shift change with the server down: offline sign-in, lock and PIN, a refused change named, documents accepted at the counter', async ({ page, request }) => {
  await page.goto(deskLink(deskUrl));
  // Both staff members have used this desk online before.
  await deskSignIn(page, 'admin@estudio.demo');
  const indicator = page.getByTestId('sync-indicator');
  await expect(indicator).toHaveAttribute('data-online', 'true', { timeout: 90_000 });
  await expect(page.getByText('Descargando los datos del estudio…')).toHaveCount(0, { timeout: 90_000 });
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await deskSignIn(page, 'recepcion@estudio.demo');
  await expect(indicator).toHaveAttribute('data-online', 'true', { timeout: 60_000 });

  // A customer who has not accepted the required documents: the card says so, staff collect the acceptance.
  const card = await openCustomer(page, 'nuevo@', 'nuevo@estudio.demo');
  const warnings = card.getByTestId('counter-warnings');
  await expect(warnings).toContainText('No ha aceptado:');
  await snap(page, 'card-documents-pending');
  await warnings.getByRole('button', { name: 'Registrar aceptación' }).click();
  const accept = page.getByRole('dialog', { name: /Aceptación de documentos/ });
  await accept.getByRole('button', { name: 'Registrar aceptación' }).click();
  await expect(accept.getByText('Marca al menos un documento que el cliente aceptó.')).toBeVisible();
  const boxes = accept.getByRole('checkbox');
  for (let i = 0; i < (await boxes.count()); i++) await boxes.nth(i).check();
  await snap(page, 'accept-documents');
  await accept.getByRole('button', { name: 'Registrar aceptación' }).click();
  await expect(page.getByText('Aceptación registrada.')).toBeVisible();
  await expect(warnings.getByText('No ha aceptado:')).toHaveCount(0);
  const nuevo = await apiLogin(request, serverUrl, 'nuevo@estudio.demo');
  await expect
    .poll(async () => ((await (await request.get(`${serverUrl}/api/accepted_pages`, { headers: { Authorization: `Bearer ${nuevo}` } })).json()) as { accepted_pages: unknown[] }).accepted_pages.length, {
      timeout: 20_000,
    })
    .toBeGreaterThan(0);

  // The server goes away. The receptionist locks the desk; the next shift's staff member signs in from the lock screen, offline.
  await stop(server);
  await expect(indicator).toHaveAttribute('data-online', 'false', { timeout: 30_000 });
  await page.getByTestId('lock-button').click();
  const lock = page.getByTestId('lock-screen');
  await expect(lock).toContainText('Recepción bloqueada');
  await expect(page.getByTestId('customer-card')).toHaveCount(0);
  await snap(page, 'lock-screen');
  await lock.getByRole('button', { name: 'Entrar con otra cuenta' }).click();
  await lock.getByLabel('Correo electrónico').fill('admin@estudio.demo');
  await lock.getByLabel('Contraseña').fill('Equivocada1!');
  await lock.getByRole('button', { name: 'Entrar' }).click();
  await expect(lock.getByRole('alert')).toHaveText('La contraseña no coincide con la última que usaste en esta recepción.');
  await lock.getByLabel('Contraseña').fill(demoPassword);
  await lock.getByRole('button', { name: 'Entrar' }).click();
  await expect(indicator).toHaveAttribute('data-online', 'false');
  await expect(page.getByTestId('admin-nav')).toBeVisible();

  // Their PIN on this desk, then lock and unlock with it (a wrong one first).
  await page.getByRole('button', { name: 'PIN de bloqueo' }).click();
  await page.getByRole('menuitem', { name: 'PIN de bloqueo' }).click();
  const pinDialog = page.getByRole('dialog', { name: 'Tu PIN en esta recepción' });
  await pinDialog.getByTestId('new-pin').fill('2468');
  await pinDialog.getByLabel('Contraseña').fill(demoPassword);
  await pinDialog.getByRole('button', { name: 'Guardar PIN' }).click();
  await expect(page.getByText('PIN guardado.')).toBeVisible();
  await page.getByTestId('lock-button').click();
  await lock.getByLabel('PIN').fill('1111');
  await lock.getByRole('button', { name: 'Desbloquear' }).click();
  await expect(lock.getByRole('alert')).toHaveText('El PIN no es correcto.');
  await snap(page, 'lock-screen-wrong-pin');
  await lock.getByLabel('PIN').fill('2468');
  await lock.getByRole('button', { name: 'Desbloquear' }).click();
  await expect(lock).toHaveCount(0);

  // Offline, the admin takes all of Mariana's classes away (she asked for a refund at the counter).
  const mariana = await openCustomer(page, 'clie', 'cliente@estudio.demo');
  const credits = Number(await mariana.getByTestId('credit-total').textContent());
  expect(credits).toBeGreaterThan(0);
  await mariana.getByRole('button', { name: 'Restar clases' }).click();
  const remove = page.getByRole('dialog', { name: /Restar clases/ });
  await remove.getByLabel('Cantidad de clases').fill(String(credits));
  // The reason travels with the queued change (decision 037).
  await remove.getByTestId('action-reason').fill('Pidió su reembolso en recepción');
  await remove.getByRole('button', { name: 'Restar clases' }).click();
  await expect(page.getByTestId('pending-count')).toHaveText('1 cambio sin enviar');

  // The server comes back; meanwhile someone at the office already took her classes away there.
  await startServer();
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const cliente = await apiLogin(request, serverUrl, 'cliente@estudio.demo');
  const me = (await (await request.get(`${serverUrl}/api/customer`, { headers: { Authorization: `Bearer ${cliente}` } })).json()) as { customer: { customer_id: number } };
  const taken = await request.put(`${serverUrl}/api/customer/removeClasses`, {
    data: { customer_id: me.customer.customer_id, amount: credits, reason: 'Ajuste de saldo' },
    headers: { Authorization: `Bearer ${admin}` },
  });
  expect(taken.ok()).toBeTruthy();

  // The admin signed in offline: the desk asks for the password once, keeping the change.
  const prompt = page.getByTestId('password-needed');
  await expect(prompt).toBeVisible({ timeout: 60_000 });
  await expect(prompt).toContainText('Tu cambio pendiente sigue guardado');
  await expect(page.getByTestId('pending-count')).toHaveText('1 cambio sin enviar');
  // The header says what is missing: the server answers, the password does not.
  await expect(page.getByTestId('connection-status')).toHaveText('Falta tu contraseña');
  await snap(page, 'password-needed');
  // Leaving now would leave the change behind: the desk says so, and staying keeps everything as it was.
  await page.getByRole('button', { name: 'Cerrar sesión', exact: true }).click();
  const leaving = page.getByRole('dialog', { name: 'Tienes 1 cambio sin enviar' });
  await expect(leaving).toContainText('Se queda guardado en esta recepción y se envía cuando vuelvas a entrar con tu cuenta.');
  await snap(page, 'sign-out-pending');
  await leaving.getByRole('button', { name: 'Seguir aquí' }).click();
  await expect(leaving).toHaveCount(0);
  await prompt.getByLabel('Contraseña').fill(demoPassword);
  await prompt.getByRole('button', { name: 'Conectar' }).click();

  // The server refuses it: the list names whom to call and why, until 'Entendido'.
  const rejection = page.getByTestId('rejection');
  await expect(rejection).toBeVisible({ timeout: 60_000 });
  await expect(rejection).toContainText('Restar clases: Mariana López');
  await expect(rejection).toContainText('Llama a Mariana López');
  await expect(rejection).toContainText(`${credits} clases`);
  await expect(rejection).toContainText('El cliente no tiene suficientes clases para restar.');
  await expect(indicator).toHaveAttribute('data-online', 'true');
  await snap(page, 'rejection-named');
  // It survives a reload of the desk screen (and a restart of the desk: it is kept in the replica).
  await page.reload();
  await expect(page.getByTestId('rejection')).toBeVisible();
  await page.getByTestId('rejection').getByRole('button', { name: 'Entendido' }).click();
  await expect(page.getByTestId('rejection')).toHaveCount(0);
});
