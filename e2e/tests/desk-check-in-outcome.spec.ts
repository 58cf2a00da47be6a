import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { apiLogin, deskLink, repoRoot, stop, waitFor, deskWebProcess, serverProcess, deskSignIn } from './desk-processes.ts';
import { addDays, weekStart } from './booking-helpers.ts';
import { launchOptionsOn, nowOn } from './pinned-clock.ts';
import { testClockEnv } from '../../scripts/test-clock.mjs';

/**
 *, "a green screen must mean let them in": the desk's scan panel in
 * Chromium against desk:web and its own server. Green admits now; amber says
 * the person already came in, and at what time; red refuses with the reason.
 * Screenshots of each at 1366×900, 1024×768 and 390×844.
 */
const basePort = Number(process.env.E2E_PORT ?? 3720);
const serverPort = basePort + 50;
const deskPort = basePort + 51;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(repoRoot, '.tmp', `desk-outcome-e2e-${basePort}`);
const shots = process.env.SHOTS_DIR ?? path.join(work, 'shots');
const tz = 'America/Mexico_City';

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

/**
 * The studio (server, desk and Chromium) runs on a clock pinned to a Wednesday
 * at 10:00 in Mexico City, whatever the hour of the run (decision 010): its classes start minutes from now, and at 23:30 those
 * are tomorrow's (another day: red).
 */
const clock = testClockEnv(`${addDays(weekStart(new Date()), 16)}T10:00:00-06:00`);
test.use({ launchOptions: launchOptionsOn(clock) });

const viewports = [
  { width: 1366, height: 900 },
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
];

