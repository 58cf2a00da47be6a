import { expect, test } from './fixtures.ts';
import { expectSignedIn, signIn } from './helpers.ts';
import { apiLogin, bearer, isFull, openClass, startsAfter, upcomingClasses, weekStart } from './booking-helpers.ts';
import { shoot } from './shots.ts';

test.describe('Reservar', () => {
  test('cliente@ books an Indoor Cycling seat, sees it as Próxima, cancels it and gets the credit back', async ({ page, request }) => {
    const token = await apiLogin(request, 'cliente@estudio.demo');
    // More than a day ahead: cancelling stays inside the 12-hour rule, so the credit comes back.
    const target = openClass(await upcomingClasses(request, token), 24, (c) => c.class_type.spot_map === '4,6,6' && c.taken_spots.length < 16);
    const seat = Array.from({ length: 16 }, (_, i) => i + 1).find((n) => !target.taken_spots.includes(n)) as number;

    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await page.goto('/mystudio/reservaciones');
    const credits = page.getByTestId('credits-available');
    await expect(credits).toHaveText(/^\d+$/);
    const before = Number(await credits.textContent());

    await page.goto(`/mystudio?semana=${weekStart(target.class_date)}`);
    const card = page.locator(`[data-class-id="${target.single_class_id}"]`);
    await expect(card).toHaveAttribute('data-state', 'available');
    await card.click();

    const modal = page.getByRole('dialog', { name: 'Reservar Clase' });
    await expect(modal).toBeVisible();
    await expect(modal.getByText('Indoor Cycling', { exact: true })).toBeVisible();
    // '4,6,6': 16 seats numbered from the back row, the coach at the bottom.
    await expect(modal.getByRole('button', { name: /^Lugar \d+$/ })).toHaveCount(16);
    await expect(modal.getByText('Coach', { exact: true })).toBeVisible();
    for (const taken of target.taken_spots) await expect(modal.getByRole('button', { name: `Lugar ${taken}`, exact: true })).toBeDisabled();

    await modal.getByRole('button', { name: 'Reservar', exact: true }).click();
    await expect(modal.getByText('Elige un lugar para reservar.')).toBeVisible();
    await modal.getByRole('button', { name: `Lugar ${seat}`, exact: true }).click();
    await expect(modal.getByRole('button', { name: `Lugar ${seat}`, exact: true })).toHaveAttribute('aria-pressed', 'true');
    await modal.getByRole('button', { name: 'Reservar', exact: true }).click();
    await expect(page.getByText('¡Reservación guardada con éxito!')).toBeVisible();
    await expect(modal).toBeHidden();
    await expect(card).toHaveAttribute('data-state', 'reserved');
    await expect(card).toContainText(`Lugar ${seat}`);

    const mine = await request.get('/api/class_reservations/mine', { params: { filter: 'upcoming' }, headers: bearer(token) });
    const { class_reservations } = (await mine.json()) as { class_reservations: { class_reservation_id: number; single_class_id: number }[] };
    const reservation = class_reservations.find((r) => r.single_class_id === target.single_class_id);
    expect(reservation).toBeDefined();

    await page.getByRole('link', { name: 'Mis Reservaciones' }).first().click();
    await expect(page.getByRole('heading', { name: 'Mis Reservaciones' })).toBeVisible();
    const row = page.locator(`[data-reservation-id="${reservation?.class_reservation_id}"]`);
    await expect(row).toContainText('Indoor Cycling');
    await expect(row).toContainText('Próxima');
    await expect(row.getByRole('cell', { name: String(seat), exact: true })).toBeVisible();
    await expect(credits).toHaveText(String(before - 1));

    await row.getByRole('button', { name: 'Cancelar', exact: true }).click();
    const confirm = page.getByRole('dialog', { name: 'Cancelar Clase' });
    await expect(confirm.getByText('Solo puedes cancelar clases con 12 horas de anticipacion')).toBeVisible();
    await expect(confirm.getByText(/no se te regresará/)).toHaveCount(0);
    await confirm.getByRole('button', { name: 'Cancelar Clase' }).click();
    await expect(page.getByText('Reservación cancelada.')).toBeVisible();
    await expect(credits).toHaveText(String(before));
    await expect(row).toContainText('Cancelada');
    await expect(row.getByRole('button', { name: 'Cancelar', exact: true })).toHaveCount(0);
  });

  test('a full class offers the waitlist: join it, see it in the waitlists, leave it', async ({ page, request }) => {
    const token = await apiLogin(request, 'cliente@estudio.demo');
    const full = (await upcomingClasses(request, token)).find((c) => isFull(c) && startsAfter(c, 1) && c.class_reservations.length === 0 && c.waitlist_id == null);
    expect(full, 'the seed sells out a class in the next two weeks').toBeDefined();
    if (!full) return;

    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await page.goto(`/mystudio?semana=${weekStart(full.class_date)}`);
    const card = page.locator(`[data-class-id="${full.single_class_id}"]`);
    await expect(card).toHaveAttribute('data-state', 'full');
    await expect(card).toContainText('Sin Lugares');
    await card.click();

    const modal = page.getByRole('dialog', { name: 'Lista de Espera' });
    await expect(modal).toBeVisible();
    // Exact: the dialog's description may name the discipline too.
    await expect(modal.getByText(full.class_type.name, { exact: true })).toBeVisible();
    await modal.getByRole('button', { name: 'Anotarme' }).click();
    await expect(page.getByText('Anotada en lista de espera.')).toBeVisible();
    await expect(card).toHaveAttribute('data-state', 'waitlist');
    await expect(card).toContainText('Lista de Espera');

    await page.getByRole('link', { name: 'Listas de Espera' }).click();
    await expect(page).toHaveURL(/\/mystudio\/waitlists$/);
    await expect(page.getByRole('heading', { name: 'Mis Listas de Espera' })).toBeVisible();
    const entry = page.getByRole('article').filter({ hasText: full.class_type.name });
    await expect(entry).toHaveCount(1);
    await entry.getByRole('button', { name: 'Salir de la lista' }).click();
    await expect(page.getByText('Eliminada de lista de espera.')).toBeVisible();
    await expect(page.getByText('No te has anotado a ninguna lista de espera.')).toBeVisible();
  });

  test('a 412 on save shows the server message and the schedule reloads', async ({ page, request }) => {
    const token = await apiLogin(request, 'ilimitado@estudio.demo');
    const target = openClass(await upcomingClasses(request, token), 2, (c) => c.class_type.spot_map === null);
    // Someone took the last place a moment earlier: the server refuses, with its own message.
    await page.route('**/trpc/reservations.create*', (route) =>
      route.fulfill({
        status: 412,
        json: [
          {
            error: {
              message: 'Lo sentimos, esta clase ya está llena.',
              code: -32012,
              data: { code: 'PRECONDITION_FAILED', httpStatus: 412, path: 'reservations.create', domainCode: 'booking/class-full' },
            },
          },
        ],
      }),
    );
    await signIn(page, 'ilimitado@estudio.demo');
    await expectSignedIn(page, /Sofía/);
    await page.goto(`/mystudio?semana=${weekStart(target.class_date)}`);
    await page.locator(`[data-class-id="${target.single_class_id}"]`).click();
    const modal = page.getByRole('dialog', { name: 'Reservar Clase' });
    const reload = page.waitForRequest((req) => req.url().includes('schedule.list'));
    await modal.getByRole('button', { name: 'Reservar', exact: true }).click();
    await expect(page.getByText('Lo sentimos, esta clase ya está llena.')).toBeVisible();
    await reload;
    await expect(modal).toBeHidden();
  });

  test('a visitor on /calendario who picks a class signs in from the modal and the booking modal opens', async ({ page, request }) => {
    const token = await apiLogin(request, 'ilimitado@estudio.demo');
    const target = openClass(await upcomingClasses(request, token), 2, (c) => c.class_type.spot_map === null);

    await page.goto(`/calendario?semana=${weekStart(target.class_date)}`);
    await expect(page.getByRole('heading', { name: 'Horarios' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Ingresar' })).toBeVisible();
    await page.locator(`[data-class-id="${target.single_class_id}"]`).click();

    const login = page.getByRole('dialog', { name: 'Inicia sesión para reservar' });
    await expect(login).toBeVisible();
    await expect(login.getByRole('link', { name: 'Crea tu cuenta' })).toHaveAttribute('href', '/registro');
    await login.getByLabel('Correo electrónico').fill('ilimitado@estudio.demo');
    await login.getByLabel('Contraseña', { exact: true }).fill('Demo1234!');
    await login.getByRole('button', { name: 'Entrar', exact: true }).click();
    await expect(login).toBeHidden();

    const booking = page.getByRole('dialog', { name: 'Reservar Clase' });
    await expect(booking).toBeVisible();
    await expect(booking.getByText(target.class_type.name, { exact: true })).toBeVisible();
    await expect(booking.getByRole('checkbox', { name: 'Llevar un invitado' })).toBeVisible();
    await expect(page).toHaveURL(/\/calendario\?semana=/);
    await expect(page.getByRole('link', { name: 'Mi Cuenta' })).toBeVisible();

    // The guest name needs two characters (spec §5); closing books nothing.
    await booking.getByRole('checkbox', { name: 'Llevar un invitado' }).check();
    await booking.getByLabel('Nombre de tu invitado').fill('A');
    await booking.getByRole('button', { name: 'Reservar', exact: true }).click();
    await expect(booking.getByText('Debes ingresar un nombre para tu invitado')).toBeVisible();
    await booking.getByRole('button', { name: 'Cerrar' }).click();
    await expect(booking).toBeHidden();
  });
});

test.describe('Invitados', () => {
  for (const [width, height] of [[1366, 900], [390, 844]] as const) {
    test(`at ${width}×${height}, cliente@ brings a guest to Indoor Cycling: two seats, two credits, both back when the desk cancels`, async ({ page, request }) => {
      const token = await apiLogin(request, 'cliente@estudio.demo');
      const target = openClass(await upcomingClasses(request, token), 24, (c) => c.class_type.spot_map === '4,6,6' && c.taken_spots.length < 14 && c.reservation_count + 2 <= c.capacity);
      const [mySeat, guestSeat] = Array.from({ length: 16 }, (_, i) => i + 1).filter((n) => !target.taken_spots.includes(n));
      await page.setViewportSize({ width, height });
      await signIn(page, 'cliente@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);
      await page.goto('/mystudio/reservaciones');
      const credits = page.getByTestId('credits-available');
      await expect(credits).toHaveText(/^\d+$/);
      const before = Number(await credits.textContent());

      await page.goto(`/mystudio?semana=${weekStart(target.class_date)}`);
      const card = page.locator(`[data-class-id="${target.single_class_id}"]`);
      await card.click();
      const modal = page.getByRole('dialog', { name: 'Reservar Clase' });
      await modal.getByRole('checkbox', { name: 'Llevar un invitado' }).check();
      await expect(modal.getByText('Tu invitado ocupa un lugar en la clase y usa un crédito más de tu cuenta.')).toBeVisible();
      await modal.getByLabel('Nombre de tu invitado').fill('Laura Medina');
      await modal.getByRole('button', { name: `Lugar ${mySeat}`, exact: true }).click();
      // Her seat chosen, the map asks for the guest's.
      await modal.getByRole('button', { name: 'Reservar', exact: true }).click();
      await expect(modal.getByText('Elige también un lugar para tu invitado.')).toBeVisible();
      await modal.getByRole('button', { name: `Lugar ${guestSeat}`, exact: true }).click();
      await expect(modal.getByRole('button', { name: `Lugar ${guestSeat} (invitado)` })).toHaveAttribute('aria-pressed', 'true');
      await shoot(page, `booking-guest-seat-${width}`, modal, { fullPage: false });
      await page.setViewportSize({ width, height });
      await modal.getByRole('button', { name: 'Reservar', exact: true }).click();
      await expect(page.getByText('¡Reservación guardada con éxito!')).toBeVisible();
      await expect(card).toHaveAttribute('data-state', 'reserved');

      const seen = (await upcomingClasses(request, token)).find((c) => c.single_class_id === target.single_class_id);
      expect(seen?.taken_spots).toEqual(expect.arrayContaining([mySeat, guestSeat]));
      const reservationId = seen?.class_reservations[0]?.class_reservation_id;
      try {
        await page.goto('/mystudio/reservaciones');
        await expect(credits).toHaveText(String(before - 2));
        await expect(page.locator(`[data-reservation-id="${reservationId}"]`)).toContainText(`${mySeat} y ${guestSeat} (invitado)`);
      } finally {
        // The desk cancels: both credits come back and none of her cancellations is used.
        const recepcion = await apiLogin(request, 'recepcion@estudio.demo');
        const removed = await request.delete(`/api/class_reservations/${reservationId}`, { headers: bearer(recepcion) });
        expect(removed.ok(), await removed.text()).toBeTruthy();
      }
      await page.reload();
      await expect(credits).toHaveText(String(before));
    });
  }
});

test.describe('Cuenta nueva', () => {
  const nuevoProfile = { phone: '5512340099', birthdate: '1996-05-14' };

  test('nuevo@ meets Completar Información, then the exhausted-credits modal and the empty reservations', async ({ page, request }) => {
    await signIn(page, 'nuevo@estudio.demo');
    await expectSignedIn(page, /Diego/);
    const terms = page.getByRole('dialog', { name: 'Términos y condiciones' });
    const complete = page.getByRole('dialog', { name: 'Completar Información' });
    await expect(terms.or(complete)).toBeVisible();
    if (await terms.isVisible()) {
      await terms.getByRole('checkbox', { name: /^Acepto / }).check();
      await terms.getByRole('button', { name: 'Aceptar' }).click();
      const notice = page.getByRole('dialog', { name: 'Aviso de privacidad' });
      await expect(notice).toBeVisible();
      await notice.getByRole('checkbox', { name: 'Acepto Aviso de privacidad' }).check();
      await notice.getByRole('button', { name: 'Aceptar' }).click();
    }
    await expect(complete).toBeVisible();
    await expect(complete.getByText('Debes completar tu información personal antes de reservar clases.')).toBeVisible();

    // The profile screen belongs to another issue: the customer completes the profile through the API.
    const token = await apiLogin(request, 'nuevo@estudio.demo');
    const saved = await request.put('/api/customer', { headers: bearer(token), data: nuevoProfile });
    expect(saved.ok()).toBeTruthy();
    try {
      const target = openClass(await upcomingClasses(request, token), 2);
      await page.goto(`/mystudio?semana=${weekStart(target.class_date)}`);
      await expect(page.getByRole('heading', { name: 'Calendario' })).toBeVisible();
      // With the profile complete the same modal asks the studio's first-class questions (decision 087); left empty, they are asked.
      await expect(complete.getByLabel('Contacto de emergencia (nombre y teléfono) (Opcional)')).toBeVisible();
      await complete.getByRole('button', { name: 'Completar Información' }).click();
      await expect(complete).toHaveCount(0);
      await page.locator(`[data-class-id="${target.single_class_id}"]`).click();

      const noCredits = page.getByRole('dialog', { name: 'Sin créditos' });
      await expect(noCredits.getByText('Lo sentimos. Has agotado todos tus créditos para reservar Clases Presenciales...')).toBeVisible();
      await expect(noCredits.getByRole('link', { name: 'Ver Paquetes' })).toHaveAttribute('href', '/mystudio/paquetes');
      await noCredits.getByRole('button', { name: 'Cerrar' }).click();

      await page.goto('/mystudio/reservaciones');
      await expect(page.getByText('Aún no has reservado clases')).toBeVisible();
      await expect(page.getByTestId('credits-available')).toHaveText('0');
      await page.getByRole('link', { name: 'Ir a Reservar' }).click();
      await expect(page).toHaveURL(/\/mystudio$/);
    } finally {
      // Back to the seeded, incomplete profile.
      await request.put('/api/customer', { headers: bearer(token), data: { phone: '', birthdate: null } });
    }
  });
});
