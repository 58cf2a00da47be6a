#!/usr/bin/env node
/**
 * Drives the previous admin panel, built by build.mjs, in Chromium against a
 * running server of ours (AUTH_PROVIDER=firebase) and the Firebase Auth
 * emulator: signs in through its login form as the studio's admin, opens each
 * of its 26 routed screens, and reports per screen what rendered, the errors
 * its page threw and every /api answer it got that was not a success.
 * Screenshots go to SHOTS_DIR.
 *
 *   PANEL_DIR=… API=http://127.0.0.1:4100 EMULATOR=127.0.0.1:9099 node scripts/legacy-panel/drive.mjs
 */
import { createServer } from 'node:http';
import { readFile, mkdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { chromium } from '@playwright/test';

const panelDir = process.env.PANEL_DIR ?? '/tmp/panel-out';
const api = process.env.API ?? 'http://127.0.0.1:4100';
const emulator = process.env.EMULATOR ?? '127.0.0.1:9099';
const panelPort = Number(process.env.PANEL_PORT ?? 4200);
const shots = process.env.SHOTS_DIR ?? '/tmp/panel-shots';
const email = process.env.ADMIN_EMAIL ?? 'admin@estudio.demo';
const password = process.env.ADMIN_PASSWORD ?? 'Panel2026!';
const only = process.env.ONLY ? new RegExp(process.env.ONLY) : null;

const types = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.png': 'image/png', '.ico': 'image/x-icon', '.json': 'application/json', '.svg': 'image/svg+xml', '.woff2': 'font/woff2', '.woff': 'font/woff', '.ttf': 'font/ttf', '.map': 'application/json', '.jpeg': 'image/jpeg', '.jpg': 'image/jpeg' };
/** The panel's own origin: its files, and index.html for every route (a single-page app). */
const site = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  const file = join(panelDir, path);
  const found = path !== '/' && existsSync(file) && extname(file) !== '';
  res.writeHead(found ? 200 : path.startsWith('/static/') || path.startsWith('/vendor/') || path.startsWith('/src/') ? 404 : 200, { 'content-type': types[extname(found ? file : 'x.html')] ?? 'application/octet-stream' });
  res.end(found ? await readFile(file) : path.startsWith('/static/') || path.startsWith('/vendor/') || path.startsWith('/src/') ? '' : await readFile(join(panelDir, 'index.html')));
});
await new Promise((r) => site.listen(panelPort, '127.0.0.1', r));
const origin = `http://127.0.0.1:${panelPort}`;

/** The admin's Firebase account, made (or found) in the emulator, its e-mail verified as its link would. */
async function emulatorCall(path, body) {
  const res = await fetch(`http://${emulator}/identitytoolkit.googleapis.com/v1/${path}`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer owner' }, body: JSON.stringify(body) });
  return { ok: res.ok, body: await res.json() };
}
let account = await emulatorCall('accounts:signInWithPassword?key=any', { email, password, returnSecureToken: true });
if (!account.ok) account = await emulatorCall('accounts:signUp?key=any', { email, password, returnSecureToken: true });
if (!account.ok) throw new Error(`emulador: ${JSON.stringify(account.body)}`);
await emulatorCall('projects/demo-estudio/accounts:update', { localId: account.body.localId, emailVerified: true });
const token = (await emulatorCall('accounts:signInWithPassword?key=any', { email, password, returnSecureToken: true })).body.idToken;
const get = async (path) => {
  const res = await fetch(`${api}/api${path}`, { headers: { authorization: token } });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
};

// Ids for the screens that show one record.
const customers = await get('/customer/admin/all?page=1');
const customerId = (customers.customers ?? customers.rows ?? customers)[0]?.customer_id;
const packages = (await get('/class_packages/admin/all')).class_packages;
const packageId = packages.find((p) => !p.is_special_event)?.class_package_id;
const eventId = packages.find((p) => p.is_special_event)?.class_package_id;
const categoryId = (await get('/class_categories')).class_categories[0]?.class_category_id;
const day = (offset) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);
const week = await get(`/single_class?start_date=${day(-1)}&end_date=${day(6)}`);
const classId = week.single_classes.find((c) => c.reservation_count > 0)?.single_class_id;

