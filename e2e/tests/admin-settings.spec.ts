import { expect, test, type APIRequestContext } from './fixtures.ts';
import { apiLogin } from './desk-processes.ts';
import { adminStudio, openSection } from './admin-studio.ts';
import { shoot } from './shots.ts';

/**
 * Points 1 and 7, as the owner does them in the desk's admin
 * console (desk:web) against its own server, which serves a fresh build of
 * the portal: the studio's settings with a preview of the landing, refused
 * values said next to their field, and deletes that say beforehand why they
 * will not (or how they will) happen.
 */
const { serverUrl, adminDesk } = adminStudio('admin-settings', 62, { portal: true });

test.use({ baseURL: serverUrl });

async function storedConfig(request: APIRequestContext): Promise<Record<string, string>> {
  const answer = (await (await request.get(`${serverUrl}/api/appconfig`)).json()) as { config: { key: string; value: string }[] };
  return Object.fromEntries(answer.config.map((e) => [e.key, e.value]));
}

test('the owner edits the studio in Configuración, sees the landing change as they type, and a bad time zone is refused by its field with nothing lost', async ({ page, request, context }) => {
  await adminDesk(page);
  await openSection(page, 'Configuración');
  const settings = page.getByTestId('settings');
  const preview = page.getByTestId('landing-preview');
  await expect(settings.getByRole('tab')).toHaveText(['Marca', 'Reservas', 'Pagos', 'Facturación', 'Sitio', 'Notificaciones']);

  // Marca: the name in the preview follows the keyboard, before anything is saved.
  await expect(preview.getByTestId('preview-name')).toHaveText('Estudio Demo');
  await page.getByTestId('setting-business_name').fill('Estudio Luna');
  await expect(preview.getByTestId('preview-name')).toHaveText('Estudio Luna');
  await expect(page.getByTestId('settings-changes')).toHaveText('1 cambio sin guardar.');

  // Sitio: the banner's text, Misión off, Paquetes first.
  await page.getByTestId('settings-tab-sitio').click();
  await page.getByTestId('setting-banner_text').fill('Clases de Barre al aire libre este domingo');
  await expect(preview.getByTestId('preview-banner')).toHaveText('Clases de Barre al aire libre este domingo');
  await expect(preview.locator('[data-preview-section="mission"]')).toHaveCount(1);
  await page.getByRole('switch', { name: 'Sección Misión' }).click({ force: true });
  await expect(preview.locator('[data-preview-section="mission"]')).toHaveCount(0);
  await page.getByTestId('setting-hero_order').fill('10');
  await page.getByTestId('setting-packages_order').fill('1');
  await expect(preview.locator('[data-preview-section]').first()).toHaveAttribute('data-preview-section', 'packages');
  await shoot(page, 'admin-settings-sitio', preview);

  // Reservas: a zone that does not exist. The server refuses it under its field; nothing of the change is stored.
  await page.getByTestId('settings-tab-reservas').click();
  await page.getByTestId('setting-timezone').fill('Mars/Olympus');
  await page.getByTestId('settings-save').click();
  const zone = page.getByTestId('setting-timezone');
  await expect(page.getByText('El valor de «Zona horaria» no es válido: debe ser una zona horaria válida, por ejemplo America/Mexico_City.')).toBeVisible();
  await expect(zone).toHaveAttribute('aria-invalid', 'true');
  await shoot(page, 'admin-settings-refused', zone);
  let stored = await storedConfig(request);
  expect(stored.timezone).toBe('America/Mexico_City');
  expect(stored.business_name).toBe('Estudio Demo');
  expect(stored.banner_text).not.toBe('Clases de Barre al aire libre este domingo');

  // What was typed elsewhere is still there.
  await page.getByTestId('settings-tab-marca').click();
  await expect(page.getByTestId('setting-business_name')).toHaveValue('Estudio Luna');
  await page.getByTestId('settings-tab-reservas').click();
  await page.getByTestId('setting-timezone').fill('America/Tijuana');
  await page.getByTestId('settings-save').click();
  await expect(page.getByText('Configuración guardada.')).toBeVisible();
  // The offset is kept in step with the zone (decision 030) and the form shows the value as stored.
  await expect(page.getByTestId('setting-timezone_offset')).toHaveValue('8');
  await expect(page.getByTestId('settings-changes')).toHaveText('Sin cambios por guardar.');
  stored = await storedConfig(request);
  expect(stored).toMatchObject({ timezone: 'America/Tijuana', timezone_offset: '8', business_name: 'Estudio Luna', mission_enabled: 'false', hero_order: '10', packages_order: '1' });

  // The customers' landing shows it.
  const portal = await context.newPage();
  await portal.goto(`${serverUrl}/`);
  await expect(portal.locator('[data-section]').first()).toHaveAttribute('data-section', 'packages');
  await expect(portal.locator('[data-section="mission"]')).toHaveCount(0);
  expect(stored.banner_text).toBe('Clases de Barre al aire libre este domingo');
  await portal.close();

  // Pagos: only the public halves of the payment keys; secrets are the server's and never reach the console.
  await page.getByTestId('settings-tab-pagos').click();
  await expect(page.getByTestId('setting-stripe_public')).toBeVisible();
  await expect(page.getByText('Las llaves secretas se configuran en el servidor')).toBeVisible();
  await expect(page.getByTestId('bank-transfer-settings')).toBeVisible();
  expect(Object.keys(stored).filter((key) => /secret|token|password$/i.test(key))).toEqual([]);
  await shoot(page, 'admin-settings-pagos', page.getByTestId('setting-stripe_public'));

  // Notificaciones: the Mensajes screen's own panels, not a copy.
  await page.getByTestId('settings-tab-notificaciones').click();
  await expect(page.getByTestId('sending-settings')).toBeVisible();
  await expect(page.getByTestId('automatic-notices')).toBeVisible();
});

