import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from './fixtures.ts';
import { demoPassword } from './helpers.ts';
import { apiLogin, deskLink, finished, portalBuiltFromTree, repoRoot, run, stop, waitFor, deskWebProcess, serverProcess } from './desk-processes.ts';
import { shootDesk } from './shots.ts';

/**
 * Rooms of a location in the console (decision 140): the admin adds a room
 * with its capacity and seat map, schedules a class in it, and a class moved
 * into the same room at the same time is held back with a warning naming
 * the room; two rooms at the same time are fine.
 */
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverPort = basePort + 70;
const deskPort = basePort + 71;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(repoRoot, '.tmp', `rooms-e2e-${basePort}`);
let portalDist = path.join(work, 'portal');

test.use({ baseURL: serverUrl });
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

test.beforeAll(async () => {
  test.setTimeout(600_000);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const built = portalBuiltFromTree();
  if (built) portalDist = built;
  const portal = built ? null : run([npm, 'run', 'build', '-w', '@estudio/portal', '--', '--outDir', portalDist, '--emptyOutDir', '--logLevel', 'warn'], {}, 'portal');
  desk = deskWebProcess({ port: deskPort, work, serverUrl });
  if (portal) await finished(portal, 'la construcción del portal');
  server = serverProcess({ port: serverPort, work, portalDist, env: { START_DESK: '0' } });
  await waitFor(`${serverUrl}/api/health`, 180_000);
  await waitFor(`${deskUrl}/health`, 240_000);
});

test.afterAll(async () => {
  await stop(desk);
  await stop(server);
});

async function adminDesk(page: Page) {
  await page.goto(deskLink(deskUrl));
  const email = page.getByLabel('Correo electrónico');
  await expect(page.getByTestId('admin-nav').or(email)).toBeVisible({ timeout: 60_000 });
  if (await email.isVisible()) {
    await email.fill('admin@estudio.demo');
    await page.getByLabel('Contraseña').fill(demoPassword);
    await page.getByRole('button', { name: 'Entrar' }).click();
  }
  await expect(page.getByTestId('admin-nav')).toBeVisible({ timeout: 60_000 });
}

const openSection = (page: Page, name: string) => page.getByTestId('admin-nav').getByRole('button', { name, exact: true }).click();

/** Picks an option of a Mantine Select by its text (the input carries the test id; its listbox is the one it controls). */
async function pick(page: Page, testId: string, option: string | RegExp) {
  const input = page.getByTestId(testId);
  await input.click();
  const listbox = await input.getAttribute('aria-controls');
  await page.locator(`[id="${listbox ?? ''}"]`).getByRole('option', { name: option }).click();
}

