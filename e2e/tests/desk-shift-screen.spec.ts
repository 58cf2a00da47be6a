import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Locator, type Page } from './fixtures.ts';
import { apiLogin, deskLink, repoRoot, stop, waitFor, deskWebProcess, serverProcess, deskSignIn } from './desk-processes.ts';
import { localDate, studioTimeZone } from './booking-helpers.ts';

/**
 * The details of the screen a receptionist looks at all
 * shift, in Chromium against `desk:web` with its own server. The 'Asistió'
 * badge is whole; classes that ended go below the ones to come; at 1024×768
 * the roster starts above the fold beside the scan panel; a toast covers
 * nothing of 'Registrar asistencia'; 'Días de acceso' 0 is refused in words,
 * not turned into 1. Screenshots at the three desk sizes when SHOTS_DIR is set.
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverPort = basePort + 54;
const deskPort = basePort + 55;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(repoRoot, '.tmp', `desk-shift-screen-e2e-${basePort}`);
const shots = process.env.SHOTS_DIR;
const sizes = [
  { width: 1366, height: 900 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
];

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

test.setTimeout(300_000);

test.beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(path.join(work, 'no-portal'), { recursive: true });
  writeFileSync(path.join(work, 'README'), 'Datos desechables de la prueba de la pantalla de recepción.');
  server = serverProcess({ port: serverPort, work });
  await waitFor(`${serverUrl}/api/health`, 120_000);
  desk = deskWebProcess({ port: deskPort, work, serverUrl });
  await waitFor(`${deskUrl}/health`, 240_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const localTime = (at: Date) =>
  new Intl.DateTimeFormat('en-GB', { timeZone: studioTimeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);

/** A class under way today at the first location, booked by cliente@ (so its roster has a row to check in). */
async function classToCome(request: APIRequestContext): Promise<{ classId: number; reservationId: number }> {
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const staff = await apiLogin(request, serverUrl, 'recepcion@estudio.demo');
  // Check-in open all day (decision 016), so a roster click checks in whatever the hour.
  const opened = await request.put(`${serverUrl}/api/appconfig`, {
    headers: bearer(admin),
    data: { config: [{ key: 'check_in_opens_minutes', value: '1440' }, { key: 'check_in_closes_minutes', value: '1440' }] },
  });
  expect(opened.ok(), await opened.text()).toBeTruthy();
  const types = (await (await request.get(`${serverUrl}/api/class_types`)).json()) as { class_types: { class_type_id: number; name: string }[] };
  const locations = (await (await request.get(`${serverUrl}/api/locations`)).json()) as { locations: { location_id: number }[] };
  const type = types.class_types.find((t) => t.name === 'Yoga');
  // Under way (started 5 minutes ago, 50 minutes long), so it is today's whatever the hour; in the first
  // minutes of the day, one starting in a minute.
  const started = new Date(Date.now() - 5 * 60_000);
  const soon = localDate(started) === localDate(new Date()) ? started : new Date(Date.now() + 60_000);
  const created = await request.post(`${serverUrl}/api/single_class`, {
    headers: bearer(admin),
    data: { date: localDate(soon), time: localTime(soon), duration_minutes: 50, capacity: 10, location_id: locations.locations[0]?.location_id, class_type_id: type?.class_type_id, description: 'Clase en curso', allow_overlap: true },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const classId = ((await created.json()) as { single_class: { single_class_id: number } }).single_class.single_class_id;
  const cliente = await apiLogin(request, serverUrl, 'cliente@estudio.demo');
  const me = (await (await request.get(`${serverUrl}/api/customer`, { headers: bearer(cliente) })).json()) as { customer: { customer_id: number } };
  const booked = await request.post(`${serverUrl}/api/class_reservations`, { headers: bearer(staff), data: { single_class_id: classId, customer_id: me.customer.customer_id } });
  expect(booked.ok(), await booked.text()).toBeTruthy();
  const reservationId = ((await booked.json()) as { class_reservation: { class_reservation_id: number } }).class_reservation.class_reservation_id;
  return { classId, reservationId };
}

async function photograph(page: Page, name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(shots, `${name}-${size.width}x${size.height}.png`) });
  }
  await page.setViewportSize(sizes[0] ?? { width: 1366, height: 900 });
}

/** An element, or one inside it, narrower than its text (an ellipsis shows). */
const isCut = (el: Element) => [...el.querySelectorAll('*'), el].some((e) => e.scrollWidth > e.clientWidth + 1);

