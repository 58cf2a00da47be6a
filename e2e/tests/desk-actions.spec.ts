import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { apiLogin, deskLink, repoRoot, stop, waitFor, deskWebProcess, serverProcess, deskSignIn } from './desk-processes.ts';
import { addDays, localDate, studioTimeZone, weekStart } from './booking-helpers.ts';
import { launchOptionsOn, nowOn } from './pinned-clock.ts';
import { testClockEnv } from '../../scripts/test-clock.mjs';

/**
 * A receptionist's missing actions, in Chromium against
 * `desk:web` with its own server: register a first-time walk-in (with the
 * required documents), sell and book, cancel late with an override and a
 * reason, move a booking to another class, undo a mistaken check-in, and
 * manage a full class's waitlist. Each new modal is photographed at the four
 * desk sizes (1280×720 too) when SHOTS_DIR is set.
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverPort = basePort + 52;
const deskPort = basePort + 53;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(repoRoot, '.tmp', `desk-actions-e2e-${basePort}`);
const shots = process.env.SHOTS_DIR;
const sizes = [
  { width: 1366, height: 900 },
  { width: 1280, height: 720 },
  { width: 1024, height: 768 },
  { width: 390, height: 844 },
];

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

test.setTimeout(300_000);

/**
 * The walk-through books classes later the same day, so the studio (server,
 * desk and Chromium) runs on a clock pinned to a Wednesday at 10:00 in Mexico
 * City, whatever the hour of the run (decision 010; at 23:30 there is no
 * "later today").
 */
const clock = testClockEnv(`${addDays(weekStart(new Date()), 16)}T10:00:00-06:00`);
test.use({ launchOptions: launchOptionsOn(clock) });

