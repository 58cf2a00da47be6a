import type { ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { fillSandboxCard } from './checkout-helpers.ts';
import { demoPassword, signIn } from './helpers.ts';
import { apiLogin, deskLink, finished, portalBuiltFromTree, repoRoot, run, stop, waitFor, deskWebProcess, serverProcess } from './desk-processes.ts';
import { pickDay, pickTime } from './admin-studio.ts';
import { shoot, shootDesk } from './shots.ts';

/**
 * The admin console of the desk (desk:web) in Chromium, against its own
 * server, which also serves a fresh build of the portal: what the admin does
 * in the console shows on the portal and in the customers' accounts.
 */
const root = repoRoot;
const basePort = Number(process.env.E2E_PORT ?? 3100);
const serverPort = basePort + 60;
const deskPort = basePort + 61;
const serverUrl = `http://127.0.0.1:${serverPort}`;
const deskUrl = `http://127.0.0.1:${deskPort}`;
const work = path.join(root, '.tmp', `admin-console-e2e-${basePort}`);
let portalDist = path.join(work, 'portal');

// The portal's pages (signIn, checkout) use relative URLs: they are this run's server.
test.use({ baseURL: serverUrl });
test.describe.configure({ mode: 'serial' });

let server: ChildProcess | null = null;
let desk: ChildProcess | null = null;

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function customerId(request: APIRequestContext, token: string): Promise<number> {
  const answer = await request.get(`${serverUrl}/api/customer`, { headers: auth(token) });
  expect(answer.ok()).toBeTruthy();
  return ((await answer.json()) as { customer: { customer_id: number } }).customer.customer_id;
}

async function credits(request: APIRequestContext, token: string): Promise<number> {
  const answer = await request.get(`${serverUrl}/api/available_classes`, { headers: auth(token) });
  expect(answer.ok()).toBeTruthy();
  return ((await answer.json()) as { total: number }).total;
}

async function openSection(page: Page, name: string) {
  await page.getByTestId('admin-nav').getByRole('button', { name, exact: true }).click();
}

/** Picks the first option of a Mantine Select (the input carries the test id; its listbox is the one it controls). */
async function pickFirst(page: Page, testId: string) {
  const input = page.getByTestId(testId);
  await input.click();
  const listbox = await input.getAttribute('aria-controls');
  await page.locator(`[id="${listbox ?? ''}"]`).getByRole('option').first().click();
}

test.beforeAll(async () => {
  test.setTimeout(600_000);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  // The portal as it is in the tree, and the desk's screens, built side by side.
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

/** Signs the admin into the desk; the console's navigation shows next to Recepción. */
async function adminDesk(page: Page) {
  await page.goto(deskLink(deskUrl));
  const email = page.getByLabel('Correo electrónico');
  // The desk remembers its session: either the console or the sign-in shows once the page has loaded.
  await expect(page.getByTestId('admin-nav').or(email)).toBeVisible({ timeout: 60_000 });
  if (await email.isVisible()) {
    await email.fill('admin@estudio.demo');
    await page.getByLabel('Contraseña').fill(demoPassword);
    await page.getByRole('button', { name: 'Entrar' }).click();
  }
  await expect(page.getByTestId('admin-nav')).toBeVisible({ timeout: 60_000 });
}

test('the admin creates a package, puts it on the home page, and the landing shows it', async ({ page, context }) => {
  const title = `Paquete Consola ${Date.now() % 100000}`;
  await adminDesk(page);
  await openSection(page, 'Paquetes');
  await page.getByTestId('package-new').click();
  const form = page.getByTestId('package-form');
  // The core schema speaks first: no name, no price.
  await page.getByTestId('package-save').click();
  await expect(form.getByText('Debes escribir el nombre del paquete.')).toBeVisible();
  await form.getByLabel('Nombre').fill(title);
  await form.getByLabel('Precio (MXN)').fill('1234.5');
  await form.getByLabel('Clases (-1 ilimitadas)').fill('8');
  // A class type's allowed hours are picked as pills (decision 046), none meaning any hour.
  await form.getByRole('button', { name: 'Agregar tipo de clase' }).click();
  await form.getByLabel('Tipo de clase').click();
  await page.getByRole('option').first().click();
  const allowed = form.getByTestId('package-type-0-times');
  await expect(allowed).toContainText('Cualquier hora (ninguna elegida).');
  await pickTime(page, form.getByTestId('package-type-0-times-picker'), '18:30');
  await form.getByTestId('package-type-0-times-add').click();
  await pickTime(page, form.getByTestId('package-type-0-times-picker'), '07:00');
  await form.getByTestId('package-type-0-times-add').click();
  await expect(allowed.getByTestId('package-type-0-times-time')).toHaveText(['07:00', '18:30']);
  await shoot(page, 'admin-package-hours', form);
  await page.getByTestId('package-save').click();
  await expect(form).toBeHidden();

  await page.getByTestId('admin-search').fill(title);
  const row = page.getByTestId('package-row').filter({ hasText: title });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('$1,234.50');
  // Stored as the comma list the routes always took, and read back as pills.
  await row.getByRole('button', { name: `Editar ${title}` }).click();
  await expect(form.getByTestId('package-type-0-times-time')).toHaveText(['07:00', '18:30']);
  await form.getByRole('button', { name: 'Cancelar' }).click();
  await expect(form).toBeHidden();
  await row.getByTestId('package-home').click({ force: true });
  await expect(page.getByText('¡Paquete agregado al home con éxito!')).toBeVisible();

  const portal = await context.newPage();
  await portal.goto(`${serverUrl}/`);
  await expect(portal.locator('[data-section="packages"]').getByText(title)).toBeVisible();

  await row.getByTestId('package-home').click({ force: true });
  await expect(page.getByText('¡Paquete eliminado del home!')).toBeVisible();
  await portal.reload();
  await expect(portal.locator('[data-section="hero"]')).toBeVisible();
  await expect(portal.getByText(title)).toHaveCount(0);
});

test('the admin creates a discount and a customer pays less with it at checkout', async ({ page, context, request }) => {
  const code = `CONSOLA${Date.now() % 100000}`;
  await adminDesk(page);
  await openSection(page, 'Descuentos');
  await page.getByTestId('discount-new').click();
  const form = page.getByTestId('discount-form');
  await form.getByLabel('Código').fill('con espacio');
  await form.getByLabel('Descuento (%)').fill('25');
  await page.getByTestId('discount-save').click();
  await expect(form.getByText('El código solo puede tener letras, números, guiones y guiones bajos.')).toBeVisible();
  await form.getByLabel('Código').fill(code.toLowerCase());
  await page.getByTestId('discount-save').click();
  await expect(form).toBeHidden();
  await page.getByTestId('admin-search').fill(code);
  const row = page.getByTestId('discount-row').filter({ hasText: code });
  await expect(row).toContainText('25%');

  // The customer, in the portal: 25 % off '5 Clases' ($800.00).
  const packages = (await (await request.get(`${serverUrl}/api/class_packages`)).json()) as { class_packages: { class_package_id: number; title: string }[] };
  const fiveClasses = packages.class_packages.find((p) => p.title === '5 Clases');
  expect(fiveClasses).toBeDefined();
  const portal = await context.newPage();
  await signIn(portal, 'cliente@estudio.demo');
  await expect(portal).toHaveURL(/\/mystudio$/);
  await portal.goto(`/checkout/${fiveClasses?.class_package_id ?? 0}`);
  await portal.getByLabel('Código de descuento').fill(code.toLowerCase());
  await portal.getByRole('button', { name: 'Aplicar' }).click();
  await expect(portal.getByText(`Descuento ${code} aplicado`)).toBeVisible();
  await expect(portal.getByTestId('discount-total')).toHaveText('$600.00');
  await fillSandboxCard(portal, '4242 4242 4242 4242');
  await portal.getByRole('button', { name: 'Pagar Ahora' }).click();
  await expect(portal.getByRole('heading', { name: '¡Gracias por tu compra!' })).toBeVisible();
  await expect(portal.getByText('$600.00 MXN')).toBeVisible();

  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const listed = await request.get(`${serverUrl}/api/discounts/admin/all`, { params: { query: code }, headers: auth(admin) });
  expect(((await listed.json()) as { discounts: { uses: number }[] }).discounts.map((d) => d.uses)).toEqual([1]);
  // Back in the console, the list read again from the server counts the use.
  await openSection(page, 'Paquetes');
  await openSection(page, 'Descuentos');
  await page.getByTestId('admin-search').fill(code);
  await expect(page.getByTestId('discount-row').filter({ hasText: code }).locator('td').nth(2)).toHaveText('1');
});

test('the admin drags a new class into the week, cancels it with two reservations, and both customers get their credit back', async ({ page, request }) => {
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const cliente = await apiLogin(request, serverUrl, 'cliente@estudio.demo');
  const nuevo = await apiLogin(request, serverUrl, 'nuevo@estudio.demo');
  // nuevo@ has no credits in the demo: the desk gives him '5 Clases'.
  const packages = (await (await request.get(`${serverUrl}/api/class_packages`)).json()) as { class_packages: { class_package_id: number; title: string }[] };
  const five = packages.class_packages.find((p) => p.title === '5 Clases')?.class_package_id ?? 0;
  const given = await request.post(`${serverUrl}/api/customer/giveAccess`, { headers: auth(admin), data: { customer_id: await customerId(request, nuevo), class_package_id: five, is_gift: true, reason: 'Cortesía' } });
  expect(given.ok()).toBeTruthy();

  await adminDesk(page);
  await openSection(page, 'Horarios');
  await page.getByRole('button', { name: 'Semana siguiente' }).click();
  const week = await page.getByTestId('schedule-week').textContent();
  expect(week).toBeTruthy();
  // Wednesday of next week, 06:00–07:00 (two half-hour slots): nothing of the demo's grid is that early.
  const slots = page.locator('[data-testid^="slot-"][data-testid$="-06:00"]');
  const wednesday = ((await slots.nth(2).getAttribute('data-testid')) ?? '').slice(5, 15);
  const from = page.getByTestId(`slot-${wednesday}-06:00`);
  const to = page.getByTestId(`slot-${wednesday}-06:30`);
  const a = await from.boundingBox();
  const b = await to.boundingBox();
  if (!a || !b) throw new Error('the grid is not visible');
  await page.mouse.move(a.x + a.width / 2, a.y + 5);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width / 2, b.y + 10, { steps: 5 });
  await page.mouse.up();

  const form = page.getByTestId('class-form');
  // The hour is picked (decision 046): the drag's 06:00 is in the picker's two boxes.
  await expect(form.getByTestId('class-time').getByLabel('Horas', { exact: true })).toHaveValue('06');
  await expect(form.getByTestId('class-time').getByLabel('Minutos', { exact: true })).toHaveValue('00');
  await expect(form.getByLabel('Duración (min)')).toHaveValue('60');
  await page.getByTestId('class-save').click();
  await expect(form.getByText('Elige el tipo de clase.')).toBeVisible();
  await expect(form.getByText('Elige la sucursal.')).toBeVisible();
  await pickFirst(page, 'class-type-select');
  await pickFirst(page, 'location-select');
  await form.getByLabel('Cupo').fill('10');
  await page.getByTestId('class-save').click();
  await expect(form).toBeHidden();
  const block = page.getByTestId('schedule-class').filter({ hasText: '06:00' });
  await expect(block).toHaveCount(1);
  const classId = Number(await block.getAttribute('data-class-id'));

  const before = { cliente: await credits(request, cliente), nuevo: await credits(request, nuevo) };
  for (const token of [cliente, nuevo]) {
    const booked = await request.post(`${serverUrl}/api/class_reservations`, { headers: auth(token), data: { single_class_id: classId } });
    expect(booked.ok(), await booked.text()).toBeTruthy();
  }
  expect(await credits(request, cliente)).toBe(before.cliente - 1);
  expect(await credits(request, nuevo)).toBe(before.nuevo - 1);

  await block.click();
  const detail = page.getByTestId('class-detail');
  await expect(detail.getByRole('row')).toHaveCount(3);
  await page.getByTestId('class-cancel').click();
  await expect(page.getByTestId('cancel-summary')).toContainText('Se cancelarán 2 reservaciones y se devolverán 2 créditos.');
  // The owner reads the message before it goes, and adds a word of her own to it.
  const message = page.getByTestId('cancel-message-credit');
  await expect(message).toContainText('Con crédito · 2 clientes recibirán:');
  await expect(message).toContainText('Te devolvimos el crédito que usaste para reservarla.');
  await page.getByTestId('cancel-note').fill('La coach se enfermó; nos vemos el jueves.');
  await expect(message).toContainText('Nota del estudio: La coach se enfermó; nos vemos el jueves.');
  await shootDesk(page, 'admin-class-cancel-note', page.getByRole('dialog', { name: 'Cancelar clase' }));
  await page.getByTestId('confirm-button').click();
  await expect(page.getByTestId('cancel-result')).toHaveText('Reservaciones canceladas: 2. Créditos devueltos: 2.');

  expect(await credits(request, cliente)).toBe(before.cliente);
  expect(await credits(request, nuevo)).toBe(before.nuevo);
  // The console's customer detail shows the same credits.
  await page.keyboard.press('Escape');
  await openSection(page, 'Clientes');
  await page.getByTestId('admin-search').fill('nuevo@estudio.demo');
  await page.getByTestId('admin-customer-row').filter({ hasText: 'nuevo@estudio.demo' }).click();
  await expect(page.getByTestId('admin-customer-credits')).toHaveText(String(before.nuevo));

  // Each customer was told by their channels: e-mail to both, WhatsApp too to Mariana, who has a phone; Mensajes shows them waiting or sent.
  await openSection(page, 'Mensajes');
  await expect(page.getByTestId('outbox-row').filter({ hasText: 'Lamentamos avisarte que la clase de' })).toHaveCount(3);
  await expect(page.getByTestId('outbox-row').filter({ hasText: 'Nota del estudio: La coach se enfermó' })).toHaveCount(3);
});

test('the admin repeats a weekly template over next week, and the week shows its classes', async ({ page }) => {
  await adminDesk(page);
  await openSection(page, 'Horarios');
  await page.getByRole('button', { name: 'Semana siguiente' }).click();
  const monday = ((await page.locator('[data-testid^="slot-"][data-testid$="-06:00"]').first().getAttribute('data-testid')) ?? '').slice(5, 15);
  const sunday = ((await page.locator('[data-testid^="slot-"][data-testid$="-06:00"]').nth(6).getAttribute('data-testid')) ?? '').slice(5, 15);
  await page.getByRole('button', { name: 'Repetir semanalmente' }).click();
  const form = page.getByTestId('repeat-form');
  // The range is picked on the console's calendars, not typed.
  await pickDay(page, form.getByTestId('repeat-from'), monday);
  await pickDay(page, form.getByTestId('repeat-to'), sunday);
  await shoot(page, 'admin-repeat-dates', form);
  // Start hours are picked and added as pills (decision 046): the template starts with 07:00; 21:00 and 06:30 are
  // added, the picker's minutes go by five, and 07:00 and 06:30 are removed again.
  const times = form.getByTestId('repeat-times');
  await expect(times.getByTestId('repeat-times-time')).toHaveText(['07:00']);
  await form.getByTestId('repeat-times-picker').getByLabel('Minutos', { exact: true }).click();
  const minutesList = page.locator('.mantine-TimePicker-dropdown').last();
  // Hours go 00–23 and minutes by five: 55 is offered, 57 is not.
  await expect(minutesList.getByRole('button', { name: '55', exact: true })).toBeVisible();
  await expect(minutesList.getByRole('button', { name: '57', exact: true })).toHaveCount(0);
  // (Not Escape: it would close the whole form.) The owner goes on to the hours of the same picker.
  await pickTime(page, form.getByTestId('repeat-times-picker'), '21:00');
  await form.getByTestId('repeat-times-add').click();
  await pickTime(page, form.getByTestId('repeat-times-picker'), '06:30');
  await form.getByTestId('repeat-times-add').click();
  await expect(times.getByTestId('repeat-times-time')).toHaveText(['06:30', '07:00', '21:00']);
  await shoot(page, 'admin-repeat-hours', form);
  await form.getByRole('button', { name: 'Quitar 06:30' }).click();
  await form.getByRole('button', { name: 'Quitar 07:00' }).click();
  await expect(times.getByTestId('repeat-times-time')).toHaveText(['21:00']);
  await pickFirst(page, 'class-type-select');
  await pickFirst(page, 'location-select');
  await form.getByRole('button', { name: 'Crear clases' }).click();
  // No day chosen: the schema's message.
  await expect(form.getByText('Agrega al menos un horario.')).toBeVisible();
  await form.getByText('Lun', { exact: true }).click();
  await form.getByText('Jue', { exact: true }).click();
  await form.getByRole('button', { name: 'Crear clases' }).click();
  await expect(page.getByTestId('repeat-result')).toHaveText('Clases creadas: 2. Ya existían: 0.');
  // The same template again: nothing is duplicated.
  await form.getByRole('button', { name: 'Crear clases' }).click();
  await expect(page.getByTestId('repeat-result')).toHaveText('Clases creadas: 0. Ya existían: 2.');
  await form.getByRole('button', { name: 'Cerrar' }).click();
  await expect(page.getByTestId('schedule-class').filter({ hasText: '21:00' })).toHaveCount(2);
});

test('a class in the way is named before anything is saved, kept only when confirmed; overlapping classes sit side by side in the week', async ({ page, request }) => {
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const [location] = (await (await request.get(`${serverUrl}/api/locations`, { headers: auth(admin) })).json()).locations as { location_id: number }[];
  const [type] = (await (await request.get(`${serverUrl}/api/class_types`, { headers: auth(admin) })).json()).class_types as { class_type_id: number }[];
  await adminDesk(page);
  await openSection(page, 'Horarios');
  await page.getByRole('button', { name: 'Semana siguiente' }).click();
  // Tuesday of next week, before the demo's first classes.
  const tuesday = ((await page.locator('[data-testid^="slot-"][data-testid$="-06:00"]').nth(1).getAttribute('data-testid')) ?? '').slice(5, 15);
  const classAt = (time: string, duration: number, allowOverlap?: boolean) =>
    request.post(`${serverUrl}/api/single_class`, {
      headers: auth(admin),
      data: { date: tuesday, time, duration_minutes: duration, capacity: 8, location_id: location!.location_id, class_type_id: type!.class_type_id, ...(allowOverlap ? { allow_overlap: true } : {}) },
    });
  // 06:00–06:45, and 06:15–07:00: before the demo's 07:00 class.
  const early = await classAt('06:00', 45);
  expect(early.ok(), await early.text()).toBeTruthy();
  // Same place, 06:15: refused, naming the 06:00 class; kept when the overlap is confirmed.
  const refused = await classAt('06:15', 45);
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { message: string }).message).toContain('06:00–06:45');
  const kept = await classAt('06:15', 45, true);
  expect(kept.ok(), await kept.text()).toBeTruthy();
  const idOf = async (answer: typeof kept) => ((await answer.json()) as { single_class: { single_class_id: number } }).single_class.single_class_id;
  // By id: an earlier test of this file has a 06:00 class on Wednesday.
  const cardOf = (id: number) => page.locator(`[data-testid="schedule-class"][data-class-id="${id}"]`);
  await page.getByRole('button', { name: 'Semana anterior' }).click();
  await page.getByRole('button', { name: 'Semana siguiente' }).click();
  const first = cardOf(await idOf(early));
  const second = cardOf(await idOf(kept));
  await expect(first).toBeVisible();
  await expect(second).toBeVisible();
  const a = (await first.boundingBox())!;
  const b = (await second.boundingBox())!;
  // Side by side in Tuesday's column: neither covers the other.
  expect(a.x + a.width).toBeLessThanOrEqual(b.x + 1);
  await expect(first).toHaveAttribute('data-lane', /^1\//);
  await shootDesk(page, 'admin-week-side-by-side', page.getByTestId('schedule-grid'));

  // In the console: moving the 06:15 class to 06:10 is held back with a warning that names the 06:00 class.
  await second.click();
  await expect(page.getByTestId('class-detail')).toBeVisible();
  await page.getByRole('button', { name: 'Editar' }).click();
  await pickTime(page, page.getByTestId('class-edit-time'), '06:10');
  await page.getByRole('button', { name: 'Guardar', exact: true }).click();
  const warning = page.getByTestId('class-overlap');
  await expect(warning).toContainText('Se cruza con');
  await expect(warning).toContainText('06:00–06:45');
  await expect(second).toContainText('06:15');
  await shootDesk(page, 'admin-class-overlap-warning', page.locator('.mantine-Modal-content'));
  // Changing the form takes the warning away: it spoke of what was sent.
  await pickTime(page, page.getByTestId('class-edit-time'), '06:05');
  await expect(warning).toBeHidden();
  await page.getByRole('button', { name: 'Guardar', exact: true }).click();
  await expect(warning).toBeVisible();
  await page.getByTestId('class-overlap-confirm').click();
  await expect(page.getByText('Cambios guardados.')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(second).toContainText('06:05');
});

test('another coach gives a class: Sustituir coach changes it everywhere, tells the people booked and is in the activity', async ({ page, request }) => {
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  await adminDesk(page);
  await openSection(page, 'Horarios');
  await page.getByRole('button', { name: 'Semana siguiente' }).click();
  // The week on screen, Monday to Sunday.
  const days = page.locator('[data-testid^="slot-"][data-testid$="-06:00"]');
  await expect(days).toHaveCount(7);
  const from = ((await days.first().getAttribute('data-testid')) ?? '').slice(5, 15);
  const to = ((await days.last().getAttribute('data-testid')) ?? '').slice(5, 15);
  type Week = { single_classes: { single_class_id: number; class_date: string; cancelledAt: string | null; reservation_count: number; class_instructors: { instructor_id: number; name: string; last_name: string }[] }[] };
  const week = (await (await request.get(`${serverUrl}/api/single_class`, { params: { start_date: from, end_date: to }, headers: auth(admin) })).json()) as Week;
  // A class of next week with a coach and people booked (the demo's schedule has them).
  const target = week.single_classes.find((c) => !c.cancelledAt && c.class_instructors.length === 1 && c.reservation_count > 0);
  if (!target) throw new Error('no class of next week with a coach and people booked');
  const before = target.class_instructors[0]!;
  await page.locator(`[data-testid="schedule-class"][data-class-id="${target.single_class_id}"]`).click();
  await page.getByTestId('class-substitute').click();
  const form = page.getByTestId('substitute-form');
  await expect(form.getByTestId('substitute-from')).toHaveValue(`${before.name} ${before.last_name}`);
  await expect(form.getByTestId('substitute-notify')).toBeChecked();
  // Every class of hers between two dates is one choice away; this one class is the default.
  await form.getByText('Entre dos fechas').click();
  await expect(form.getByTestId('substitute-from-date')).toBeVisible();
  await shootDesk(page, 'admin-substitute-coach-range', page.locator('.mantine-Modal-content'));
  await form.getByText('Solo esta clase').click();
  await expect(form.getByTestId('substitute-from-date')).toBeHidden();
  await page.getByTestId('substitute-save').click();
  await expect(form.getByText('Elige al coach que la dará.')).toBeVisible();
  await pickFirst(page, 'substitute-to');
  const chosen = await form.getByTestId('substitute-to').inputValue();
  expect(chosen).not.toBe(`${before.name} ${before.last_name}`);
  await shootDesk(page, 'admin-substitute-coach', page.locator('.mantine-Modal-content'));
  await page.getByTestId('substitute-save').click();
  await expect(page.getByText('Coach cambiado en 1 clase.')).toBeVisible();
  await expect(page.getByText(/Mensajes en la bandeja de salida: [1-9]/)).toBeVisible();
  await expect(page.getByTestId('class-detail')).toContainText(chosen);

  const after = (await (await request.get(`${serverUrl}/api/single_class/single/${target.single_class_id}`, { headers: auth(admin) })).json()) as { single_class: Week['single_classes'][number] };
  expect(after.single_class.class_instructors.map((i) => `${i.name} ${i.last_name}`)).toEqual([chosen]);
  await page.keyboard.press('Escape');
  await openSection(page, 'Actividad');
  await expect(page.getByText(`puso a ${chosen} en lugar de ${before.name} ${before.last_name} en una clase del horario`).first()).toBeVisible();
});

test('a weekly series: one edit moves this class and the following, the person booked is told; its dates are ended with one preview', async ({ page, request }) => {
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const cliente = await apiLogin(request, serverUrl, 'cliente@estudio.demo');
  const [location] = (await (await request.get(`${serverUrl}/api/locations`, { headers: auth(admin) })).json()).locations as { location_id: number }[];
  const [type] = (await (await request.get(`${serverUrl}/api/class_types`, { headers: auth(admin) })).json()).class_types as { class_type_id: number }[];
  await adminDesk(page);
  await openSection(page, 'Horarios');
  await page.getByRole('button', { name: 'Semana siguiente' }).click();
  await page.getByRole('button', { name: 'Semana siguiente' }).click();
  const days = page.locator('[data-testid^="slot-"][data-testid$="-06:00"]');
  await expect(days).toHaveCount(7);
  const monday = ((await days.first().getAttribute('data-testid')) ?? '').slice(5, 15);
  const sundayAfter = new Date(Date.parse(`${monday}T12:00:00Z`) + 13 * 86_400_000).toISOString().slice(0, 10);
  // Tuesdays and Thursdays at 21:30 for two weeks: four classes, one series.
  const made = await request.post(`${serverUrl}/api/single_class/repeat`, {
    headers: auth(admin),
    data: {
      start_date: monday,
      end_date: sundayAfter,
      slots: [
        { weekday: 2, time: '21:30' },
        { weekday: 4, time: '21:30' },
      ],
      duration_minutes: 45,
      capacity: 8,
      location_id: location!.location_id,
      class_type_id: type!.class_type_id,
      allow_overlap: true,
    },
  });
  expect(made.ok(), await made.text()).toBeTruthy();
  const { single_class_ids: ids } = (await made.json()) as { single_class_ids: number[] };
  expect(ids).toHaveLength(4);
  const booked = await request.post(`${serverUrl}/api/class_reservations`, { headers: auth(cliente), data: { single_class_id: ids[1] } });
  expect(booked.ok(), await booked.text()).toBeTruthy();

  // Thursday's class: this and the following move to 21:45; each keeps its day.
  await page.getByRole('button', { name: 'Semana anterior' }).click();
  await page.getByRole('button', { name: 'Semana siguiente' }).click();
  const thursday = page.locator(`[data-testid="schedule-class"][data-class-id="${ids[1]}"]`);
  await thursday.click();
  await expect(page.getByTestId('class-series-badge')).toHaveText('Serie semanal');
  await page.getByRole('button', { name: 'Editar' }).click();
  const scope = page.getByTestId('class-edit-scope');
  await expect(scope).toBeVisible();
  await scope.getByText('Esta y las siguientes').click();
  await expect(page.getByTestId('class-edit-scope-hint')).toContainText('Cada clase conserva su día');
  await expect(page.getByTestId('class-edit-date')).toBeDisabled();
  await pickTime(page, page.getByTestId('class-edit-time'), '21:45');
  await expect(page.getByTestId('class-edit-notify')).toBeChecked();
  await shootDesk(page, 'admin-series-edit-following', page.locator('.mantine-Modal-content'));
  await page.getByTestId('class-edit-save').click();
  await expect(page.getByText('Guardado en 3 clases de la serie.')).toBeVisible();
  await expect(page.getByText(/Mensajes en la bandeja de salida para quienes reservaron: [1-9]\./)).toBeVisible();
  type One = { single_class: { class_date: string; cancelledAt: string | null } };
  const classOf = async (id: number) => ((await (await request.get(`${serverUrl}/api/single_class/single/${id}`, { headers: auth(admin) })).json()) as One).single_class;
  const clock = (iso: string) => new Intl.DateTimeFormat('es-MX', { timeZone: 'America/Mexico_City', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso));
  expect(await Promise.all(ids.map(async (id) => clock((await classOf(id)).class_date)))).toEqual(['21:30', '21:45', '21:45', '21:45']);

  // From the same class, the series ends: the preview names the classes, the booking, and the message with the note.
  await page.getByTestId('series-cancel-open').click();
  const panel = page.getByTestId('series-cancel');
  await expect(panel.getByTestId('series-summary')).toContainText('martes 21:30, jueves 21:30');
  await expect(panel.getByTestId('series-cancel-summary')).toHaveText('Se cancelarán 3 clases con 1 reservación; se devolverá 1 crédito. La serie termina el día anterior.');
  await expect(panel.getByTestId('series-cancel-classes').getByRole('row')).toHaveCount(3);
  await panel.getByTestId('series-cancel-note').fill('cerramos la sala por obra');
  await expect(panel.getByTestId('series-cancel-message-credit')).toContainText('Nota del estudio: cerramos la sala por obra');
  await shootDesk(page, 'admin-series-end', page.locator('.mantine-Modal-content'));
  await panel.getByTestId('series-cancel-confirm').click();
  await expect(page.getByText('Serie terminada: 3 clases canceladas.')).toBeVisible();
  await expect(page.getByText(/Mensajes en la bandeja de salida: [1-9]\./)).toBeVisible();
  expect(await Promise.all(ids.map(async (id) => (await classOf(id)).cancelledAt !== null))).toEqual([false, true, true, true]);
  await page.keyboard.press('Escape');
  await openSection(page, 'Actividad');
  await expect(page.getByText('terminó una serie semanal de clases (canceló 3 clases por venir)').first()).toBeVisible();
});

test('Reportes draws the studio numbers of the last 30 days', async ({ page }) => {
  await adminDesk(page);
  await openSection(page, 'Reportes');
  const reports = page.getByTestId('reports');
  await expect(page.getByTestId('sales-total')).toContainText('$');
  await expect(reports.locator('.recharts-surface').first()).toBeVisible();
  await expect(reports.getByRole('alert')).toHaveCount(0);
});

test('the owner sets a coach rate in Reportes: each coach owed for the classes given, the classes, and the CSV', async ({ page, request }) => {
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const day = (offset: number) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City' }).format(new Date(Date.now() + offset * 86_400_000));
  type Pay = { coaches: { instructor_id: number; coach: string; classes: number; amount: string; without_rule: number }[]; total: string };
  const payOf = async () => (await (await request.get(`${serverUrl}/api/reports/coach_pay`, { params: { start_date: day(-29), end_date: day(0) }, headers: auth(admin) })).json()) as Pay;
  // A coach who gave classes in Reportes' default period (the last 30 days).
  const before = await payOf();
  const coach = before.coaches.find((c) => c.classes > 0);
  if (!coach) throw new Error('the demo has no classes given in the last 30 days');

  await adminDesk(page);
  await openSection(page, 'Reportes');
  const section = page.getByTestId('coach-pay');
  await expect(section.getByTestId('coach-pay-coaches')).toContainText(coach.coach);
  await section.getByTestId('coach-pay-rules-open').click();
  const rules = page.getByTestId('coach-pay-rules');
  await rules.getByTestId('pay-rule-coach').fill(coach.coach);
  await page.getByRole('option', { name: coach.coach, exact: true }).click();
  await pickDay(page, rules.getByTestId('pay-rule-from'), day(-40));
  await rules.getByTestId('pay-rule-kind').getByText('Por asistente').click();
  await rules.getByTestId('pay-rule-save').click();
  await expect(rules.getByText('Escribe el monto que se paga.')).toBeVisible();
  await rules.getByTestId('pay-rule-amount').fill('40');
  await rules.getByTestId('pay-rule-minimum').fill('150');
  await rules.getByTestId('pay-rule-maximum').fill('100');
  await rules.getByTestId('pay-rule-save').click();
  await expect(rules.getByText('El máximo no puede ser menor que el mínimo.')).toBeVisible();
  await rules.getByTestId('pay-rule-maximum').fill('600');
  await shootDesk(page, 'admin-coach-pay-rules', page.locator('.mantine-Modal-content'));
  await rules.getByTestId('pay-rule-save').click();
  await expect(page.getByText(/^Tarifa guardada: /)).toBeVisible();
  await expect(rules.getByTestId('coach-pay-rules-list')).toContainText('$40.00 por asistente (mín. $150.00, máx. $600.00)');
  await page.keyboard.press('Escape');

  // Every class of hers in the period is paid now, at least the $150.00 floor each.
  const after = await payOf();
  const owed = after.coaches.find((c) => c.instructor_id === coach.instructor_id)!;
  expect(owed.without_rule).toBe(0);
  expect(Number(owed.amount)).toBeGreaterThanOrEqual(150 * owed.classes);
  const row = section.getByTestId('coach-pay-coaches').getByRole('row').filter({ hasText: coach.coach });
  await expect(row).toContainText(new Intl.NumberFormat('es-MX', { minimumFractionDigits: 2 }).format(Number(owed.amount)));
  await expect(row).not.toContainText('sin tarifa');
  await section.getByTestId('coach-pay-details').click();
  await expect(section.getByTestId('coach-pay-classes')).toContainText('$40.00 por asistente');
  await shootDesk(page, 'admin-coach-pay', section);

  const file = page.waitForEvent('download');
  await page.getByTestId('export-coach_pay').click();
  expect((await file).suggestedFilename()).toMatch(/^pago_coaches_\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.csv$/);
  await openSection(page, 'Actividad');
  await expect(page.getByText(`cambió la tarifa de pago de ${coach.coach}`).first()).toBeVisible();
});

test('the admin publishes a notice and deletes it, with the spec messages', async ({ page, context }) => {
  const title = `Aviso de la consola ${Date.now() % 100000}`;
  await adminDesk(page);
  await openSection(page, 'Avisos');
  await page.getByTestId('announcements-new').click();
  const form = page.getByTestId('announcements-form');
  await page.getByTestId('announcements-save').click();
  await expect(form.getByText('Debes escribir el título del aviso.')).toBeVisible();
  await form.getByLabel('Título').fill(title);
  await form.getByLabel('Contenido').fill('Este sábado la clase de las 9:00 cambia de sucursal.');
  await page.getByTestId('announcements-save').click();
  await expect(page.getByText('Aviso guardado.')).toBeVisible();
  const row = page.getByTestId('announcements-row').filter({ hasText: title });
  await expect(row).toHaveCount(1);

  const portal = await context.newPage();
  await portal.goto(`${serverUrl}/avisos`);
  await expect(portal.getByText(title)).toBeVisible();

  await row.getByRole('button', { name: `Eliminar ${title}` }).click();
  await page.getByTestId('confirm-button').click();
  await expect(page.getByText('Aviso eliminado.')).toBeVisible();
  await expect(row).toHaveCount(0);
});

test('a customer search that matches more than 100 says so and asks for more letters; a narrower one gives the exact count', async ({ page }) => {
  await adminDesk(page);
  await openSection(page, 'Clientes');
  // Every demo customer's e-mail ends in correo.demo or estudio.demo: far more than 100 match 'demo'.
  await page.getByTestId('admin-search').fill('demo');
  const wide = page.getByTestId('admin-customers-too-wide');
  await expect(wide).toHaveText('Más de 100 clientes coinciden con «demo». Escribe más del nombre, el correo o el teléfono para encontrar a quien buscas.');
  await expect(page.getByTestId('admin-total')).toHaveText('1–25 de más de 100');
  await expect(page.getByTestId('admin-customer-row')).toHaveCount(25);
  await shoot(page, 'admin-customers-search-too-wide');
  // The last page is the cap's fourth; a new search starts again at the first page.
  await page.getByRole('button', { name: '4', exact: true }).click();
  await expect(page.getByTestId('admin-total')).toHaveText('76–100 de más de 100');
  await page.getByTestId('admin-search').fill('nuevo@estudio');
  await expect(page.getByTestId('admin-total')).toHaveText('1–1 de 1');
  await expect(wide).toHaveCount(0);
});

test('with no message channel the console says so, and a customer who forgot her password types a new one at the counter', async ({ page, request }) => {
  await adminDesk(page);
  await openSection(page, 'Clientes');
  // Decision 079: the demo studio sends nothing, and every section of the console says so.
  const banner = page.getByTestId('messages-not-configured');
  await expect(banner).toContainText('Los mensajes no están configurados');
  await page.getByTestId('admin-search').fill('nuevo@estudio');
  // The search reaches the server 300 ms after the last key: the row is Diego's once the list says so.
  await expect(page.getByTestId('admin-total')).toHaveText('1–1 de 1');
  await page.getByTestId('admin-customer-row').first().click();
  const detail = page.getByTestId('admin-customer-detail');
  await expect(detail).toBeVisible();
  // The e-mail waits; the console does not say it went.
  await detail.getByRole('button', { name: 'Enviar correo para reestablecer contraseña' }).click();
  await expect(page.getByText('quedó en espera en Mensajes')).toBeVisible();
  await detail.getByTestId('set-password-at-desk').click();
  const dialog = page.getByRole('dialog', { name: 'Nueva contraseña en recepción' });
  await expect(dialog).toContainText('Confirma la identidad de Diego Hernández');
  await dialog.getByTestId('desk-new-password').fill('Diego-Recepcion-26');
  await dialog.getByTestId('desk-new-password-confirm').fill('Diego-Recepcion-26');
  await shoot(page, 'admin-password-at-desk');
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/admin-password-at-desk-1280x720.png` });
  await dialog.getByRole('button', { name: 'Guardar contraseña' }).click();
  await expect(page.getByText('Diego Hernández ya puede iniciar sesión con su nueva contraseña.')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  // Nobody saw a code: she signs in with what she typed.
  const login = await request.post(`${serverUrl}/api/auth/login`, { data: { email: 'nuevo@estudio.demo', password: 'Diego-Recepcion-26' } });
  expect(login.status()).toBe(200);
  await page.setViewportSize({ width: 1280, height: 720 });
  await shoot(page, 'admin-messages-not-configured', banner);
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/admin-messages-not-configured-1280x720.png` });
});