const overlaps = async (a: Locator, b: Locator) => {
  const [x, y] = [await a.boundingBox(), await b.boundingBox()];
  if (!x || !y) return false;
  return x.x < y.x + y.width && y.x < x.x + x.width && x.y < y.y + y.height && y.y < x.y + x.height;
};

test('the shift screen: whole badges, classes to come first, the roster above the fold, toasts aside, 0 days refused', async ({ page, request }) => {
  const { classId, reservationId } = await classToCome(request);
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto(deskLink(deskUrl));
  await deskSignIn(page, 'recepcion@estudio.demo');
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  await expect(page.getByText('Descargando los datos del estudio…')).toHaveCount(0, { timeout: 60_000 });

  // The class to come is the first card, before any class that ended; the row is above the fold at 1024×768.
  const card = page.locator(`[data-class-id="${classId}"]`);
  await expect(card).toBeVisible({ timeout: 30_000 });
  await expect(card).toHaveAttribute('data-finished', 'false');
  // First comes a class not yet over: this one, or a seed class under way at the same hour (07:00–08:00 in the studio).
  const cards = page.locator('[data-class-id]:visible');
  await expect(cards.first()).toHaveAttribute('data-finished', 'false');
  const finished = page.locator('[data-finished="true"]:visible');
  if ((await finished.count()) > 0) {
    expect((await finished.first().boundingBox())?.y ?? 0).toBeGreaterThan((await card.boundingBox())?.y ?? 0);
  }
  // The first class's roster starts above the fold at 1024×768: ours, or a seed class under way at the same hour
  // (07:00 and 19:00 in the studio; at 19:10 the seed's 19:00 Yoga and its eight rows come first).
  const firstRow = cards.first().locator('tr[data-reservation-id]').first();
  const box = await firstRow.boundingBox();
  expect(box, 'the first roster row').not.toBeNull();
  expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(768);
  const row = page.locator(`tr[data-reservation-id="${reservationId}"]`);
  await row.scrollIntoViewIfNeeded();

  // A roster click checks in: the badge reads whole (not 'ASIST…').
  await row.getByRole('button').first().click();
  const badge = row.getByTestId('attended');
  await expect(badge).toBeVisible();
  expect(await badge.evaluate(isCut), 'the Asistió badge is cut').toBe(false);
  // Every badge of the row (how it was paid too, which read 'P…'), on this screen and on a phone.
  for (const size of [null, { width: 390, height: 844 }]) {
    if (size) await page.setViewportSize(size);
    for (const each of await row.locator('.mantine-Badge-root').all()) expect(await each.evaluate(isCut), `${await each.textContent()} is cut`).toBe(false);
  }
  await page.setViewportSize({ width: 1024, height: 768 });
  await photograph(page, 'today');

  // 'Días de acceso' 0: refused with a Spanish message, and still 0 (it used to become 1 on leaving the field).
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('cliente');
  await page.getByTestId('customer-hit').filter({ hasText: 'cliente@estudio.demo' }).click();
  // The customer card's reservations: the same badge, whole there too.
  const cardBadge = page.getByTestId('customer-card').locator('.mantine-Badge-root', { hasText: 'Asistió' }).first();
  await expect(cardBadge).toBeVisible();
  expect(await cardBadge.evaluate(isCut), 'the Asistió badge of the card is cut').toBe(false);
  await page.getByRole('button', { name: 'Agregar acceso' }).first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Paquete').click();
  await page.getByRole('option').first().click();
  const days = dialog.getByTestId('access-days');
  await days.fill('0');
  await days.blur();
  await expect(days).toHaveValue('0');
  await dialog.getByLabel('Es regalo').check();
  await dialog.getByRole('button', { name: 'Agregar acceso' }).click();
  await expect(dialog.getByText('Escribe un número entero de días mayor que cero.')).toBeVisible();
  await expect(days).toHaveValue('0');
  await photograph(page, 'access-days-0');

  // With 2 days and the gift's reason (decision 037) it goes through; its toast covers nothing of 'Registrar asistencia'.
  await days.fill('2');
  await dialog.getByTestId('action-reason').fill('Compensación por la clase cancelada del martes');
  await dialog.getByRole('button', { name: 'Agregar acceso' }).click();
  await expect(dialog).toHaveCount(0);
  const toast = page.locator('.mantine-Notification-root').first();
  await expect(toast).toBeVisible();
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.waitForTimeout(200);
    const button = page.getByRole('button', { name: 'Registrar asistencia' });
    if ((await toast.count()) && (await toast.isVisible())) expect(await overlaps(toast, button), `toast over the button at ${size.width}`).toBe(false);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
  if (shots) await page.screenshot({ path: path.join(shots, 'toast-1366x900.png') });
});
