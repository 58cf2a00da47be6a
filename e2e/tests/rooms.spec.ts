import { expect, test, type Page } from './fixtures.ts';
import { adminStudio, openSection } from './admin-studio.ts';
import { apiLogin } from './desk-processes.ts';
import { shootDesk } from './shots.ts';

/**
 * Rooms of a location in the console (decision 140): the admin adds a room
 * with its capacity and seat map, schedules a class in it, and a class moved
 * into the same room at the same time is held back with a warning naming
 * the room; two rooms at the same time are fine.
 */
const { serverUrl, adminDesk } = adminStudio('rooms', 70, { portal: true });
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

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
  // An empty Cupo takes the room's limit away, as its description says, and the list says so.
  await rooms.getByRole('button', { name: 'Editar Salón B' }).click();
  const roomB = page.locator('.mantine-Modal-content').last();
  await expect(roomB.getByLabel('Cupo')).toHaveValue('8');
  await roomB.getByLabel('Cupo').fill('');
  await roomB.getByRole('button', { name: 'Guardar' }).click();
  await expect(rooms.getByTestId('rooms-row').filter({ hasText: 'Salón B' })).not.toContainText('8');
  const stored = (await (await request.get(`${serverUrl}/api/rooms?location_id=${place!.location_id}`, { headers: auth(admin) })).json()) as { rooms: { name: string; capacity: number | null }[] };
  expect(stored.rooms.find((r) => r.name === 'Salón B')?.capacity).toBeNull();
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
