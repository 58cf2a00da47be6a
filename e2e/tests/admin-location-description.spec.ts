import { expect, test } from './fixtures.ts';
import { adminStudio } from './admin-studio.ts';
import { shoot } from './shots.ts';

/**
 * Decision 040: a location has a description (the previous panel's field, now
 * the product's). The owner writes it in the console's Ubicaciones form, finds
 * it there when the form is opened again, and the API answers it as stored.
 */
const { serverUrl, adminDesk } = adminStudio('admin-location-description', 68);

test('the owner describes a location in its form, and the description is stored and shown again', async ({ page, request }) => {
  const name = `Sucursal Descrita ${Date.now() % 100000}`;
  const description = 'Planta alta, junto al elevador. Estacionamiento gratis dos horas.';
  await adminDesk(page);
  await page.getByTestId('admin-nav').getByRole('button', { name: 'Ubicaciones', exact: true }).click();
  await page.getByTestId('locations-new').click();
  const form = page.getByTestId('locations-form');
  await form.getByLabel('Nombre').fill(name);
  await form.getByLabel('Descripción').fill(description);
  await form.getByLabel('Dirección').fill('Av. Reforma 100, CDMX');
  await shoot(page, 'location-description-form', form);
  await page.getByTestId('locations-save').click();
  await expect(form).toBeHidden();

  const row = page.getByTestId('locations-row').filter({ hasText: name });
  await expect(row).toHaveCount(1);
  await row.getByRole('button', { name: new RegExp(`^Editar ${name}`) }).click();
  await expect(page.getByTestId('locations-form').getByLabel('Descripción')).toHaveValue(description);

  const { locations } = (await (await request.get(`${serverUrl}/api/locations`)).json()) as { locations: { location_id: number; name: string }[] };
  const id = locations.find((l) => l.name === name)?.location_id;
  const stored = (await (await request.get(`${serverUrl}/api/locations/${id}`)).json()) as { location: { description: string } };
  expect(stored.location.description).toBe(description);
});
