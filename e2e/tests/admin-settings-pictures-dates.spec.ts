import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import zlib from 'node:zlib';
import { expect, test, type APIRequestContext } from './fixtures.ts';
import { apiLogin } from './desk-processes.ts';
import { adminStudio, openSection, pickDateTime } from './admin-studio.ts';
import { shoot } from './shots.ts';

/**
 * Point 3 (the rest), as the owner does it in the desk's admin
 * console (desk:web in Chromium) against its own server, which serves a
 * fresh build of the portal: a package's picture uploaded and seen in the
 * portal's shop, the landing's pictures uploaded in Configuración, a
 * discount's dates picked on calendars and stored at the hour picked, and a
 * program's videos chosen in its form.
 *
 * The browser runs in Tokyo's zone while the studio is in Mexico City's: a
 * picked 09:30 must still be the studio's 09:30.
 */
const { serverUrl, adminDesk } = adminStudio('admin-pictures-dates', 66, { portal: true });

test.use({ timezoneId: 'Asia/Tokyo' });

/** A real PNG picture, w×h, of one colour. */
function png(w: number, h: number, rgb: [number, number, number]): Buffer {
  const raw = Buffer.concat(Array.from({ length: h }, () => Buffer.from([0, ...Array.from({ length: w }, () => rgb).flat()])));
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type), data]);
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(w, 0);
  header.writeUInt32BE(h, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

async function adminGet<T>(request: APIRequestContext, path: string): Promise<T> {
  const token = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  return (await (await request.get(`${serverUrl}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as T;
}

test("the owner gives a package its picture (there was no field for it) and the portal's shop shows it", async ({ page, request }) => {
  await adminDesk(page);
  await openSection(page, 'Paquetes');
  const edit = page.getByRole('button', { name: 'Editar 10 Clases', exact: true });
  await edit.click();
  const form = page.getByTestId('package-form');
  await form.getByTestId('package-image-image').locator('input[type=file]').setInputFiles({ name: 'diez.png', mimeType: 'image/png', buffer: png(200, 120, [40, 160, 140]) });
  await expect.poll(() => form.getByTestId('package-image-preview').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(200);
  await form.getByTestId('package-receipt-image').locator('input[type=file]').setInputFiles({ name: 'recibo.png', mimeType: 'image/png', buffer: png(120, 160, [230, 230, 230]) });
  await expect.poll(() => form.getByTestId('package-receipt-preview').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(120);
  await shoot(page, 'admin-package-images', form);
  await page.getByTestId('package-save').click();
  await expect(form).toBeHidden();

  // Reopened, the pictures are there; the record keeps the address and the receipt's file.
  await edit.click();
  await expect.poll(() => form.getByTestId('package-image-preview').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(200);
  await page.keyboard.press('Escape');
  const { class_packages } = await adminGet<{ class_packages: { title: string; image: string | null; receipt_file_id: number | null }[] }>(request, '/api/class_packages/admin/all?query=10%20Clases');
  const stored = class_packages.find((p) => p.title === '10 Clases');
  expect(stored?.image).toMatch(/^\/files\/[a-z0-9-]+\.png$/);
  expect(stored?.receipt_file_id).toEqual(expect.any(Number));

  // The customer's shop, in the portal: the card shows the uploaded picture.
  const shop = await page.context().newPage();
  await shop.goto(`${serverUrl}/paquetes`);
  const picture = shop.locator(`img[src="${stored?.image}"]`).first();
  await expect(picture).toBeVisible();
  await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(200);
  await shop.close();
});

test("the owner picks a discount's dates on calendars in a browser in another zone, and the studio's hours are stored", async ({ page, request }) => {
  await adminDesk(page);
  await openSection(page, 'Descuentos');
  await page.getByTestId('discount-new').click();
  const form = page.getByTestId('discount-form');
  await form.getByLabel('Código').fill('NAVIDAD26');
  await form.getByLabel('Descuento (%)').fill('15');
  await pickDateTime(page, form.getByTestId('discount-starts'), '2026-12-01', '09:30');
  await pickDateTime(page, form.getByTestId('discount-expires'), '2026-12-24', '21:00');
  await expect(form.getByTestId('discount-starts')).toHaveText(/1 dic\.? 2026 09:30/);
  await expect(form.getByTestId('discount-expires')).toHaveText(/24 dic\.? 2026 21:00/);
  await shoot(page, 'admin-discount-dates', form);
  await page.getByTestId('discount-save').click();
  await expect(form).toBeHidden();

  // 09:30 and 21:00 in Mexico City (UTC−6), whatever the zone of the browser.
  const { discounts } = await adminGet<{ discounts: { code: string; starts_at: string | null; expires_at: string | null }[] }>(request, '/api/discounts/admin/all?query=NAVIDAD26');
  const stored = discounts.find((d) => d.code === 'NAVIDAD26');
  expect(stored && new Date(stored.starts_at ?? '').toISOString()).toBe('2026-12-01T15:30:00.000Z');
  expect(stored && new Date(stored.expires_at ?? '').toISOString()).toBe('2026-12-25T03:00:00.000Z');

  // Reopened, the form shows the same hours, and saving untouched changes nothing.
  const row = page.getByTestId('discount-row').filter({ hasText: 'NAVIDAD26' });
  await row.getByRole('button', { name: 'Editar NAVIDAD26' }).click();
  await expect(form.getByTestId('discount-starts')).toHaveText(/1 dic\.? 2026 09:30/);
  await page.getByTestId('discount-save').click();
  await expect(form).toBeHidden();
  const again = await adminGet<{ discounts: { code: string; starts_at: string | null }[] }>(request, '/api/discounts/admin/all?query=NAVIDAD26');
  expect(new Date(again.discounts.find((d) => d.code === 'NAVIDAD26')?.starts_at ?? '').toISOString()).toBe('2026-12-01T15:30:00.000Z');
});

test("the owner uploads the landing's picture in Configuración, previewed, and it is the stored setting the portal reads, served from the studio's files", async ({ page, request }) => {
  await adminDesk(page);
  await openSection(page, 'Configuración');
  await page.getByTestId('settings-tab-sitio').click();
  const hero = page.getByTestId('setting-hero_image-image');
  await hero.locator('input[type=file]').setInputFiles({ name: 'portada.png', mimeType: 'image/png', buffer: png(320, 180, [250, 180, 60]) });
  await expect.poll(() => page.getByTestId('setting-hero_image-preview').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(320);
  await shoot(page, 'admin-settings-images', hero);
  await page.getByTestId('settings-save').click();
  await expect(page.getByTestId('settings-changes')).not.toContainText('sin guardar');
  const config = (await (await request.get(`${serverUrl}/api/appconfig`)).json()) as { config: { key: string; value: string }[] };
  const src = config.config.find((e) => e.key === 'hero_image')?.value ?? '';
  expect(src).toMatch(/^\/files\/[a-z0-9-]+\.png$/);
  expect((await request.get(`${serverUrl}${src}`)).status()).toBe(200);
});

test("the owner adds a picture to a page's content: uploaded, put in its HTML, and stored with the page", async ({ page, request }) => {
  await adminDesk(page);
  await openSection(page, 'Páginas');
  await page.getByTestId('pages-new').click();
  const form = page.getByTestId('pages-form');
  await form.getByLabel('Título').fill('Nuestro estudio');
  await form.getByLabel('Slug').fill('nuestro-estudio');
  await form.getByLabel('Contenido (HTML)').fill('<p>Dos salones con luz natural.</p>');
  await form.getByTestId('pages-content-insert-image').locator('..').locator('input[type=file]').setInputFiles({ name: 'salon.png', mimeType: 'image/png', buffer: png(240, 160, [120, 90, 200]) });
  await expect(form.getByLabel('Contenido (HTML)')).toHaveValue(/^<p>Dos salones con luz natural\.<\/p>\n<p><img src="\/files\/[a-z0-9-]+\.png" alt="" \/><\/p>$/);
  await shoot(page, 'admin-page-picture', form);
  await page.getByTestId('pages-save').click();
  await expect(form).toBeHidden();
  const stored = (await (await request.get(`${serverUrl}/api/pages/nuestro-estudio`)).json()) as { page: { content: string } };
  const src = /src="([^"]+)"/.exec(stored.page.content)?.[1] ?? '';
  expect(src).toMatch(/^\/files\/[a-z0-9-]+\.png$/);
  expect((await request.get(`${serverUrl}${src}`)).status()).toBe(200);
});

test("the owner chooses a program's videos in its form, in order, and the program lists them", async ({ page, request }) => {
  await adminDesk(page);
  await openSection(page, 'Videos');
  await page.getByTestId('programs-new').click();
  const form = page.getByTestId('programs-form');
  await form.getByLabel('Nombre').fill('Semana de movilidad');
  await form.getByLabel('Videos del programa (en este orden)').click();
  const options = page.getByRole('listbox').getByRole('option');
  const first = (await options.nth(1).innerText()).trim();
  const second = (await options.nth(0).innerText()).trim();
  await options.nth(1).click();
  await options.nth(0).click();
  await page.keyboard.press('Escape');
  await shoot(page, 'admin-program-videos', form);
  await page.getByTestId('programs-save').click();
  await expect(form).toBeHidden();
  await expect(page.getByTestId('programs-row').filter({ hasText: 'Semana de movilidad' })).toContainText('2');

  const { videos } = await adminGet<{ videos: { video_id: number; name: string }[] }>(request, '/api/videos/admin/all');
  const idOf = (name: string) => videos.find((v) => v.name === name)?.video_id;
  const { programs } = (await (await request.get(`${serverUrl}/api/programs`)).json()) as { programs: { name: string; video_ids: number[] }[] };
  expect(programs.find((p) => p.name === 'Semana de movilidad')?.video_ids).toEqual([idOf(first), idOf(second)]);
});

test("Actividad shows a desk's gift the server refused, as 'Rechazado por el servidor', with who, the desk, what was tried and why", async ({ page, request }) => {
  // Recepción's desk was offline and queued a gift over her limit ($180 by default): the server refuses it at replay.
  const recepcion = await apiLogin(request, serverUrl, 'recepcion@estudio.demo');
  const { customers } = await adminGet<{ customers: { customer_id: number; email: string }[] }>(request, '/api/customer/query?query=cliente%40estudio.demo');
  const mariana = customers.find((c) => c.email === 'cliente@estudio.demo')?.customer_id;
  const { class_packages } = (await (await request.get(`${serverUrl}/api/class_packages`)).json()) as { class_packages: { class_package_id: number; title: string }[] };
  const diez = class_packages.find((p) => p.title === '10 Clases')?.class_package_id;
  const desk = randomUUID();
  const push = await request.post(`${serverUrl}/trpc/sync.push`, {
    headers: { authorization: `Bearer ${recepcion}` },
    data: { clientId: desk, mutations: [{ id: 1, name: 'giveAccess', args: { customer_id: mariana, class_package_id: diez, is_gift: true, reason: 'Cumpleaños de Mariana' } }] },
  });
  expect(push.status()).toBe(200);

  await adminDesk(page);
  await openSection(page, 'Actividad');
  await page.getByTestId('activity-kind').click();
  await page.getByRole('option', { name: 'Rechazado por el servidor' }).click();
  const entry = page.locator('[data-testid="activity-entry"][data-kind="refusedBySync"]').first();
  await expect(entry).toContainText('Rechazado por el servidor');
  await expect(entry.getByTestId('activity-text')).toContainText(
    `Andrea Torres (recepcion@estudio.demo) intentó, desde la recepción ${desk.slice(0, 8)}, regalar 10 Clases a Mariana López — motivo: Cumpleaños de Mariana. El servidor lo rechazó: Recepción no puede regalar`,
  );
  await expect(page.getByTestId('activity-entry')).toHaveCount(1);
  await shoot(page, 'admin-activity-refused', entry);
});

test("the owner publishes the terms' new version; a signed-in customer is asked to accept it, told it changed, and only once", async ({ page, browser }) => {
  // The customer, signed in on the portal with everything accepted at sign-up.
  const portal = await browser.newPage({ baseURL: serverUrl, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
  await portal.goto('/entrar');
  await portal.getByLabel('Correo electrónico').fill('cliente@estudio.demo');
  await portal.getByLabel('Contraseña', { exact: true }).fill('Demo1234!');
  await portal.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(portal).toHaveURL(/\/mystudio$/);
  await expect(portal.getByRole('dialog', { name: /Términos y condiciones/ })).toHaveCount(0);

  await adminDesk(page);
  await openSection(page, 'Páginas');
  // A new page has no earlier version to replace: the choice is only offered when editing.
  await page.getByTestId('pages-new').click();
  await expect(page.getByTestId('pages-form').getByLabel('Publicar como versión nueva')).toHaveCount(0);
  await page.getByRole('button', { name: 'Cancelar' }).click();
  await page.getByRole('button', { name: 'Editar Términos y condiciones' }).click();
  const form = page.getByTestId('pages-form');
  const newVersion = form.getByLabel('Publicar como versión nueva');
  await expect(newVersion).not.toBeChecked();
  await form.getByLabel('Contenido (HTML)').fill('<h2>Términos y condiciones</h2><p>Ahora también tratamos tus datos para emitir tus facturas (CFDI).</p>');
  await newVersion.check();
  await shoot(page, 'admin-page-new-version', form);
  if (process.env.SHOTS_DIR) {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/admin-page-new-version-1280x720.png` });
    await page.setViewportSize({ width: 1366, height: 900 });
  }
  await page.getByTestId('pages-save').click();
  await expect(form).toBeHidden();
  const row = page.getByRole('row', { name: /Términos y condiciones/ });
  await expect(row.getByRole('cell', { name: '2', exact: true })).toBeVisible();

  // Back on the portal: the new text, said to be new, and nothing else until she accepts it.
  await portal.reload();
  const updated = portal.getByRole('dialog', { name: 'Actualizamos: Términos y condiciones' });
  await expect(updated).toBeVisible();
  await expect(updated.getByText('El estudio publicó una versión nueva de este documento.', { exact: false })).toBeVisible();
  await expect(updated.getByText('Ahora también tratamos tus datos para emitir tus facturas (CFDI).')).toBeVisible();
  await shoot(portal, 'portal-terms-new-version');
  await updated.getByRole('button', { name: 'Aceptar' }).click();
  await expect(updated.getByText('Debes aceptar Términos y condiciones para continuar')).toBeVisible();
  await updated.getByRole('checkbox', { name: 'Acepto Términos y condiciones' }).check();
  await updated.getByRole('button', { name: 'Aceptar' }).click();
  await expect(updated).toHaveCount(0);
  await portal.reload();
  await expect(portal.getByRole('button', { name: /Mariana|Cliente/ }).first()).toBeVisible();
  await expect(portal.getByRole('dialog', { name: /Términos y condiciones/ })).toHaveCount(0);
  await portal.close();
});