const screens = [
  ['Clases', '/myadmin/clases'],
  ['Clientes', '/myadmin/clientes'],
  ['Cliente', `/myadmin/customer/${customerId}`],
  ['Editar cliente', `/myadmin/customer/${customerId}/edit`],
  ['Paquetes', '/myadmin/paquetes'],
  ['Paquete', `/myadmin/paquetes/${packageId}`],
  ['Asistentes (clases)', '/myadmin/asistentes'],
  ['Asistentes de una clase', `/myadmin/asistentes/${classId}`],
  ['Ubicaciones', '/myadmin/ubicaciones'],
  ['Coaches', '/myadmin/coaches'],
  ['Categorías', '/myadmin/categorias'],
  ['Categoría', `/myadmin/categorias/${categoryId}`],
  ['Tipos de clase', '/myadmin/tipos'],
  ['Home', '/myadmin/home'],
  ['Descuentos', '/myadmin/descuentos'],
  ['Especiales', '/myadmin/especiales'],
  ['Asistentes de un especial', `/myadmin/especiales/${eventId}`],
  ['Órdenes', '/myadmin/orders'],
  ['Usuarios', '/myadmin/users'],
  ['Circuitos', '/myadmin/circuitos'],
  ['Inscritos', '/myadmin/analytics/inscritos'],
  ['Analíticas: paquetes', '/myadmin/analytics/paquetes'],
  ['Ingresos', '/myadmin/analytics/ingresos'],
  ['Reservaciones', '/myadmin/analytics/reservaciones'],
  ['Instructores', '/myadmin/analytics/instructores'],
  ['Mensuales', '/myadmin/analytics/mensuales'],
];

await mkdir(shots, { recursive: true });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
let errors = [];
let failed = [];
/** The panel in a new browser context, signed in through its own form: a screen that crashes signs the admin out (its error path). */
async function signedIn(viewport = { width: 1366, height: 900 }) {
  const context = await browser.newContext({ viewport, timezoneId: 'America/Mexico_City', locale: 'es-MX' });
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  // The panel's Google Fonts cannot load offline; nothing else is left out.
  page.on('console', (m) => { if (m.type() === 'error' && !/ERR_NAME_NOT_RESOLVED|Failed to load resource/.test(m.text())) errors.push(`console: ${m.text().split('\n')[0]}`); });
  page.on('response', async (r) => {
    if (r.url().startsWith(`${api}/api`) && r.status() >= 400) failed.push(`${r.request().method()} ${r.url().slice(api.length)} → ${r.status()} ${(await r.text().catch(() => '')).slice(0, 200)}`);
  });
  await page.goto(`${origin}/entrar`);
  await page.locator('input[type=email]').fill(email);
  await page.locator('input[type=password]').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL(/\/myadmin/, { timeout: 20_000 });
  await page.waitForLoadState('networkidle');
  return page;
}
const first = await signedIn();
console.log(`Entrar: ${first.url()} errores=${errors.length} fallidas=${failed.length}`);
for (const line of [...errors, ...failed]) console.log(`   ${line}`);
const signIn = { errors, failed };
await first.context().close();

