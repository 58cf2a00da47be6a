import { expect, test } from './fixtures.ts';
import { expectSignedIn, signIn } from './helpers.ts';
import { addDays, apiLogin, classesBetween, isFull, localDate, openClass, startsAfter, upcomingClasses, weekStart, type ScheduleClass } from './booking-helpers.ts';
import { patchPageConfig, writeConfig } from './content-helpers.ts';
import { shoot } from './shots.ts';

test('the calendar shows the week Monday to Sunday, the legend, the location filter and its links', async ({ page }) => {
  await signIn(page, 'cliente@estudio.demo');
  await expectSignedIn(page, /Mariana/);
  await expect(page.getByRole('heading', { name: 'Calendario', level: 1 })).toBeVisible();
  await expect(page.getByText('Reserva tus clases presenciales')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Mis Reservaciones' })).toHaveAttribute('href', '/mystudio/reservaciones');
  await expect(page.getByRole('link', { name: 'Listas de Espera' })).toHaveAttribute('href', '/mystudio/waitlists');
  await expect(page.getByRole('list', { name: 'Simbología' })).toContainText('DisponibleReservadaSin Lugares');

  await page.getByRole('button', { name: 'Semana siguiente' }).click();
  const days = page.getByRole('region', { name: /^(Lunes|Martes|Miércoles|Jueves|Viernes|Sábado|Domingo) \d+ de / });
  await expect(days).toHaveCount(7);
  await expect(days.first()).toHaveAccessibleName(/^Lunes/);
  await expect(days.last()).toHaveAccessibleName(/^Domingo/);

  // Two studios in the demo: the filter shows, and narrowing to one hides the other's classes.
  const filter = page.getByRole('combobox', { name: 'Estudio' });
  await expect(filter.locator('option:checked')).toHaveText('Todos los Estudios');
  await expect(page.locator('[data-class-id]', { hasText: 'Coyoacán' }).first()).toBeVisible();
  await filter.selectOption({ label: 'Roma Norte' });
  await expect(page).toHaveURL(/estudio=\d+/);
  await expect(page.locator('[data-class-id]', { hasText: 'Coyoacán' })).toHaveCount(0);
  await expect(page.locator('[data-class-id]', { hasText: 'Roma Norte' }).first()).toBeVisible();

  // Month navigation: the next month, then back to the current week.
  await page.getByRole('button', { name: 'Mes siguiente' }).click();
  await expect(page).toHaveURL(/mes=\d{4}-\d{2}/);
  await page.getByRole('button', { name: 'Hoy' }).click();
  await expect(page).not.toHaveURL(/semana=/);
  await expect(page.getByRole('button', { name: 'Semana anterior' })).toBeDisabled();
});

test('a week with no classes left says so', async ({ page }) => {
  await signIn(page, 'cliente@estudio.demo');
  await expectSignedIn(page, /Mariana/);
  // The seed's schedule ends two weeks ahead.
  const later = new Date(Date.now() + 35 * 86_400_000);
  await page.goto(`/mystudio?semana=${weekStart(later)}`);
  await expect(page.getByText('No hay clases programadas.')).toBeVisible();
});

test('the popup image shows once a day when configured', async ({ page }) => {
  // The demo studio has the popup off; the configuration answer turns it on for this page.
  await patchPageConfig(page, { popup_presencial_enabled: 'true', popup_presencial_src: '/demo/hero.jpg', popup_presencial_link: '/mystudio/paquetes' });
  await signIn(page, 'cliente@estudio.demo');
  await expectSignedIn(page, /Mariana/);
  const popup = page.getByRole('dialog').filter({ has: page.getByRole('img', { name: 'Aviso del estudio' }) });
  await expect(popup).toBeVisible();
  await expect(popup.getByRole('link')).toHaveAttribute('href', '/mystudio/paquetes');
  await popup.getByRole('button', { name: 'Cerrar' }).click();
  await expect(popup).toBeHidden();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Calendario', level: 1 })).toBeVisible();
  await page.waitForTimeout(500);
  await expect(page.getByRole('img', { name: 'Aviso del estudio' })).toHaveCount(0);
});

test('an unlimited member with an active penalty sees the penalty message and the resume date', async ({ page, request }) => {
  const token = await apiLogin(request, 'ilimitado@estudio.demo');
  const target = openClass(await upcomingClasses(request, token), 2);
  const endDate = new Date(Date.now() + 3 * 86_400_000).toISOString();
  // Sofía has no penalty in the seed: the answer of penalties.list gives her one (as after three no-shows in a row).
  await page.route('**/trpc/*penalties.list*', async (route) => {
    const answer = await route.fetch();
    const paths = new URL(route.request().url()).pathname.replace('/trpc/', '').split(',');
    const body = (await answer.json()) as { result: { data: unknown } }[];
    const index = paths.indexOf('penalties.list');
    body[index] = {
      result: {
        data: {
          class_reservation_penaltys: [
            { class_reservation_penalty_id: 999, customer_id: 0, start_date: new Date(Date.now() - 86_400_000).toISOString(), end_date: endDate, no_shows: 3, reason: null, createdAt: new Date().toISOString() },
          ],
        },
      },
    };
    await route.fulfill({ response: answer, json: body });
  });
  await signIn(page, 'ilimitado@estudio.demo');
  await expectSignedIn(page, /Sofía/);
  await page.goto(`/mystudio?semana=${weekStart(target.class_date)}`);
  await page.locator(`[data-class-id="${target.single_class_id}"]`).click();
  const modal = page.getByRole('dialog', { name: 'Penalización' });
  await expect(modal.getByText('Lo sentimos, no puedes reservar clases porque cuentas con una penalización.')).toBeVisible();
  await expect(modal.getByText(/^Acumulaste 3 inasistencias consecutivas con tu paquete ilimitado\. Podrás volver a reservar a partir del \d{2} \S+ \d{4}\.$/)).toBeVisible();
});

test.describe('the card tells the truth before the click', () => {
  for (const [width, height] of [[1366, 900], [390, 844]] as const) {
    test(`at ${width}×${height}: closed, not open yet, full without a waitlist, and a package's class`, async ({ page, request }) => {
      const token = await apiLogin(request, 'cliente@estudio.demo');
      const admin = await apiLogin(request, 'admin@estudio.demo');
      const classes = await upcomingClasses(request, token);
      const mineOrWaiting = (c: ScheduleClass) => c.class_reservations.length > 0 || c.waitlist_id != null;
      const soon = classes.find((c) => startsAfter(c, 1) && !startsAfter(c, 40) && !mineOrWaiting(c));
      const later = classes.find((c) => startsAfter(c, 8 * 24) && !mineOrWaiting(c));
      const full = classes.find((c) => isFull(c) && startsAfter(c, 1) && !mineOrWaiting(c) && !c.class_package_id);
      // The seed's special event is on the Saturday 8 to 14 days ahead (demo-studio.ts, eventDate): on a Saturday it is past the 13 days read above.
      const today = localDate(new Date());
      const fortnight = await classesBetween(request, today, addDays(today, 15), token);
      const special = fortnight.find((c) => c.class_package_id != null && startsAfter(c, 1));
      expect(soon && later && full && special, 'the demo schedule has a class in the next day, one after a week, a full one and a special one').toBeTruthy();
      if (!soon || !later || !full || !special) return;
      await page.setViewportSize({ width, height });
      await signIn(page, 'cliente@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);
      const card = (c: ScheduleClass) => page.locator(`[data-class-id="${c.single_class_id}"]`);

      // Booking closes 48 hours before a class and opens 7 days before it.
      await writeConfig(request, admin, { reservation_timeframe_hours: '48', reservation_opens_days: '7' });
      try {
        await page.goto(`/mystudio?semana=${weekStart(soon.class_date)}`);
        await expect(card(soon)).toHaveAttribute('data-state', 'too-late');
        await expect(card(soon)).toContainText('Reservas cerradas');
        await expect(card(soon)).not.toContainText(/Quedan? \d+ lugar/);
        await expect(page.getByRole('button').and(card(soon))).toHaveCount(0);
        await shoot(page, `calendar-closed-${width}`, card(soon), { fullPage: false });
        await page.setViewportSize({ width, height });
        await page.goto(`/mystudio?semana=${weekStart(later.class_date)}`);
        await expect(card(later)).toHaveAttribute('data-state', 'not-open');
        await expect(card(later)).toContainText(/Abre \d{2} \S+ \d{4} \d{2}:\d{2}/);
      } finally {
        await writeConfig(request, admin, { reservation_timeframe_hours: '0', reservation_opens_days: '0' });
      }

      await writeConfig(request, admin, { waitlist_enabled: 'false' });
      try {
        await page.goto(`/mystudio?semana=${weekStart(full.class_date)}`);
        await expect(card(full)).toHaveAttribute('data-state', 'full-closed');
        await expect(card(full)).toContainText('Sin Lugares');
        await expect(card(full)).toContainText('Sin lista de espera');
        await expect(page.getByRole('button').and(card(full))).toHaveCount(0);
      } finally {
        await writeConfig(request, admin, { waitlist_enabled: 'true' });
      }

      await page.goto(`/mystudio?semana=${weekStart(special.class_date)}`);
      await expect(page.getByRole('list', { name: 'Simbología' })).toContainText('Clase especial');
      await expect(card(special)).toHaveAttribute('data-state', 'special');
      await expect(card(special)).toContainText('Requiere su paquete');
      await shoot(page, `calendar-special-${width}`, card(special), { fullPage: false });
      await page.setViewportSize({ width, height });
      await card(special).click();
      const dialog = page.getByRole('dialog', { name: 'Clase especial' });
      await expect(dialog.getByText('Esta clase es exclusiva para quienes compraron su paquete especial.', { exact: false })).toBeVisible();
      await expect(dialog.getByRole('link', { name: 'Ver el paquete' })).toHaveAttribute('href', `/checkout/${special.class_package_id}`);
      await expect(page.getByRole('dialog', { name: 'Reservar Clase' })).toHaveCount(0);
      await shoot(page, `calendar-special-dialog-${width}`, dialog, { fullPage: false });
    });
  }
});