test('the admin adds a room, schedules a class in it, and a class moved into it at the same time is named with its room', async ({ page, request }) => {
  test.setTimeout(300_000);
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const [place] = (await (await request.get(`${serverUrl}/api/locations`)).json()).locations as { location_id: number; name: string }[];
  const types = (await (await request.get(`${serverUrl}/api/class_types`)).json()).class_types as { class_type_id: number; name: string }[];
  const yoga = types.find((t) => t.name === 'Yoga')!;

  await adminDesk(page);
  await openSection(page, 'Ubicaciones');
  await page.getByTestId('locations-row').filter({ hasText: place!.name }).getByTestId('location-rooms').click();
  const rooms = page.getByRole('dialog', { name: `Salones de ${place!.name}` });
  await expect(rooms).toBeVisible();
  await rooms.getByTestId('rooms-new').click();
  const editor = page.locator('.mantine-Modal-content').last();
  await editor.getByLabel('Nombre').fill('Salón A');
  await editor.getByLabel('Cupo').fill('12');
  await editor.getByLabel('Mapa de lugares (p. ej. 4,6,6)').fill('4;6');
  await editor.getByRole('button', { name: 'Guardar' }).click();
  // The refusal is under its field, in Spanish; nothing is saved.
  await expect(editor.getByText('El mapa de lugares debe ser una lista de números separados por comas, p. ej. 4,6,6.')).toBeVisible();
  await shootDesk(page, 'rooms-form-error', editor);
  await editor.getByLabel('Mapa de lugares (p. ej. 4,6,6)').fill('4,4,4');
  await editor.getByRole('button', { name: 'Guardar' }).click();
  await expect(rooms.getByTestId('rooms-row').filter({ hasText: 'Salón A' })).toContainText('4,4,4');
  // A second room, beside it.
  const second = await request.post(`${serverUrl}/api/rooms`, { headers: auth(admin), data: { location_id: place!.location_id, name: 'Salón B', capacity: 8 } });
  expect(second.ok(), await second.text()).toBeTruthy();
  const salonB = ((await second.json()) as { room: { room_id: number } }).room.room_id;
  await page.keyboard.press('Escape');
  await page.getByTestId('locations-row').filter({ hasText: place!.name }).getByTestId('location-rooms').click();
  await expect(rooms.getByTestId('rooms-row')).toHaveCount(2);
  await shootDesk(page, 'rooms-list', page.locator('.mantine-Modal-content').last());
  await page.keyboard.press('Escape');

  // A class in Salón A, dragged into Thursday 06:00 of next week.
  await openSection(page, 'Horarios');
  await page.getByRole('button', { name: 'Semana siguiente' }).click();
  const thursday = ((await page.locator('[data-testid^="slot-"][data-testid$="-06:00"]').nth(3).getAttribute('data-testid')) ?? '').slice(5, 15);
  const a = (await page.getByTestId(`slot-${thursday}-06:00`).boundingBox())!;
  const b = (await page.getByTestId(`slot-${thursday}-06:30`).boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + 5);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + 10, { steps: 5 });
  await page.mouse.up();
  const form = page.getByTestId('class-form');
  await expect(form).toBeVisible();
  await pick(page, 'class-type-select', 'Yoga');
  await pick(page, 'location-select', place!.name);
  await pick(page, 'room-select', /^Salón A/);
  await form.getByLabel('Cupo').fill('10');
  await shootDesk(page, 'rooms-class-form', page.locator('.mantine-Modal-content'));
  await page.getByTestId('class-save').click();
  await expect(form).toBeHidden();
  const inA = page.getByTestId('schedule-class').filter({ hasText: '06:00' }).filter({ hasText: 'Salón A' });
  await expect(inA).toHaveCount(1);
  await expect(inA).toContainText(`${place!.name} · Salón A`);

  // Salón B at the same hour is another room: saved without a word.
  const parallel = await request.post(`${serverUrl}/api/single_class`, {
    headers: auth(admin),
    data: { date: thursday, time: '06:15', duration_minutes: 30, capacity: 8, location_id: place!.location_id, room_id: salonB, class_type_id: yoga.class_type_id },
  });
  expect(parallel.ok(), await parallel.text()).toBeTruthy();
  const parallelId = ((await parallel.json()) as { single_class: { single_class_id: number } }).single_class.single_class_id;
  await page.getByRole('button', { name: 'Semana anterior' }).click();
  await page.getByRole('button', { name: 'Semana siguiente' }).click();
  const inB = page.locator(`[data-testid="schedule-class"][data-class-id="${parallelId}"]`);
  await expect(inB).toContainText('Salón B');
  await shootDesk(page, 'rooms-week', page.getByTestId('schedule-grid'));

  // Moving it into Salón A is held back, naming the class and its room.
  await inB.click();
  await expect(page.getByTestId('class-detail')).toContainText(`${place!.name} · Salón B`);
  await page.getByRole('button', { name: 'Editar' }).click();
  await pick(page, 'room-select', /^Salón A/);
  await page.getByRole('button', { name: 'Guardar', exact: true }).click();
  const warning = page.getByTestId('class-overlap');
  await expect(warning).toContainText('Se cruza con Yoga');
  await expect(warning).toContainText(`06:00–07:00, en el Salón A de ${place!.name}.`);
  await shootDesk(page, 'rooms-overlap-warning', page.locator('.mantine-Modal-content'));
  await page.getByTestId('class-overlap-confirm').click();
  await expect(page.getByText('Cambios guardados.')).toBeVisible();
  await expect(page.getByTestId('class-detail')).toContainText(`${place!.name} · Salón A`);
});