test("a customer asks about her data from Mi Información; the owner sees the law's deadline and answers; a cancellation closes her account", async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  // A customer of her own, signed up as the portal does.
  const email = `arco.${Date.now()}@correo.mx`;
  const password = 'Arco-2026!';
  const identity = await request.post(`${serverUrl}/api/auth/signup`, { data: { email, password } });
  expect(identity.ok()).toBeTruthy();
  const { idToken } = (await identity.json()) as { idToken: string };
  const pages = (await (await request.get(`${serverUrl}/api/pages`)).json()) as { pages: { page_id: number; required: boolean }[] };
  const made = await request.post(`${serverUrl}/api/customer/signup`, {
    headers: { authorization: `Bearer ${idToken}` },
    data: { name: 'Renata', last_name: 'Olvido', email, phone: `55${String(Date.now()).slice(-8)}`, birthdate: '1994-05-12', accepted_page_ids: pages.pages.filter((p) => p.required).map((p) => p.page_id) },
  });
  expect(made.ok(), await made.text()).toBeTruthy();

  const portal = await browser.newPage({ baseURL: serverUrl, locale: 'es-MX', timezoneId: 'America/Mexico_City' });
  await portal.goto('/entrar');
  await portal.getByLabel('Correo electrónico').fill(email);
  await portal.getByLabel('Contraseña', { exact: true }).fill(password);
  await portal.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(portal).toHaveURL(/\/mystudio$/);
  await portal.goto('/mystudio/informacion');
  const rights = portal.getByRole('region', { name: 'Tus derechos sobre tus datos' });
  await expect(rights.getByText('No has enviado solicitudes.')).toBeVisible();
  // Sent without choosing: said by the field, nothing sent.
  await rights.getByRole('button', { name: 'Enviar solicitud' }).click();
  await expect(rights.getByText('Elige qué derecho quieres ejercer.')).toBeVisible();
  await rights.getByRole('combobox', { name: 'Qué quieres hacer' }).click();
  await portal.getByRole('option', { name: /^Acceso:/ }).click();
  await rights.getByRole('textbox', { name: 'Tu solicitud' }).fill('¿Para qué usan mi fecha de nacimiento?');
  await rights.getByRole('button', { name: 'Enviar solicitud' }).click();
  await expect(portal.locator('.mantine-Notification-root').filter({ hasText: /^Recibimos tu solicitud\. El estudio te responde a más tardar el / })).toBeVisible();
  await expect(rights.getByText('En espera de respuesta')).toBeVisible();
  await rights.getByRole('combobox', { name: 'Qué quieres hacer' }).click();
  await portal.getByRole('option', { name: /^Cancelación:/ }).click();
  await expect(rights.getByText(/tu cuenta se cierra y tus datos se borran/)).toBeVisible();
  await rights.getByRole('textbox', { name: 'Tu solicitud' }).fill('Me cambio de ciudad: borren mis datos, por favor.');
  await shoot(portal, 'portal-arco-request', rights);
  await rights.getByRole('button', { name: 'Enviar solicitud' }).click();
  await expect(rights.getByText('En espera de respuesta')).toHaveCount(2);

  // The owner: both requests, the law's deadline, and an answer to each.
  await adminDesk(page);
  await openSection(page, 'Derechos ARCO');
  const access = page.getByTestId('privacy-request').filter({ hasText: '¿Para qué usan mi fecha de nacimiento?' });
  await expect(access).toContainText('Renata Olvido');
  await expect(access.getByTestId('privacy-deadline')).toHaveText(/^Quedan 20 días hábiles · Vence el /);
  await shoot(page, 'admin-arco-list', page.getByTestId('admin-privacy'));
  if (process.env.SHOTS_DIR) {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/admin-arco-list-1280x720.png` });
    await page.setViewportSize({ width: 1366, height: 900 });
  }
  await access.getByRole('button', { name: 'Responder' }).click();
  const dialog = page.getByTestId('privacy-answer');
  await dialog.getByRole('textbox', { name: 'Respuesta para el cliente' }).fill('La usamos solo para felicitarte en tu cumpleaños. Puedes borrarla en Mi Información.');
  await dialog.getByRole('button', { name: 'Guardar respuesta' }).click();
  await expect(dialog).toBeHidden();
  await expect(access).toHaveCount(0);
  // She reads the answer in Mi Información.
  await portal.reload();
  const answered = portal.getByRole('region', { name: 'Tus derechos sobre tus datos' }).getByRole('listitem').filter({ hasText: 'Atendida' });
  await expect(answered).toContainText('Respuesta del estudio: La usamos solo para felicitarte en tu cumpleaños.');
  await shoot(portal, 'portal-arco-answered', portal.getByRole('region', { name: 'Tus derechos sobre tus datos' }));

  const cancellation = page.getByTestId('privacy-request').filter({ hasText: 'Me cambio de ciudad' });
  await cancellation.getByRole('button', { name: 'Responder' }).click();
  await expect(dialog.getByTestId('privacy-anonymise-warning')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Respuesta para el cliente' }).fill('Listo: cerramos tu cuenta y borramos tus datos.');
  // A modal over the console: the screen as it is.
  await shoot(page, 'admin-arco-answer', undefined, { fullPage: false });
  await dialog.getByRole('button', { name: 'Guardar respuesta' }).click();
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Los datos del cliente se anonimizaron.' })).toBeVisible();
  await expect(page.getByText('No hay solicitudes pendientes.')).toBeVisible();
  await page.getByText('Todas', { exact: true }).click();
  await expect(page.getByTestId('privacy-request').filter({ hasText: 'Me cambio de ciudad' })).toContainText('Cliente anonimizado');

  // She can no longer sign in: her account is closed.
  const again = await request.post(`${serverUrl}/api/auth/login`, { data: { email, password } });
  expect(again.ok()).toBeFalsy();
  await portal.reload();
  await expect(portal.getByRole('region', { name: 'Tus derechos sobre tus datos' })).toHaveCount(0);
  await portal.close();
});

test("the owner imports customers from another system's CSV: sees each line's fate, maps a column by hand, then imports", async ({ page, request }) => {
  const stamp = Date.now();
  const csv =
    '\uFEFF' +
    [
      'Nombre;Apellidos;Correo electrónico;Cel;Fecha de nacimiento',
      `Ximena;Ortiz Salas;ximena.${stamp}@correo.mx;55 7100 0001;12/05/1994`,
      `Bruno;Díaz;bruno.${stamp}@correo.mx;123;34466`,
      // A formula where a surname goes (another system's file is not to be trusted): the results file keeps it text.
      `Ximena;=1+1;ximena.${stamp}@correo.mx;;`,
      'Mariana;Gómez;cliente@estudio.demo;;',
      ';Sin Nombre;sin.nombre@;;31/02/1994',
    ].join('\r\n');
  await adminDesk(page);
  await openSection(page, 'Importar clientes');
  const screen = page.getByTestId('customer-import');
  await screen.locator('input[type="file"]').setInputFiles({ name: 'clientes-mindbody.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  const counts = screen.getByTestId('customer-import-counts');
  await expect(counts).toHaveText('2 nuevas · 1 ya es cliente · 1 repetida en el archivo · 1 rechazada');
  await expect(screen.getByTestId('customer-import-line').filter({ hasText: 'Es la misma persona que la línea 2.' })).toBeVisible();
  await expect(screen.getByTestId('customer-import-line').filter({ hasText: 'Falta el nombre.' })).toContainText('La fecha de nacimiento «31/02/1994» no es una fecha que entendamos');
  // 'Cel' is nobody's usual name for the phone: the owner maps it, and Bruno's '123' is then refused.
  await screen.getByRole('combobox', { name: 'Teléfono' }).click();
  await page.getByRole('option', { name: 'Columna 4: Cel' }).click();
  await expect(counts).toHaveText('1 nueva · 1 ya es cliente · 1 repetida en el archivo · 2 rechazadas');
  await expect(screen.getByTestId('customer-import-line').filter({ hasText: 'El teléfono «123» no es un número de 10 dígitos de México.' })).toBeVisible();
  await shoot(page, 'admin-customer-import', screen);
  if (process.env.SHOTS_DIR) {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/admin-customer-import-1280x720.png` });
    await page.setViewportSize({ width: 1366, height: 900 });
  }
  await screen.getByRole('button', { name: 'Importar 1 cliente' }).click();
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Se importó 1 cliente.' })).toBeVisible();
  await expect(screen.getByRole('button', { name: 'Importar otro archivo' })).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download'), screen.getByRole('button', { name: 'Descargar resultados (CSV)' }).click()]);
  expect(download.suggestedFilename()).toBe('importacion-clientes-resultados.csv');
  const results = readFileSync(await download.path(), 'utf8');
  expect(results.startsWith('\uFEFFLínea,')).toBe(true);
  expect(results).toContain(`4,Repetida,Es la misma persona que la línea 2.,,Ximena,'=1+1,ximena.${stamp}@correo.mx,`);
  const token = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const found = await request.get(`${serverUrl}/api/customer/phone?phone=5571000001`, { headers: { authorization: `Bearer ${token}` } });
  expect(found.status()).toBe(200);
  expect(await found.text()).toContain(`ximena.${stamp}@correo.mx`);
});