const results = [];
for (const [name, path] of screens) {
  if (only && !only.test(name)) continue;
  const page = await signedIn();
  errors = [];
  failed = [];
  await page.goto(`${origin}${path}`);
  await page.waitForLoadState('networkidle').catch(() => {});
  await page.waitForTimeout(800);
  const text = (await page.locator('#root').innerText().catch(() => '')).trim();
  const stillThere = page.url().includes('/myadmin');
  const file = `${String(results.length + 1).padStart(2, '0')}-${name.normalize('NFD').replace(/[^\w]+/g, '-').toLowerCase()}.png`;
  await page.screenshot({ path: join(shots, file), fullPage: false });
  results.push({ name, path, rendered: text.length > 0 && stillThere, chars: text.length, errors, failed, file });
  console.log(`${text.length > 0 && stillThere ? '✓' : '✗'} ${name} (${path}) texto=${text.length} errores=${errors.length} fallidas=${failed.length}`);
  for (const line of [...errors, ...failed]) console.log(`   ${line}`);
  await page.context().close();
}

// Actions, each through the panel's own screens: what it sent, what it got, and what the server then holds.
const modal = (page) => page.locator('#modal .modal-body');
const alertShown = async (page) => {
  const ok = page.locator('.alert-success:visible');
  const bad = page.locator('.alert-danger:visible');
  await Promise.race([ok.first().waitFor({ timeout: 5000 }), bad.first().waitFor({ timeout: 5000 })]).catch(() => {});
  return { success: (await ok.count()) > 0 ? (await ok.first().innerText()).trim() : null, error: (await bad.count()) > 0 ? (await bad.first().innerText()).trim() : null };
};
const credits = async (id) => {
  const c = (await get(`/customer/admin/${id}`)).customer;
  return c.available_classes;
};
const actionCustomer = customerId;
const actions = [
  ['Editar cliente y guardar', async (page) => {
    await page.goto(`${origin}/myadmin/customer/${actionCustomer}/edit`);
    const phone = page.locator('form input').nth(3);
    await phone.waitFor();
    await phone.fill('5512340000');
    await page.getByRole('button', { name: 'Guardar' }).click();
    const shown = await alertShown(page);
    const stored = (await get(`/customer/admin/${actionCustomer}`)).customer.phone;
    return { ok: stored === '5512340000', shown, stored: `teléfono ${stored}` };
  }],
  ['Agregar 2 clases', async (page) => {
    const before = await credits(actionCustomer);
    await page.goto(`${origin}/myadmin/customer/${actionCustomer}`);
    await page.getByRole('button', { name: /Agregar Clases/ }).click();
    await modal(page).locator('input').nth(0).fill('2');
    await modal(page).locator('input').nth(1).fill('30');
    await modal(page).getByRole('button', { name: 'Agregar Clases' }).click();
    const shown = await alertShown(page);
    const after = await credits(actionCustomer);
    return { ok: JSON.stringify(after) !== JSON.stringify(before), shown, stored: `available_classes ${JSON.stringify(before)} → ${JSON.stringify(after)}` };
  }],
  ['Restar 1 clase', async (page) => {
    const before = await credits(actionCustomer);
    await page.goto(`${origin}/myadmin/customer/${actionCustomer}`);
    await page.getByRole('button', { name: /Restar Clases/ }).click();
    await modal(page).locator('input').first().fill('1');
    await modal(page).getByRole('button', { name: 'Restar Clases' }).click();
    const shown = await alertShown(page);
    await page.waitForTimeout(1000);
    const after = await credits(actionCustomer);
    return { ok: JSON.stringify(after) !== JSON.stringify(before), shown, stored: `available_classes ${JSON.stringify(before)} → ${JSON.stringify(after)}` };
  }],
  ['Generar Link (contraseña)', async (page) => {
    await page.goto(`${origin}/myadmin/customer/${actionCustomer}`);
    await page.getByRole('button', { name: /Generar Link/ }).click();
    const shown = await alertShown(page);
    const text = (await page.locator('#modal').innerText().catch(() => '')).trim();
    return { ok: shown.error === null, shown, stored: text.slice(0, 200) };
  }],
  ['Agregar acceso (paquete, efectivo)', async (page) => {
    const before = (await get(`/customer/admin/${actionCustomer}`)).customer.purchases?.length;
    await page.goto(`${origin}/myadmin/customer/${actionCustomer}`);
    await page.getByRole('button', { name: /Agregar Paquete/i }).click();
    const form = modal(page);
    await form.locator('select').first().selectOption({ index: 1 });
    await form.locator('input[type=number]').nth(0).fill('30');
    await form.locator('input[type=number]').nth(1).fill('350');
    await form.locator('input[type=submit]').click();
    const shown = await alertShown(page);
    await page.waitForTimeout(800);
    const after = (await get(`/customer/admin/${actionCustomer}`)).customer.purchases?.length;
    return { ok: after === (before ?? 0) + 1, shown, stored: `compras ${before} → ${after}` };
  }],
  ['Agregar asistente a una clase', async (page) => {
    const open = week.single_classes.find((c) => c.reservation_count < c.capacity && new Date(c.class_date_utc ?? c.class_date) > new Date());
    const roster = async () => (await get(`/single_class/admin/${open.single_class_id}`)).clase.asistentes.length;
    const before = await roster();
    await page.goto(`${origin}/myadmin/asistentes/${open.single_class_id}`);
    await page.getByRole('button', { name: /Agregar/ }).first().click();
    await modal(page).locator('input[placeholder="Buscar..."]').fill('Castillo');
    await modal(page).getByRole('button', { name: '+' }).first().click();
    await modal(page).getByRole('button', { name: 'Agregar a Clase' }).click();
    const shown = await alertShown(page);
    await page.waitForTimeout(800);
    const after = await roster();
    return { ok: after === before + 1, shown, stored: `asistentes ${before} → ${after} (clase ${open.single_class_id})` };
  }],
  ['Marcar asistencia', async (page) => {
    const past = week.single_classes.find((c) => c.single_class_id === classId);
    const attendees = async () => (await get(`/single_class/admin/${past.single_class_id}`)).clase.asistentes;
    const before = await attendees();
    const target = before.find((a) => !a.attend) ?? before[0];
    await page.goto(`${origin}/myadmin/asistentes/${past.single_class_id}`);
    const row = page.locator('.row', { hasText: `${target.customer.name} ${target.customer.last_name}` }).last();
    await row.locator('button:has(i.fa-check)').click();
    await page.waitForTimeout(1200);
    const after = (await attendees()).find((a) => a.class_reservation_id === target.class_reservation_id);
    return { ok: after.attend === !target.attend, stored: `${target.customer.name}: attend ${target.attend} → ${after.attend}` };
  }],
  ['Cancelar la reservación de un asistente', async (page) => {
    const open = week.single_classes.find((c) => c.reservation_count > 0 && new Date(c.class_date_utc ?? c.class_date) > new Date(Date.now() + 86400_000));
    const attendees = async () => (await get(`/single_class/admin/${open.single_class_id}`)).clase.asistentes;
    const before = await attendees();
    await page.goto(`${origin}/myadmin/asistentes/${open.single_class_id}`);
    // A row's own trash button (the class's Eliminar is mx-3, a row's mx-2).
    await page.locator('.row button.btn-outline-danger.mx-2').first().click();
    await modal(page).locator('button.btn-danger').click();
    const shown = await alertShown(page);
    await page.waitForTimeout(800);
    const after = await attendees();
    return { ok: after.length === before.length - 1, shown, stored: `asistentes ${before.length} → ${after.length} (clase ${open.single_class_id})` };
  }],
  ['Crear una clase', async (page) => {
    const date = new Date(Date.now() + 12 * 86400_000).toISOString().slice(0, 10);
    const count = async () => (await get(`/single_class?start_date=${date}&end_date=${date}`)).single_classes.length;
    const before = await count();
    await page.goto(`${origin}/myadmin/clases`);
    await page.getByRole('button', { name: /Agregar/ }).first().click();
    const form = modal(page);
    await form.locator('input[type=text]').nth(0).fill('Clase creada desde el panel anterior');
    await form.locator('input[type=date]').fill(date);
    await form.locator('input[type=number]').nth(0).fill('21');
    await form.locator('input[type=number]').nth(1).fill('15');
    await form.locator('input[placeholder]').last().fill('a');
    await form.locator('button', { hasText: /\+|Agregar$/ }).first().click().catch(() => {});
    await form.locator('input[type=number]').last().fill('10');
    await form.getByRole('button', { name: 'Guardar' }).click();
    const shown = await alertShown(page);
    await page.waitForTimeout(800);
    const after = await count();
    return { ok: after === before + 1, shown, stored: `clases del ${date}: ${before} → ${after}` };
  }],
  ['Eliminar (cancelar) una clase con reservaciones, desde la semana', async (page) => {
    // The class's own screen cannot delete it (its Eliminar hands the click event over as the class, and its Editar
    // opens a blank form that crashes on the class it holds: the panel's code); the week's trash button can.
    const wall = (iso) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Mexico_City', hourCycle: 'h23', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
    const soon = Date.now() + 2 * 86400_000;
    const open = week.single_classes.find((c) => c.reservation_count > 0 && c.cancelledAt === null && new Date(c.class_date) > new Date(soon) && new Date(c.class_date) < new Date(Date.now() + 5 * 86400_000));
    await page.goto(`${origin}/myadmin/clases`);
    // The week is drawn twice (its phone layout hidden at this width): the visible card holding the class.
    const card = page.locator('div:visible', { has: page.locator('button.btn-danger:visible i.fa-trash') }).filter({ hasText: open.description }).filter({ hasText: wall(open.class_date) });
    await card.last().locator('button.btn-danger:visible').click();
    const request = page.waitForRequest((r) => r.method() === 'DELETE');
    await modal(page).locator('button.btn-danger', { hasText: 'Eliminar' }).click();
    const id = Number((await request).url().split('/').pop());
    const shown = await alertShown(page);
    await page.waitForTimeout(800);
    const after = (await get(`/single_class/admin/${id}`)).clase;
    const cancelled = (await get(`/single_class/admin/${id}`)).clase.asistentes.length;
    return { ok: after.deletedAt !== null, shown, stored: `clase ${id} (${after.description} ${wall(after.class_date_utc)}) deletedAt ${after.deletedAt}, asistentes que quedan ${cancelled}` };
  }],
  ['Editar un paquete y guardar', async (page) => {
    await page.goto(`${origin}/myadmin/paquetes/${packageId}`);
    const title = page.locator('form input[type=text]').first();
    await title.waitFor();
    const was = await title.inputValue();
    await title.fill(`${was} `);
    await title.fill(was);
    await page.getByRole('button', { name: 'Guardar' }).click();
    const shown = await alertShown(page);
    return { ok: shown.error === null, shown, stored: `título ${was}` };
  }],
  ['Editar una ubicación y guardar', async (page) => {
    await page.goto(`${origin}/myadmin/ubicaciones`);
    await page.locator('button:has(i.fa-edit), button:has-text("Editar")').first().click();
    const form = modal(page);
    await form.locator('input').nth(1).fill('Frente al parque, segundo piso.');
    await form.locator('input[type=submit]').click();
    const shown = await alertShown(page);
    await page.waitForTimeout(800);
    const locations = await get('/locations');
    return { ok: JSON.stringify(locations).includes('Frente al parque, segundo piso.'), shown, stored: 'descripción guardada' };
  }],
  ['Crear un descuento', async (page) => {
    await page.goto(`${origin}/myadmin/descuentos`);
    await page.getByRole('button', { name: /Agregar/ }).first().click();
    const form = modal(page);
    const field = (label) => form.locator(`label:text-is("${label}") + input`);
    await field('Código').fill('PANEL10');
    await field('Descripción').fill('Creado desde el panel anterior');
    await form.locator('select').selectOption('1');
    await field('Cantidad').fill('10');
    const from = new Date().toISOString().slice(0, 10);
    const to = new Date(Date.now() + 30 * 86400_000).toISOString().slice(0, 10);
    await form.locator('input[type=date]').nth(0).fill(from);
    await form.locator('input[type=date]').nth(1).fill(to);
    await field('Cantidad por Cliente').fill('1');
    await form.getByRole('button', { name: /Guardar/ }).click();
    const shown = await alertShown(page);
    await page.waitForTimeout(800);
    const all = await get('/discounts/admin/all');
    return { ok: JSON.stringify(all).includes('PANEL10'), shown, stored: JSON.stringify(all).includes('PANEL10') ? 'PANEL10 guardado' : 'PANEL10 no está' };
  }],
  ['Crear un coach', async (page) => {
    await page.goto(`${origin}/myadmin/coaches`);
    await page.getByRole('button', { name: /Agregar/ }).first().click();
    const form = modal(page);
    await form.locator('label:text-is("Nombre") + input').fill('Lucía');
    await form.locator('label:text-is("Apellidos") + input').fill('Desde El Panel');
    await form.locator('label:text-is("Apodo") + input').fill('Lu');
    await form.locator('textarea').fill('Coach de prueba creada desde el panel anterior.');
    await form.getByRole('button', { name: 'Guardar' }).click();
    const shown = await alertShown(page);
    await page.waitForTimeout(800);
    const coaches = await get('/instructors');
    const found = JSON.stringify(coaches).includes('Desde El Panel');
    return { ok: found, shown, stored: found ? 'Lucía Desde El Panel guardada' : 'no está en /instructors' };
  }],
  ['Editar un tipo de clase (color y lugares) y guardar', async (page) => {
    await page.goto(`${origin}/myadmin/tipos`);
    await page.locator('button:has(i.fa-edit)').first().click();
    const form = modal(page);
    await form.locator('label:text-is("Color") + input').fill('#1e88e5');
    await form.getByRole('button', { name: 'Guardar' }).click();
    const shown = await alertShown(page);
    await page.waitForTimeout(800);
    const types = JSON.stringify(await get('/class_types'));
    return { ok: types.includes('#1e88e5'), shown, stored: types.includes('#1e88e5') ? 'color #1e88e5 guardado' : 'el color no cambió' };
  }],
];