test("deletes say beforehand what they will do: the terms page and a category in use are refused with why, an active coach too, and a coach without classes goes", async ({ page, request }) => {
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const auth = { Authorization: `Bearer ${admin}` };
  await adminDesk(page);

  // Términos y condiciones: required and accepted; the dialog says so and offers no Eliminar.
  await openSection(page, 'Páginas');
  await page.getByRole('button', { name: 'Eliminar Términos y condiciones' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('removal-verdict')).toContainText(/No puedes eliminar esta página: es obligatoria y \d+ clientes? la acept/);
  await expect(dialog.getByTestId('confirm-button')).toHaveCount(0);
  await shoot(page, 'admin-delete-terms-refused', dialog);
  await dialog.getByRole('button', { name: 'Cerrar' }).click();
  const pages = (await (await request.get(`${serverUrl}/api/pages`)).json()) as { pages: { title: string }[] };
  expect(pages.pages.map((p) => p.title)).toContain('Términos y condiciones');

  // A category with class types: refused with how many.
  const categories = (await (await request.get(`${serverUrl}/api/class_categories`, { headers: auth })).json()) as { class_categories: { class_category_id: number; name: string }[] };
  let used: { name: string; message: string } | null = null;
  for (const c of categories.class_categories) {
    const verdict = (await (await request.get(`${serverUrl}/api/class_categories/${c.class_category_id}/removal`, { headers: auth })).json()) as { outcome: string; message: string };
    if (verdict.outcome === 'refuse') {
      used = { name: c.name, message: verdict.message };
      break;
    }
  }
  expect(used, 'the demo seed has a category in use').not.toBeNull();
  await openSection(page, 'Categorías');
  await page.getByRole('button', { name: `Eliminar ${used!.name}`, exact: true }).click();
  await expect(dialog.getByTestId('removal-verdict')).toHaveText(used!.message);
  await expect(dialog.getByTestId('removal-verdict')).toContainText(/\d+ tipos? de clase/);
  await expect(dialog.getByTestId('confirm-button')).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Cerrar' }).click();

  // A coach with classes to come: refused, and told how to take them off the site instead.
  await openSection(page, 'Coaches');
  const coaches = (await (await request.get(`${serverUrl}/api/instructors`, { headers: auth })).json()) as { instructors: { instructor_id: number; name: string; last_name: string }[] };
  let active: { name: string } | null = null;
  for (const c of coaches.instructors) {
    const verdict = (await (await request.get(`${serverUrl}/api/instructors/${c.instructor_id}/removal`, { headers: auth })).json()) as { outcome: string };
    if (verdict.outcome === 'refuse') {
      active = { name: `${c.name} ${c.last_name}` };
      break;
    }
  }
  expect(active, 'the demo seed has a coach with classes to come').not.toBeNull();
  await page.getByRole('button', { name: `Eliminar ${active!.name}`, exact: true }).click();
  await expect(dialog.getByTestId('removal-verdict')).toContainText(/tiene \d+ clases? programadas?.*desmarca «Disponible»/);
  await expect(dialog.getByTestId('confirm-button')).toHaveCount(0);
  await shoot(page, 'admin-delete-coach-refused', dialog);
  await dialog.getByRole('button', { name: 'Cerrar' }).click();

  // A coach without classes: the dialog says so and the delete goes through.
  await page.getByTestId('instructors-new').click();
  const form = page.getByTestId('instructors-form');
  await form.getByLabel('Nombre').fill('Coach');
  await form.getByLabel('Apellido').fill('Sin Clases');
  await page.getByTestId('instructors-save').click();
  await expect(form).toBeHidden();
  await page.getByRole('button', { name: 'Eliminar Coach Sin Clases', exact: true }).click();
  await expect(dialog.getByTestId('removal-verdict')).toHaveText('Se eliminará al coach; no tiene clases.');
  await dialog.getByTestId('confirm-button').click();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('instructors-row').filter({ hasText: 'Sin Clases' })).toHaveCount(0);
  await expect(page.getByTestId('instructors-row').filter({ hasText: active!.name })).toHaveCount(1);
});