test("the owner brings over her customers' classes left and next week's bookings: each line's fate, then imported", async ({ page, request }) => {
  const nextYear = new Date().getUTCFullYear() + 1;
  // A class of the demo schedule two days or more ahead with places, that Mariana has not booked, on the studio's clock.
  const mariana = await apiLogin(request, serverUrl, 'cliente@estudio.demo');
  const today = new Date().toISOString().slice(0, 10);
  const until = new Date(Date.now() + 12 * 86_400_000).toISOString().slice(0, 10);
  const schedule = await request.get(`${serverUrl}/api/single_class`, { params: { start_date: today, end_date: until }, headers: { authorization: `Bearer ${mariana}` } });
  const { single_classes } = (await schedule.json()) as { single_classes: { single_class_id: number; class_date: string; capacity: number; reservation_count: number; class_package_id: number | null; cancelledAt: string | null; class_reservations: unknown[]; waitlist_id: number | null; class_type: { name: string }; location: { name: string } }[] };
  const target = single_classes.find((c) => !c.cancelledAt && !c.class_package_id && !c.class_reservations.length && c.waitlist_id == null && c.reservation_count + 2 <= c.capacity && Date.parse(c.class_date) > Date.now() + 48 * 3_600_000);
  if (!target) throw new Error('the demo schedule has a class with places two days ahead');
  const studio = (iso: string) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-GB', { timeZone: 'America/Mexico_City', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
        .formatToParts(new Date(iso))
        .map((p) => [p.type, p.value]),
    );
    return { day: `${parts.day}/${parts.month}/${parts.year}`, time: `${parts.hour}:${parts.minute}` };
  };
  const when = studio(target.class_date);

  await adminDesk(page);
  await openSection(page, 'Importar clientes');
  const screen = page.getByTestId('customer-import');
  await screen.getByText('2. Créditos y membresías').click();
  await expect(screen.getByText('Importa primero el archivo de clientes', { exact: false })).toBeVisible();
  const credits = [
    'Client Email;Remaining;Expiration Date;Service Category',
    `cliente@estudio.demo;4;31/12/${nextYear};${target.class_type.name}`,
    `ilimitado@estudio.demo;Ilimitado;30/06/${nextYear};`,
    `nadie.${Date.now()}@correo.mx;3;31/12/${nextYear};`,
    'cliente@estudio.demo;2;01/01/2020;',
  ].join('\r\n');
  await screen.locator('input[type="file"]').setInputFiles({ name: 'creditos-mindbody.csv', mimeType: 'text/csv', buffer: Buffer.from(`\uFEFF${credits}`, 'utf8') });
  const counts = screen.getByTestId('customer-import-counts');
  await expect(counts).toHaveText('2 por dar · 0 ya importadas · 0 repetidas en el archivo · 2 rechazadas');
  await expect(screen.getByTestId('customer-import-line').filter({ hasText: `4 clases de ${target.class_type.name}, hasta el 31/12/${nextYear}` })).toBeVisible();
  await expect(screen.getByTestId('customer-import-line').filter({ hasText: 'Ya venció el 01/01/2020.' })).toBeVisible();
  await expect(screen.getByTestId('customer-import-line').filter({ hasText: 'importa primero el archivo de clientes' })).toBeVisible();
  await shoot(page, 'admin-import-credits', screen);
  if (process.env.SHOTS_DIR) {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.screenshot({ path: `${process.env.SHOTS_DIR}/admin-import-credits-1280x720.png` });
    await page.setViewportSize({ width: 1366, height: 900 });
  }
  await screen.getByRole('button', { name: 'Importar 2 saldos' }).click();
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Se importaron 2 saldos de clases.' })).toBeVisible();

  await screen.getByText('3. Reservaciones').click();
  const bookings = [
    'Correo,Fecha,Hora,Clase,Sucursal',
    `cliente@estudio.demo,${when.day},${when.time},${target.class_type.name},${target.location.name}`,
    `cliente@estudio.demo,${when.day},${when.time},${target.class_type.name},${target.location.name}`,
    `cliente@estudio.demo,${when.day},05:13,${target.class_type.name},`,
  ].join('\n');
  await screen.locator('input[type="file"]').setInputFiles({ name: 'reservaciones.csv', mimeType: 'text/csv', buffer: Buffer.from(bookings, 'utf8') });
  await expect(counts).toHaveText('1 por reservar · 0 ya reservadas · 1 repetida en el archivo · 1 rechazada');
  await expect(screen.getByTestId('customer-import-line').filter({ hasText: `No hay clase de ${target.class_type.name} el ${when.day} a las 05:13` })).toBeVisible();
  await shoot(page, 'admin-import-bookings', screen);
  await screen.getByRole('button', { name: 'Importar 1 reservación' }).click();
  await expect(page.locator('.mantine-Notification-root').filter({ hasText: 'Se importó 1 reservación.' })).toBeVisible();

  // Mariana finds the class among her bookings.
  const mine = await request.get(`${serverUrl}/api/class_reservations`, { headers: { authorization: `Bearer ${mariana}` } });
  expect(mine.ok()).toBeTruthy();
  expect(JSON.stringify(await mine.json())).toContain(`"single_class_id":${target.single_class_id}`);
});