/** Studio-local date and HH:mm of now plus `minutes`. */
function studioClock(minutes: number): { date: string; time: string } {
  const at = new Date(nowOn(clock).getTime() + minutes * 60_000);
  const date = new Intl.DateTimeFormat('en-CA', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
  const time = new Intl.DateTimeFormat('en-GB', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
  return { date, time };
}

interface Booking {
  id: number;
  code: string;
}

/** The admin creates a class at now + `minutes` (studio time) and books cliente@ into it; the reservation's id and access code. */
async function bookCliente(request: APIRequestContext, minutes: number): Promise<Booking> {
  const auth = (token: string) => ({ Authorization: `Bearer ${token}` });
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const cliente = await apiLogin(request, serverUrl, 'cliente@estudio.demo');
  const me = (await (await request.get(`${serverUrl}/api/customer`, { headers: auth(cliente) })).json()) as { customer: { customer_id: number } };
  const types = (await (await request.get(`${serverUrl}/api/class_types`)).json()) as { class_types: { class_type_id: number; name: string }[] };
  const locations = (await (await request.get(`${serverUrl}/api/locations`)).json()) as { locations: { location_id: number }[] };
  const type = types.class_types.find((t) => t.name === 'Yoga') ?? types.class_types[0];
  // Booked ahead (the portal's rules refuse a class that started), then moved to its time: moving keeps the booking.
  const { date, time } = studioClock(Math.max(minutes, 30));
  const created = await request.post(`${serverUrl}/api/single_class`, {
    headers: auth(admin),
    data: { date, time, duration_minutes: 50, capacity: 8, location_id: locations.locations[0]?.location_id, class_type_id: type?.class_type_id, description: 'Clase de prueba de recepción', allow_overlap: true },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  const { single_class } = (await created.json()) as { single_class: { single_class_id: number } };
  const booked = await request.post(`${serverUrl}/api/class_reservations`, { headers: auth(admin), data: { single_class_id: single_class.single_class_id, customer_id: me.customer.customer_id } });
  expect(booked.ok(), await booked.text()).toBeTruthy();
  const { class_reservation } = (await booked.json()) as { class_reservation: { class_reservation_id: number; access_code: string } };
  if (minutes < 30) {
    const moved = await request.put(`${serverUrl}/api/single_class`, { headers: auth(admin), data: { single_class_id: single_class.single_class_id, ...studioClock(minutes), allow_overlap: true } });
    expect(moved.ok(), await moved.text()).toBeTruthy();
  }
  return { id: class_reservation.class_reservation_id, code: class_reservation.access_code };
}

/** What a keyboard-wedge scanner does: types the QR's text and Enter, wherever the focus is. */
async function wedge(page: Page, text: string): Promise<void> {
  await page.keyboard.type(text, { delay: 2 });
  await page.keyboard.press('Enter');
}

test.beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(path.join(work, 'no-portal'), { recursive: true });
  mkdirSync(shots, { recursive: true });
  writeFileSync(path.join(work, 'README'), 'Datos desechables de la prueba de recepción.');
  server = serverProcess({ port: serverPort, work, env: { ...clock } });
  await waitFor(`${serverUrl}/api/health`, 120_000);
  desk = deskWebProcess({ port: deskPort, work, serverUrl, env: { ...clock } });
  await waitFor(`${deskUrl}/health`, 180_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

test('green admits now, amber says when they already came in, red refuses with the reason; at four screen sizes', async ({ page, request }) => {
  test.setTimeout(240_000);
  // One class per screen size starting in a few minutes (inside the check-in window), and one that ended hours ago.
  const soon = [await bookCliente(request, 10), await bookCliente(request, 12), await bookCliente(request, 14), await bookCliente(request, 16)];
  const longAgo = studioClock(-4 * 60).date === studioClock(0).date ? await bookCliente(request, -4 * 60) : null;

  await page.setViewportSize(viewports[0] ?? { width: 1366, height: 900 });
  await page.goto(deskLink(deskUrl));
  await deskSignIn(page, 'recepcion@estudio.demo');
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  await expect(page.getByText('Descargando los datos del estudio…')).toHaveCount(0, { timeout: 60_000 });
  const scanner = page.getByTestId('scanner-input');

  for (const [i, viewport] of viewports.entries()) {
    const size = `${viewport.width}x${viewport.height}`;
    const booking = soon[i];
    if (!booking) throw new Error('booking');
    await page.setViewportSize(viewport);
    // Focus on no field: the scanner is heard anyway.
    await page.locator('body').click({ position: { x: 2, y: 2 } });

    // Green: the QR link, first scan.
    await wedge(page, `${serverUrl}/admin/reservaciones/${booking.id}/${booking.code}`);
    const result = page.getByTestId('scan-result');
    await expect(result).toHaveAttribute('data-outcome', 'admitted');
    await expect(page.getByTestId('scan-outcome')).toHaveText('PUEDE PASAR');
    await expect(page.getByTestId('scan-name')).toHaveText('Mariana López');
    await expect(page.getByTestId('scan-avatar')).toHaveText('ML');
    const admittedAt = /(\d{2}:\d{2})$/.exec((await page.getByTestId('scan-outcome-detail').textContent()) ?? '')?.[1];
    expect(admittedAt).toMatch(/^\d{2}:\d{2}$/);
    await expect(scanner).toBeFocused();
    await page.screenshot({ path: path.join(shots, `outcome-green-${size}.png`) });
    // Her row in today's roster, marked as the one just checked in.
    await expect(page.locator(`tr[data-reservation-id="${booking.id}"]`)).toHaveAttribute('data-just-checked-in', 'true');
    await page.screenshot({ path: path.join(shots, `outcome-green-roster-${size}.png`), fullPage: true });

    // Amber: the same code again, typed as staff read it (lower case, with the dash).
    await wedge(page, `${booking.code.slice(0, 5)}-${booking.code.slice(5)}`.toLowerCase());
    await expect(result).toHaveAttribute('data-outcome', 'already');
    await expect(page.getByTestId('scan-outcome')).toHaveText('YA REGISTRADO');
    await expect(page.getByTestId('scan-outcome-detail')).toHaveText(`Ya entró: su asistencia se registró a las ${admittedAt}.`);
    await expect(scanner).toBeFocused();
    await page.screenshot({ path: path.join(shots, `outcome-amber-${size}.png`) });

    // Red: the old sequential link of the same reservation.
    await wedge(page, `${serverUrl}/admin/reservaciones/${booking.id}`);
    const refused = page.getByTestId('scan-error');
    await expect(refused).toHaveAttribute('data-outcome', 'refused');
    await expect(refused).toContainText('NO PASA');
    await expect(refused).toContainText('Este código ya no es válido');
    await expect(scanner).toBeFocused();
    await page.screenshot({ path: path.join(shots, `outcome-red-old-code-${size}.png`) });

    // Red: a class that ended hours ago (when today still has such hours).
    if (longAgo) {
      await wedge(page, longAgo.code);
      await expect(result).toHaveAttribute('data-outcome', 'refused');
      await expect(page.getByTestId('scan-outcome')).toHaveText('NO PASA');
      await expect(page.getByTestId('scan-outcome-detail')).toContainText('Ya cerró el registro de asistencia de esta clase');
      await page.screenshot({ path: path.join(shots, `outcome-red-too-late-${size}.png`) });
    }
  }

  // Another site's link: refused, and nothing reached the server for it.
  await wedge(page, 'https://otro-estudio.mx/admin/reservaciones/177');
  await expect(page.getByTestId('scan-error')).toContainText('NO PASA');
  // The checked-in reservations reached the server once each; the late one did not.
  const staff = await apiLogin(request, serverUrl, 'recepcion@estudio.demo');
  for (const b of [...soon, ...(longAgo ? [longAgo] : [])]) {
    await expect
      .poll(async () => {
        const answer = await request.get(`${serverUrl}/api/class_reservations/single/${b.id}`, { headers: { Authorization: `Bearer ${staff}` } });
        return ((await answer.json()) as { class_reservation: { attend: boolean } }).class_reservation.attend;
      }, { timeout: 20_000 })
      .toBe(b !== longAgo);
  }
});
