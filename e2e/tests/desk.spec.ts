import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { apiLogin, deskKey, deskLink, repoRoot, stop, waitFor, deskWebProcess, serverProcess, deskSignIn } from './desk-processes.ts';
import { localDate } from './booking-helpers.ts';

/**
 * The front desk in Chromium against `desk:web`: its own server and desk
 * processes, so the test can take the server away and bring it back.
 */
const root = repoRoot;
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverPort = basePort + 50;
const deskPort = basePort + 51;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(root, '.tmp', `desk-e2e-${basePort}`);

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

async function startServer(): Promise<void> {
  server = serverProcess({ port: serverPort, work });
  await waitFor(`${serverUrl}/api/health`, 120_000);
}

/**
 * The seed's classes of today are at fixed hours: open the check-in window to
 * the whole day (decision 016), so these tests do not depend on the hour they
 * run at (desk-check-in-outcome.spec.ts tests the window itself).
 */
async function openCheckInAllDay(request: APIRequestContext): Promise<void> {
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const answer = await request.put(`${serverUrl}/api/appconfig`, {
    headers: { Authorization: `Bearer ${admin}` },
    data: { config: [{ key: 'check_in_opens_minutes', value: '1440' }, { key: 'check_in_closes_minutes', value: '1440' }] },
  });
  expect(answer.ok(), await answer.text()).toBeTruthy();
}

interface Reservation {
  class_reservation_id: number;
  access_code: string;
  single_class_id: number;
  attend: boolean;
  single_class: { class_date: string };
}

async function reservationsOfClass(request: APIRequestContext, token: string, singleClassId: number): Promise<Reservation[]> {
  const answer = await request.get(`${serverUrl}/api/class_reservations`, { params: { single_class_id: singleClassId }, headers: { Authorization: `Bearer ${token}` } });
  expect(answer.ok()).toBeTruthy();
  return ((await answer.json()) as { class_reservations: Reservation[] }).class_reservations;
}

/** Clicks through the location tabs of Hoy until the reservation's row shows. */
async function showRow(page: Page, reservationId: number) {
  await page.getByRole('tab', { name: 'Hoy' }).click();
  const row = page.locator(`tr[data-reservation-id="${reservationId}"]`);
  const tabs = page.getByRole('tablist').nth(1).getByRole('tab');
  for (let i = 0; i < (await tabs.count()) && !(await row.isVisible()); i++) await tabs.nth(i).click();
  await expect(row).toBeVisible();
  return row;
}