const done = [];
for (const [name, act] of actions) {
  if (only && !only.test(name)) continue;
  const page = await signedIn();
  errors = [];
  failed = [];
  const sent = [];
  page.on('request', (r) => { if (r.url().startsWith(`${api}/api`) && r.method() !== 'GET' && r.method() !== 'OPTIONS') sent.push(`${r.method()} ${r.url().slice(api.length)} ${(r.postData() ?? '').slice(0, 300)}`); });
  let outcome;
  try {
    outcome = await act(page);
  } catch (error) {
    outcome = { ok: false, stored: `el guion no pudo seguir: ${String(error.message).split('\n')[0]}` };
  }
  const file = `a${String(done.length + 1).padStart(2, '0')}-${name.normalize('NFD').replace(/[^\w]+/g, '-').toLowerCase()}.png`;
  await page.screenshot({ path: join(shots, file) });
  // A call the panel builds wrong by itself (its refresh after a delete asks for start_date=undefined) is reported, and
  // does not fail an action that did what it was asked.
  const panelOwn = (line) => /start_date=undefined/.test(line);
  const ok = outcome.ok && errors.length === 0 && failed.filter((line) => !panelOwn(line)).length === 0;
  done.push({ name, ok, ...outcome, sent, errors, failed, file });
  console.log(`${ok ? '✓' : '✗'} ${name}: ${outcome.stored ?? ''} ${outcome.shown ? JSON.stringify(outcome.shown) : ''}`);
  for (const line of [...sent.map((l) => `→ ${l}`), ...errors, ...failed]) console.log(`   ${line}`);
  await page.context().close();
}
await writeFile(join(shots, 'results.json'), JSON.stringify({ signIn, results, actions: done }, null, 2));
await browser.close();
site.close();
