import { expect, test } from './fixtures.ts';
import { apiLogin } from './desk-processes.ts';
import { adminStudio, openSection } from './admin-studio.ts';
import { shoot } from './shots.ts';

/**
 * Points 5 and 6, as the owner uses the desk's admin console
 * (desk:web in Chromium): Recepción gives a class on another desk (an API
 * call with her account) and the owner's Actividad shows it, with her name,
 * the customer and the reason, without reloading (the list asks the server
 * every 5 s and on focus, decision 037); the customer's card shows it too;
 * promoting someone to Administrador asks first and is logged.
 */
const { serverUrl, adminDesk } = adminStudio('admin-activity', 64);

test('Actividad shows what Recepción just did on another desk, without reloading, and on the customer’s card', async ({ page, request }) => {
  await adminDesk(page);
  await openSection(page, 'Actividad');
  const screen = page.getByTestId('admin-activity');
  await expect(screen.getByText('Lo que hizo el personal')).toBeVisible();

  // Another desk: Recepción gives Mariana a class, with a reason; a gift over her limit is refused.
  const recepcion = await apiLogin(request, serverUrl, 'recepcion@estudio.demo');
  const auth = { Authorization: `Bearer ${recepcion}` };
  const who = await marianaId(request);
  const packages = (await (await request.get(`${serverUrl}/api/class_packages`)).json()) as { class_packages?: { class_package_id: number; title: string }[] };
  const list = packages.class_packages ?? [];
  const one = list.find((p) => p.title === '1 Clase')!.class_package_id;
  const unlimited = list.find((p) => p.title === 'Ilimitado Mensual')!.class_package_id;
  const refused = await request.post(`${serverUrl}/api/customer/giveAccess`, { headers: auth, data: { customer_id: who, class_package_id: unlimited, is_gift: true, reason: 'Es amiga' } });
  expect(refused.status()).toBe(403);
  const given = await request.post(`${serverUrl}/api/customer/giveAccess`, { headers: auth, data: { customer_id: who, class_package_id: one, is_gift: true, reason: 'Se canceló su clase del martes' } });
  expect(given.ok(), await given.text()).toBeTruthy();

  // No reload: the open list shows it within a refresh.
  const sentence = 'Andrea Torres (recepcion@estudio.demo) regaló 1 Clase a Mariana López — motivo: Se canceló su clase del martes.';
  await expect(screen.getByTestId('activity-text').first()).toHaveText(sentence, { timeout: 15_000 });
  await expect(screen).not.toContainText('access.gift');

  // Filtered by kind and by staff member.
  await screen.getByTestId('activity-kind').click();
  await page.getByRole('option', { name: 'Regalos de acceso' }).click();
  await expect(screen.getByTestId('activity-entry')).toHaveCount(1);
  await screen.getByTestId('activity-staff').click();
  await page.getByRole('option', { name: /Carlos Méndez/ }).click();
  await expect(screen.getByTestId('activity-empty')).toBeVisible();
  await screen.getByTestId('activity-staff').click();
  await page.getByRole('option', { name: /Andrea Torres/ }).click();
  await expect(screen.getByTestId('activity-entry')).toHaveCount(1);
  await shoot(page, 'admin-activity', screen);

  // Her card in Clientes has the same line.
  await openSection(page, 'Clientes');
  await page.getByTestId('admin-search').fill('cliente@estudio.demo');
  await page.getByTestId('admin-customer-row').filter({ hasText: 'Mariana' }).first().click();
  const card = page.getByTestId('customer-activity');
  await expect(card.getByTestId('activity-text').first()).toHaveText(sentence, { timeout: 15_000 });
  await shoot(page, 'admin-activity-customer', card);
});

test('promoting Diego to Administrador asks first, and the change is in Actividad', async ({ page }) => {
  await adminDesk(page);
  await openSection(page, 'Clientes');
  await page.getByTestId('admin-search').fill('nuevo@estudio.demo');
  await page.getByTestId('admin-customer-row').filter({ hasText: 'Diego' }).first().click();
  const edit = page.getByTestId('admin-customer-edit');
  await edit.getByLabel('Rol').click();
  await page.getByRole('option', { name: 'Administrador' }).click();
  await edit.getByRole('button', { name: 'Guardar' }).click();
  const ask = page.getByRole('dialog', { name: '¿Hacer Administrador?' });
  await expect(ask).toContainText('Diego Hernández podrá ver y cambiar todo');
  await shoot(page, 'admin-activity-promote', ask, { fullPage: false });
  await ask.getByRole('button', { name: 'Cancelar' }).click();
  await expect(ask).toHaveCount(0);
  await edit.getByRole('button', { name: 'Guardar' }).click();
  await page.getByTestId('confirm-promotion').click();
  await expect(page.getByTestId('customer-activity').getByTestId('activity-text').first()).toHaveText(
    'Carlos Méndez (admin@estudio.demo) cambió el rol de Diego Hernández de Cliente a Administrador.',
    { timeout: 15_000 },
  );
});

test('at the desk, Restar clases asks why; the reason is in Actividad with who did it', async ({ page }) => {
  await adminDesk(page);
  await openSection(page, 'Recepción');
  await page.getByRole('tab', { name: 'Clientes' }).click();
  await page.getByTestId('customer-search').fill('cliente@');
  await page.getByTestId('customer-hit').filter({ hasText: 'cliente@estudio.demo' }).click();
  await page.getByRole('button', { name: 'Restar clases' }).first().click();
  const dialog = page.getByRole('dialog', { name: /Restar clases/ });
  await dialog.getByRole('button', { name: 'Restar clases' }).click();
  await expect(dialog.getByText('Escribe el motivo (al menos 3 letras).')).toBeVisible();
  await shoot(page, 'admin-activity-desk-reason', dialog, { fullPage: false });
  await dialog.getByTestId('action-reason').fill('Se le cargó una clase dos veces');
  await dialog.getByRole('button', { name: 'Restar clases' }).click();
  await expect(dialog).toHaveCount(0);
  // Sent through the desk's sync; the card's Actividad tab reads it back from the server.
  await page.getByTestId('card-activity-tab').click();
  await expect(page.getByTestId('customer-activity').getByTestId('activity-text').first()).toHaveText(
    'Carlos Méndez (admin@estudio.demo) restó 1 clase a Mariana López — motivo: Se le cargó una clase dos veces.',
    { timeout: 20_000 },
  );
  await shoot(page, 'admin-activity-desk-card', page.getByTestId('customer-activity'));
});

async function marianaId(request: import('@playwright/test').APIRequestContext): Promise<number> {
  const admin = await apiLogin(request, serverUrl, 'admin@estudio.demo');
  const res = await request.get(`${serverUrl}/api/customer/query`, { params: { query: 'cliente@estudio.demo' }, headers: { Authorization: `Bearer ${admin}` } });
  return ((await res.json()) as { customers: { customer_id: number }[] }).customers[0]!.customer_id;
}