test.beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(path.join(work, 'no-portal'), { recursive: true });
  writeFileSync(path.join(work, 'README'), 'Datos desechables de la prueba de recepción.');
  await startServer();
  desk = deskWebProcess({ port: deskPort, work, serverUrl });
  await waitFor(`${deskUrl}/health`, 180_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

test('staff check in a QR link and a roster click, the second while the server is down', async ({ page, request }) => {
  // cliente@'s reservation today (the demo seed books her into a class of today).
  const cliente = await apiLogin(request, serverUrl, 'cliente@estudio.demo');
  const mine = async (filter: string) => {
    const answer = await request.get(`${serverUrl}/api/class_reservations/mine`, { params: { filter }, headers: { Authorization: `Bearer ${cliente}` } });
    return ((await answer.json()) as { class_reservations: Reservation[] }).class_reservations;
  };
  const today = localDate(new Date());
  const todays = [...(await mine('upcoming')), ...(await mine('past'))].find((r) => localDate(r.single_class.class_date) === today);
  expect(todays, 'the demo seed gives cliente@ a reservation today').toBeDefined();
  const reservationId = todays?.class_reservation_id ?? 0;
  await openCheckInAllDay(request);

  await page.goto(deskLink(deskUrl));
  await deskSignIn(page, 'recepcion@estudio.demo');
  const indicator = page.getByTestId('sync-indicator');
  await expect(indicator).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  await expect(page.getByText('Descargando los datos del estudio…')).toHaveCount(0, { timeout: 60_000 });

  // Hoy's rosters are drawn once and kept: her row's node is marked here, and after a visit to Clientes and the
  // changes of location below (a click, then the scan's) it must be the same node, not one drawn again.
  const herRow = page.locator(`tr[data-reservation-id="${reservationId}"]`);
  await expect(herRow).toBeAttached();
  await herRow.evaluate((el) => el.setAttribute('data-drawn-once', 'true'));

  // Customer search as you type.
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('clie');
  const hit = page.getByTestId('customer-hit').filter({ hasText: 'cliente@estudio.demo' });
  await expect(hit).toBeVisible();
  await hit.click();
  await expect(page.getByTestId('customer-card').getByRole('heading', { name: 'Mariana López' })).toBeVisible();

  // Hoy on another location than her class's: the scan brings her class's location to the screen.
  await page.getByRole('tab', { name: 'Hoy' }).click();
  const locationTabs = page.getByRole('tablist').nth(1).getByRole('tab');
  await expect(locationTabs.first()).toBeVisible();
  expect(await locationTabs.count(), 'the demo studio has more than one location').toBeGreaterThan(1);
  // Every location's panel is drawn soon after the screen opens, the one on screen and the others.
  await expect(page.locator('[role="tabpanel"][data-location-id]')).toHaveCount(await locationTabs.count());
  await expect(herRow).toHaveAttribute('data-drawn-once', 'true');
  for (let i = 0; i < (await locationTabs.count()) && (await herRow.isVisible()); i++) await locationTabs.nth(i).click();
  // Another location on screen, hers drawn and hidden: no gap where it is, at the desk's sizes.
  if (process.env.SHOTS_DIR) {
    const size = page.viewportSize();
    for (const [width, height] of [[390, 844], [1280, 720], [1366, 900]] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: `${process.env.SHOTS_DIR}/today-other-location-${width}x${height}.png`, fullPage: true });
    }
    if (size) await page.setViewportSize(size);
  }
  // Not on screen: every location's rosters are drawn once and kept, the ones not shown hidden.
  await expect(herRow).toBeHidden();

  // Whether her row was already on screen when her name first showed on the verdict: the verdict is painted first,
  // and her location is shown after it.
  await herRow.evaluate((row) => {
    (window as { rowShownWithVerdict?: Promise<boolean> }).rowShownWithVerdict = new Promise<boolean>((resolve) => {
      const observer = new MutationObserver(() => {
        if (document.querySelector('[data-testid="scan-name"]')?.textContent !== 'Mariana López') return;
        observer.disconnect();
        resolve(row.checkVisibility());
      });
      observer.observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  });
  // The Código de Acceso link, pasted into the scanner field as a keyboard-wedge scanner types it.
  const scanner = page.getByTestId('scanner-input');
  await scanner.fill(`${serverUrl}/admin/reservaciones/${reservationId}/${todays?.access_code}`);
  await scanner.press('Enter');
  const result = page.getByTestId('scan-result');
  await expect(result).toHaveAttribute('data-checked-in', 'true');
  expect(await page.evaluate(() => (window as { rowShownWithVerdict?: Promise<boolean> }).rowShownWithVerdict), 'her location shown only after the verdict').toBe(false);
  // Her row, on screen without a click, marked as the one just checked in.
  await expect(herRow).toHaveAttribute('data-just-checked-in', 'true');
  await expect(herRow).toHaveAttribute('data-drawn-once', 'true');
  // Her location's tab is the selected one, and it names the panel her row is in.
  const selectedLocation = locationTabs.and(page.locator('[aria-selected="true"]'));
  const herPanel = page.locator(`[id="${await selectedLocation.getAttribute('aria-controls')}"]`);
  await expect(herPanel).toHaveRole('tabpanel');
  await expect(herPanel).toHaveAttribute('aria-labelledby', (await selectedLocation.getAttribute('id')) ?? 'sin pestaña');
  await expect(herPanel.locator(`tr[data-reservation-id="${reservationId}"]`)).toBeVisible();
  await expect(page.getByTestId('scan-name')).toHaveText('Mariana López');
  const fontSize = await page.getByTestId('scan-name').evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  expect(fontSize).toBeGreaterThanOrEqual(40);
  await expect(result).toContainText('Asistencia registrada');
  const row = await showRow(page, reservationId);
  await expect(row).toHaveAttribute('data-attended', 'true');
  await expect(row.getByTestId('attended')).toHaveText('Asistió');
  // A roster row stays light: a class of 40 is 40 rows, drawn at each refresh and restyled at each change of
  // location. Mantine's table, texts, badges and menu drew 21 elements for this one (decision 148).
  expect(await row.locator('*').count(), 'elements in a checked-in roster row').toBeLessThanOrEqual(12);
  // Its '⋯' opens the reservation's menu on the first click.
  await row.getByTestId('reservation-menu').click();
  await expect(page.getByRole('menuitem', { name: 'Deshacer asistencia' })).toBeVisible();
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/roster-row-menu-open.png` });
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem', { name: 'Deshacer asistencia' })).toHaveCount(0);

  // The server has it.
  await expect.poll(async () => (await mine('all')).find((r) => r.class_reservation_id === reservationId)?.attend, { timeout: 20_000 }).toBe(true);
  await expect(page.getByTestId('pending-count')).toHaveText('Todo enviado');

  // Someone else booked today who has not arrived (asked of the server, so the test does not depend on the hour).
  const staff = await apiLogin(request, serverUrl, 'recepcion@estudio.demo');
  const todayList = await request.get(`${serverUrl}/api/class_reservations`, { params: { start_date: today, end_date: today }, headers: { Authorization: `Bearer ${staff}` } });
  const other = ((await todayList.json()) as { class_reservations: (Reservation & { single_class: { cancelledAt: string | null } })[] }).class_reservations.find(
    (r) => !r.attend && r.class_reservation_id !== reservationId && !r.single_class.cancelledAt,
  );
  expect(other, 'the demo seed has someone still to arrive today').toBeDefined();
  const otherId = other?.class_reservation_id ?? 0;
  const waiting = await showRow(page, otherId);
  await expect(waiting).toHaveAttribute('data-attended', 'false');

  // The server goes away; the desk keeps checking people in.
  await stop(server);
  await expect(indicator).toHaveAttribute('data-online', 'false', { timeout: 30_000 });
  await waiting.getByRole('button').first().click();
  await expect(page.getByTestId('scan-result')).toHaveAttribute('data-checked-in', 'true');
  await expect(page.locator(`tr[data-reservation-id="${otherId}"]`)).toHaveAttribute('data-attended', 'true');
  await expect(page.getByTestId('pending-count')).toHaveText('1 cambio sin enviar');
  await expect(indicator).toHaveAttribute('data-online', 'false');
  await expect(indicator).toContainText('Sin conexión');
  await expect(page.getByTestId('scan-result')).toContainText('Guardado en esta recepción; se enviará al volver la conexión.');

  // The server comes back on the same database: the outbox drains and the server has the check-in.
  await startServer();
  await expect(indicator).toHaveAttribute('data-online', 'true', { timeout: 90_000 });
  await expect(page.getByTestId('pending-count')).toHaveText('Todo enviado', { timeout: 60_000 });
  const roster = await reservationsOfClass(request, await apiLogin(request, serverUrl, 'recepcion@estudio.demo'), other?.single_class_id ?? 0);
  expect(roster.find((r) => r.class_reservation_id === otherId)?.attend).toBe(true);
});

test('staff grant access, remove classes and revoke access from the customer card', async ({ page, request }) => {
  const nuevo = await apiLogin(request, serverUrl, 'nuevo@estudio.demo');
  const serverCredits = async () => {
    const answer = await request.get(`${serverUrl}/api/available_classes`, { headers: { Authorization: `Bearer ${nuevo}` } });
    return ((await answer.json()) as { total: number }).total;
  };
  expect(await serverCredits()).toBe(0);

  await page.goto(deskLink(deskUrl));
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('nuevo@');
  await page.getByTestId('customer-hit').filter({ hasText: 'nuevo@estudio.demo' }).click();
  const card = page.getByTestId('customer-card');
  await expect(card.getByTestId('credit-total')).toHaveText('0');

  // Grant: the form says what is missing, in Spanish, before anything is sent.
  await card.getByRole('button', { name: 'Agregar acceso' }).click();
  const grant = page.getByRole('dialog', { name: /Agregar acceso/ });
  await grant.getByRole('button', { name: 'Agregar acceso' }).click();
  await expect(grant.getByText('Elige un paquete.')).toBeVisible();
  await grant.getByLabel('Paquete').click();
  await page.getByRole('option', { name: /^10 Clases/ }).click();
  await grant.getByLabel('Forma de pago').click();
  await page.getByRole('option', { name: 'Efectivo' }).click();
  await grant.getByRole('button', { name: 'Agregar acceso' }).click();
  await expect(page.getByText('¡Acceso agregado!')).toBeVisible();
  await grant.getByRole('button', { name: 'Listo' }).click();

  await expect(card.getByTestId('credit-total')).toHaveText('10');
  await expect.poll(serverCredits, { timeout: 20_000 }).toBe(10);

  await card.getByRole('button', { name: 'Restar clases' }).click();
  const remove = page.getByRole('dialog', { name: /Restar clases/ });
  // Taking classes or access away says why (decision 037).
  await remove.getByTestId('action-reason').fill('Clases duplicadas por error');
  await remove.getByLabel('Cantidad de clases').fill('30');
  await remove.getByRole('button', { name: 'Restar clases' }).click();
  await expect(remove.getByText('El cliente no tiene tantas clases.')).toBeVisible();
  await remove.getByLabel('Cantidad de clases').fill('3');
  await remove.getByRole('button', { name: 'Restar clases' }).click();
  await expect(page.getByText('¡Clases Restadas!')).toBeVisible();
  await expect(card.getByTestId('credit-total')).toHaveText('7');
  await expect.poll(serverCredits, { timeout: 20_000 }).toBe(7);

  await card.getByRole('tab', { name: 'Compras' }).click();
  const purchase = card.locator('tr[data-purchase-id]').filter({ hasText: '10 Clases' });
  await purchase.getByRole('button', { name: 'Eliminar acceso' }).click();
  const revoke = page.getByRole('dialog', { name: /Eliminar acceso/ });
  await revoke.getByTestId('action-reason').fill('La clienta pidió cancelar su paquete');
  await revoke.getByRole('button', { name: 'Eliminar acceso' }).click();
  await expect(page.getByText('¡Acceso eliminado!')).toBeVisible();
  await expect(purchase).toContainText('Eliminada');
  await expect(card.getByTestId('credit-total')).toHaveText('0');
  await expect.poll(serverCredits, { timeout: 20_000 }).toBe(0);
  await expect(page.getByTestId('pending-count')).toHaveText('Todo enviado');
});

test('a keyboard-wedge scanner is heard whatever has the focus, and a reservation of another day is shown, not checked in', async ({ page, request }) => {
  const cliente = await apiLogin(request, serverUrl, 'cliente@estudio.demo');
  const answer = await request.get(`${serverUrl}/api/class_reservations/mine`, { params: { filter: 'upcoming' }, headers: { Authorization: `Bearer ${cliente}` } });
  const later = ((await answer.json()) as { class_reservations: Reservation[] }).class_reservations.find((r) => localDate(r.single_class.class_date) !== localDate(new Date()));
  expect(later, 'the demo seed gives cliente@ an upcoming reservation on another day').toBeDefined();

  await page.goto(deskLink(deskUrl));
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  // Focus on no field at all: the scanner "types" anyway.
  await page.getByRole('heading', { name: 'Recepción', exact: true }).click();
  await page.keyboard.type(`${serverUrl}/admin/reservaciones/${later?.class_reservation_id}/${later?.access_code}`);
  await page.keyboard.press('Enter');
  const result = page.getByTestId('scan-result');
  await expect(result).toHaveAttribute('data-checked-in', 'false');
  await expect(page.getByTestId('scan-name')).toHaveText('Mariana López');
  await expect(result).toHaveAttribute('data-outcome', 'refused');
  await expect(page.getByTestId('scan-outcome-detail')).toHaveText('Esta reservación es para otro día.');

  await page.keyboard.type('hola');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('scan-error')).toContainText('Esto no es un Código de Acceso del estudio.');

  // The camera: this machine has none, and the desk says so in Spanish.
  await page.getByRole('button', { name: 'Cámara' }).click();
  await expect(page.getByRole('dialog', { name: 'Escanear con la cámara' })).toContainText('No pudimos usar la cámara.');
});

test("answers only its own page: a local process without this run's key gets 401, the page opened with the link works", async ({ browser, request }) => {
  // Signed in from the tests above: the session belongs to recepcion@ (curl read the sales report).
  const salesReport = `${deskUrl}/trpc/server.query?input=${encodeURIComponent(JSON.stringify({ path: 'reports.sales', input: {} }))}`;
  for (const url of [`${deskUrl}/trpc/session.get`, salesReport, deskUrl, `${deskUrl}/?llave=otra`]) {
    const answer = await request.get(url, { maxRedirects: 0 });
    expect(answer.status(), url).toBe(401);
    expect(await answer.text(), url).not.toContain('@estudio.demo');
  }

  // A browser tab without the link sees how to open the desk, in Spanish.
  const stranger = await browser.newContext();
  const tab = await stranger.newPage();
  await tab.goto(deskUrl);
  await expect(tab.getByText('Abre la recepción con el enlace que muestra la terminal donde la iniciaste (npm run desk:web).')).toBeVisible();
  await stranger.close();

  // The link: the key becomes a cookie, leaves the address bar, and the desk works.
  const staffContext = await browser.newContext();
  const page = await staffContext.newPage();
  await page.goto(deskLink(deskUrl));
  await expect(page).toHaveURL(`${deskUrl}/`);
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  const cookie = (await staffContext.cookies(deskUrl)).find((c) => c.value === deskKey);
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
  await staffContext.close();
});