test.beforeAll(async () => {
  rmSync(work, { recursive: true, force: true });
  mkdirSync(path.join(work, 'no-portal'), { recursive: true });
  writeFileSync(path.join(work, 'README'), 'Datos desechables de la prueba de acciones de recepción.');
  server = serverProcess({ port: serverPort, work, env: { ...clock } });
  await waitFor(`${serverUrl}/api/health`, 120_000);
  desk = deskWebProcess({ port: deskPort, work, serverUrl, env: { ...clock } });
  await waitFor(`${deskUrl}/health`, 180_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** 'HH:mm' on the studio's clock, `minutes` from now. */
function localTime(at: Date): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone: studioTimeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

async function createClass(request: APIRequestContext, admin: string, when: { date: string; time: string }, capacity: number, description: string): Promise<number> {
  const types = (await (await request.get(`${serverUrl}/api/class_types`)).json()) as { class_types: { class_type_id: number; name: string }[] };
  const locations = (await (await request.get(`${serverUrl}/api/locations`)).json()) as { locations: { location_id: number }[] };
  // Yoga has no seat map: a booking needs no seat.
  const type = types.class_types.find((t) => t.name === 'Yoga');
  if (!type || !locations.locations[0]) throw new Error('seed without Yoga or locations');
  const created = await request.post(`${serverUrl}/api/single_class`, {
    headers: bearer(admin),
    data: { ...when, duration_minutes: 50, capacity, location_id: locations.locations[0].location_id, class_type_id: type.class_type_id, description, allow_overlap: true },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  return ((await created.json()) as { single_class: { single_class_id: number } }).single_class.single_class_id;
}

interface ServerReservation {
  class_reservation_id: number;
  customer_id: number;
  attend: boolean;
  deletedAt: string | null;
}

async function roster(request: APIRequestContext, token: string, singleClassId: number): Promise<ServerReservation[]> {
  const answer = await request.get(`${serverUrl}/api/class_reservations`, { params: { single_class_id: singleClassId }, headers: bearer(token) });
  expect(answer.ok()).toBeTruthy();
  return ((await answer.json()) as { class_reservations: ServerReservation[] }).class_reservations;
}

/** Photographs the open dialog at the three desk sizes, then goes back to the first. */
async function photograph(page: Page, name: string): Promise<void> {
  if (!shots) return;
  mkdirSync(shots, { recursive: true });
  for (const size of sizes) {
    await page.setViewportSize(size);
    await page.waitForTimeout(250);
    await page.screenshot({ path: path.join(shots, `${name}-${size.width}x${size.height}.png`) });
  }
  await page.setViewportSize(sizes[0] ?? { width: 1366, height: 900 });
}

test('a receptionist registers a walk-in, sells and books, cancels late with an override, moves, undoes a check-in and works a waitlist', async ({ page, request }) => {
  await page.setViewportSize({ width: 1366, height: 900 });
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const staff = await apiLogin(request, serverUrl, 'recepcion@estudio.demo');
  const now = nowOn(clock).getTime();
  const today = localDate(new Date(now));
  const soon = new Date(now + 20 * 60_000);
  const later = new Date(now + 25 * 60_000);
  const classA = await createClass(request, admin, { date: today, time: localTime(soon) }, 8, 'Clase A de la prueba de recepción');
  const classB = await createClass(request, admin, { date: addDays(today, 1), time: '09:00' }, 8, 'Clase B de la prueba de recepción');
  const full = await createClass(request, admin, { date: today, time: localTime(later) }, 1, 'Clase llena de la prueba de recepción');
  // cliente@ takes the only place of the full class.
  const cliente = await apiLogin(request, serverUrl, 'cliente@estudio.demo');
  const me = (await (await request.get(`${serverUrl}/api/customer`, { headers: bearer(cliente) })).json()) as { customer: { customer_id: number } };
  const taken = await request.post(`${serverUrl}/api/class_reservations`, { headers: bearer(staff), data: { single_class_id: full, customer_id: me.customer.customer_id } });
  expect(taken.ok(), await taken.text()).toBeTruthy();
  const takenId = ((await taken.json()) as { class_reservation: { class_reservation_id: number } }).class_reservation.class_reservation_id;

  await page.goto(deskLink(deskUrl));
  await deskSignIn(page, 'recepcion@estudio.demo');
  await expect(page.getByTestId('sync-indicator')).toHaveAttribute('data-online', 'true', { timeout: 60_000 });
  await expect(page.getByText('Descargando los datos del estudio…')).toHaveCount(0, { timeout: 60_000 });

  // 1. A first-time walk-in: the form says what is missing before anything is sent; the documents are required.
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('new-customer').click();
  const form = page.getByRole('dialog', { name: 'Registrar cliente nuevo' });
  await expect(form.getByRole('checkbox').first()).toBeVisible();
  await form.getByRole('button', { name: 'Registrar' }).click();
  await expect(form.getByText('Escribe el nombre.')).toBeVisible();
  await expect(form.getByText('El cliente debe aceptar los documentos obligatorios.')).toBeVisible();
  await form.getByLabel('Nombre').fill('Lucía');
  await form.getByLabel('Apellidos').fill('Mostrador Prueba');
  await form.getByLabel('Teléfono').fill('55 1234 9876');
  // An e-mail that already has an account: the server's Spanish answer, under the field.
  await form.getByLabel('Correo electrónico').fill('cliente@estudio.demo');
  // Staff can read each document to the customer before ticking it.
  await form.getByRole('button', { name: 'Leer «Términos y condiciones»' }).click();
  await expect(form.getByText('Términos y condiciones de uso')).toBeVisible();
  // The optional messages are asked apart, unticked: staff tick them only when she says yes (she does).
  const optional = form.getByRole('checkbox', { name: /^Acepta recibir recordatorios/ });
  await expect(optional).not.toBeChecked();
  await expect(form.getByText('Pregúntale; márcalo solo si dice que sí.', { exact: false })).toBeVisible();
  for (const box of await form.getByRole('checkbox').all()) await box.check();
  await photograph(page, 'new-customer');
  await form.getByRole('button', { name: 'Registrar' }).click();
  await expect(form.getByText('Ya existe una cuenta con ese correo electrónico.')).toBeVisible();
  await form.getByLabel('Correo electrónico').fill('lucia.mostrador@prueba.mx');
  await form.getByRole('button', { name: 'Registrar' }).click();
  await expect(form).toHaveCount(0);
  const card = page.getByTestId('customer-card');
  await expect(card.getByRole('heading', { name: 'Lucía Mostrador Prueba' })).toBeVisible({ timeout: 15_000 });
  const created = await request.get(`${serverUrl}/api/customer/phone`, { params: { phone: '5512349876' }, headers: bearer(staff) });
  const lucia = ((await created.json()) as { customer: { customer_id: number; email: string } | null }).customer;
  expect(lucia?.email).toBe('lucia.mostrador@prueba.mx');
  const luciaId = lucia?.customer_id ?? 0;
  // A slip in her surname still finds her: after the exact matches, under its own heading.
  await page.getByTestId('customer-search').fill('lucia mostradro');
  await expect(page.getByTestId('spelled-like')).toHaveText('Con otra ortografía');
  await expect(page.getByTestId('customer-hit').first()).toContainText('Lucía Mostrador Prueba');
  await photograph(page, 'search-spelled-like');

  // 2. Sell her a package, then book today's class A.
  await card.getByRole('button', { name: 'Agregar acceso' }).click();
  const grant = page.getByRole('dialog', { name: /Agregar acceso/ });
  await grant.getByLabel('Paquete').click();
  await page.getByRole('option', { name: /^10 Clases/ }).click();
  await grant.getByLabel('Forma de pago').click();
  await page.getByRole('option', { name: 'Efectivo' }).click();
  await grant.getByRole('button', { name: 'Agregar acceso' }).click();
  await grant.getByRole('button', { name: 'Listo' }).click();
  await expect(card.getByTestId('credit-total')).toHaveText('10');
  const book = async (time: string) => {
    await card.getByRole('button', { name: 'Reservar clase' }).click();
    const dialog = page.getByRole('dialog', { name: /Reservar una clase para/ });
    await dialog.getByLabel('Clase').click();
    await page.getByRole('option', { name: new RegExp(`${time} · Yoga`) }).first().click();
    await dialog.getByRole('button', { name: 'Reservar clase' }).click();
    await expect(dialog).toHaveCount(0);
  };
  await book(localTime(soon));
  await expect(card.getByTestId('credit-total')).toHaveText('9');
  const liveIn = async (classId: number) => (await roster(request, staff, classId)).filter((r) => r.customer_id === luciaId && !r.deletedAt);
  /** Lucía's row for the class on the card, once the server's booking has reached the desk. */
  const syncedRow = async (classId: number) => {
    await expect.poll(async () => (await liveIn(classId)).length, { timeout: 20_000 }).toBe(1);
    const row = card.locator(`tr[data-reservation-id="${(await liveIn(classId))[0]?.class_reservation_id ?? 0}"]`);
    await expect(row).toBeVisible({ timeout: 20_000 });
    return row;
  };
  await expect.poll(async () => (await liveIn(classA)).length, { timeout: 20_000 }).toBe(1);

  // 3. Cancel 20 minutes before class: by the rules the credit stays with the studio; staff give it back, with a reason.
  // The desk shows a booking at once under a temporary id, and the server's row replaces it when it syncs back: a menu
  // opened on the first row would close with it, so the menu is opened on the row that carries the server's id.
  const rowA = await syncedRow(classA);
  await rowA.getByTestId('reservation-menu').click();
  await page.getByRole('menuitem', { name: 'Cancelar reservación' }).click();
  const cancel = page.getByRole('dialog', { name: /Cancelar la reservación de/ });
  await expect(cancel.getByTestId('cancel-rule')).toContainText('Faltan menos de 12 horas');
  await cancel.getByTestId('cancel-override').check();
  await cancel.getByRole('button', { name: 'Cancelar reservación' }).click();
  await expect(cancel.getByText('Escribe el motivo (al menos 3 letras).')).toBeVisible();
  await cancel.getByTestId('cancel-reason').fill('Se equivocó de horario; lo autoriza la gerente');
  await photograph(page, 'cancel-override');
  await cancel.getByRole('button', { name: 'Cancelar reservación' }).click();
  await expect(page.getByText('Reservación cancelada.')).toBeVisible();
  await expect(card.getByTestId('credit-total')).toHaveText('10');
  await expect.poll(async () => (await liveIn(classA)).length, { timeout: 20_000 }).toBe(0);

  // 4. Book A again and move it to tomorrow's class B; the full class cannot be chosen.
  await book(localTime(soon));
  await expect(card.getByTestId('credit-total')).toHaveText('9');
  await (await syncedRow(classA)).getByTestId('reservation-menu').click();
  await page.getByRole('menuitem', { name: 'Cambiar de clase' }).click();
  const move = page.getByRole('dialog', { name: /Cambiar de clase a/ });
  await move.getByLabel('Nueva clase').click();
  await expect(page.getByRole('option', { name: new RegExp(`${localTime(later)} · Yoga .*Llena`) })).toBeDisabled();
  await page.getByRole('option', { name: /09:00 · Yoga/ }).first().click();
  await photograph(page, 'move');
  await move.getByRole('button', { name: 'Cambiar de clase' }).click();
  await expect(page.getByText('Reservación cambiada de clase.')).toBeVisible();
  await expect(card.getByTestId('credit-total')).toHaveText('9');
  await expect.poll(async () => [(await liveIn(classA)).length, (await liveIn(classB)).length], { timeout: 20_000 }).toEqual([0, 1]);

  // 5. Book A once more, check her in from the roster by mistake, and undo it.
  await book(localTime(soon));
  await expect.poll(async () => (await liveIn(classA)).length, { timeout: 20_000 }).toBe(1);
  const reservationA = (await liveIn(classA))[0]?.class_reservation_id ?? 0;
  await page.getByRole('tab', { name: 'Hoy' }).click();
  const row = page.locator(`tr[data-reservation-id="${reservationA}"]`);
  const tabs = page.getByRole('tablist').nth(1).getByRole('tab');
  for (let i = 0; i < (await tabs.count()) && !(await row.isVisible()); i++) await tabs.nth(i).click();
  await row.getByRole('button', { name: 'Lucía Mostrador Prueba', exact: true }).click();
  await expect(row).toHaveAttribute('data-attended', 'true');
  await expect.poll(async () => (await liveIn(classA))[0]?.attend, { timeout: 20_000 }).toBe(true);
  await row.getByTestId('reservation-menu').click();
  await page.getByRole('menuitem', { name: 'Deshacer asistencia' }).click();
  const undo = page.getByRole('dialog', { name: 'Deshacer asistencia' });
  await expect(undo).toContainText('¿Quitar la asistencia de Lucía Mostrador Prueba');
  await photograph(page, 'undo-check-in');
  await undo.getByRole('button', { name: 'Deshacer asistencia' }).click();
  await expect(row).toHaveAttribute('data-attended', 'false');
  await expect.poll(async () => (await liveIn(classA))[0]?.attend, { timeout: 20_000 }).toBe(false);

  // 6. The full class's waitlist: add Lucía, a place frees, give it to her.
  const fullCard = page.locator(`[data-class-id="${full}"]`);
  await fullCard.getByTestId('waitlist-button').click();
  const waitlist = page.getByRole('dialog', { name: /Lista de espera/ });
  await expect(waitlist.getByText('Nadie está en la lista de espera.')).toBeVisible();
  await waitlist.getByTestId('waitlist-search').fill('Lucía Mostrador');
  await waitlist.getByTestId('waitlist-add').first().click();
  await expect(waitlist.getByTestId('waitlist-entry')).toHaveCount(1);
  await expect(waitlist.getByTestId('waitlist-entry').first()).toContainText('Lucía Mostrador Prueba');
  await expect(fullCard.getByTestId('waitlist-button')).toHaveAttribute('data-waiting', '1');
  await expect(waitlist.getByTestId('waitlist-free')).toHaveText('La clase sigue llena: cancela o mueve una reservación para liberar un lugar.');
  await expect(waitlist.getByRole('button', { name: 'Darle el lugar' })).toBeDisabled();
  await photograph(page, 'waitlist');
  // cliente@ cancels (by the server): the place frees on the desk.
  const freed = await request.delete(`${serverUrl}/api/class_reservations/${takenId}`, { headers: bearer(staff) });
  expect(freed.ok(), await freed.text()).toBeTruthy();
  await expect(waitlist.getByTestId('waitlist-free')).toHaveText('Hay 1 lugar libre.', { timeout: 20_000 });
  await waitlist.getByRole('button', { name: 'Darle el lugar' }).click();
  await expect(page.getByText('¡Lugar asignado! Ya tiene reservación.')).toBeVisible();
  await expect(waitlist.getByText('Nadie está en la lista de espera.')).toBeVisible();
  await expect(fullCard.getByTestId('waitlist-button')).toHaveAttribute('data-waiting', '0');
  await expect.poll(async () => (await liveIn(full)).length, { timeout: 20_000 }).toBe(1);
  await expect(page.getByTestId('pending-count')).toHaveText('Todo enviado', { timeout: 30_000 });
});
