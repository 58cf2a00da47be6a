import { expect, test, type APIRequestContext } from './fixtures.ts';
import { apiLogin, bearer, localDate, studioTimeZone } from './booking-helpers.ts';
import { signIn } from './helpers.ts';

/**
 * The QR 'Código de Acceso' leads to /admin/reservaciones/{id}: staff see the
 * reservation and check it in; a customer gets the not-found page and a
 * visitor is asked to sign in.
 */

/** 'HH:mm' on the studio's clock, `minutes` from now (kept within today). */
function localTimeIn(minutes: number): string {
  const at = new Date(Date.now() + minutes * 60_000);
  if (localDate(at) !== localDate(new Date())) return '23:59';
  return new Intl.DateTimeFormat('en-GB', { timeZone: studioTimeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(at);
}

interface Booked {
  id: number;
  className: string;
}

/** The admin creates a class later today and books cliente@estudio.demo into it (paid with one of her credits). */
async function bookTodayForCliente(request: APIRequestContext): Promise<Booked> {
  const admin = await apiLogin(request, 'admin@estudio.demo');
  const cliente = await apiLogin(request, 'cliente@estudio.demo');
  const me = (await (await request.get('/api/customer', { headers: bearer(cliente) })).json()) as { customer: { customer_id: number } };
  const types = (await (await request.get('/api/class_types')).json()) as { class_types: { class_type_id: number; name: string }[] };
  const locations = (await (await request.get('/api/locations')).json()) as { locations: { location_id: number }[] };
  const type = types.class_types.find((t) => t.name === 'Yoga') ?? types.class_types[0];
  if (!type || !locations.locations[0]) throw new Error('seed without class types or locations');
  const created = await request.post('/api/single_class', {
    headers: bearer(admin),
    data: {
      date: localDate(new Date()),
      time: localTimeIn(45),
      duration_minutes: 50,
      capacity: 8,
      location_id: locations.locations[0].location_id,
      class_type_id: type.class_type_id,
      description: 'Clase de prueba del código de acceso',
      // Wherever the clock puts it, a demo class may be there too: placed on purpose.
      allow_overlap: true,
    },
  });
  expect(created.ok()).toBeTruthy();
  const { single_class } = (await created.json()) as { single_class: { single_class_id: number } };
  const booked = await request.post('/api/class_reservations', {
    headers: bearer(admin),
    data: { single_class_id: single_class.single_class_id, customer_id: me.customer.customer_id },
  });
  expect(booked.ok()).toBeTruthy();
  const { class_reservation } = (await booked.json()) as { class_reservation: { class_reservation_id: number } };
  return { id: class_reservation.class_reservation_id, className: type.name };
}

test.describe('admin reservation link', () => {
  let booked: Booked;
  test.beforeAll(async ({ request }) => {
    booked = await bookTodayForCliente(request);
  });

  test('a visitor is asked to sign in', async ({ page }) => {
    await page.goto(`/admin/reservaciones/${booked.id}`);
    await expect(page.getByRole('heading', { name: 'Inicia sesión para ver esta reservación' })).toBeVisible();
    await page.getByRole('link', { name: 'Iniciar sesión' }).click();
    await expect(page).toHaveURL(/\/entrar$/);
  });

  test('a customer gets the not-found page, even for their own reservation', async ({ page }) => {
    await signIn(page, 'cliente@estudio.demo');
    await expect(page).toHaveURL(/\/mystudio$/);
    await page.goto(`/admin/reservaciones/${booked.id}`);
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Registrar asistencia' })).toHaveCount(0);
  });

  test('staff see the reservation and check it in once', async ({ page, request }) => {
    await signIn(page, 'recepcion@estudio.demo');
    await expect(page).toHaveURL(/\/mystudio$/);
    await page.goto(`/admin/reservaciones/${booked.id}`);
    const card = page.locator(`article[data-reservation-id="${booked.id}"]`);
    await expect(card.getByRole('heading', { name: `Reservación #${booked.id}` })).toBeVisible();
    await expect(card.getByText('cliente@estudio.demo', { exact: false })).toBeVisible();
    await expect(card.getByText(booked.className, { exact: true })).toBeVisible();
    await expect(card.getByText('Sin lugar asignado')).toBeVisible();
    await expect(card.getByText('Sin invitado')).toBeVisible();
    await expect(card.getByText('Pagada con crédito')).toBeVisible();
    await expect(card.getByTestId('attendance')).toHaveText('Sin registrar');

    await card.getByRole('button', { name: 'Registrar asistencia' }).click();
    await expect(page.getByText('Asistencia registrada')).toBeVisible();
    await expect(card.getByTestId('attendance')).toHaveText('Asistió');
    await expect(card.getByRole('button', { name: 'Registrar asistencia' })).toBeDisabled();

    const staff = await apiLogin(request, 'recepcion@estudio.demo');
    const answer = await request.get(`/api/class_reservations/single/${booked.id}`, { headers: bearer(staff) });
    expect(((await answer.json()) as { class_reservation: { attend: boolean } }).class_reservation.attend).toBe(true);
  });

  test('an unknown reservation is the not-found page for staff', async ({ page }) => {
    await signIn(page, 'admin@estudio.demo');
    await expect(page).toHaveURL(/\/mystudio$/);
    await page.goto('/admin/reservaciones/99999999');
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  });
});
