import { expect, test, type APIRequestContext } from './fixtures.ts';
import { expectNoAxeViolations } from './axe.ts';
import { apiLogin, bearer, upcomingClasses, weekStart, type ScheduleClass } from './booking-helpers.ts';
import { demoPassword, expectSignedIn, signIn } from './helpers.ts';
import { shoot } from './shots.ts';

/**
 * "Reservar cada semana" (decision 105): a customer keeps her place in the
 * same class every week from the booking dialog, sees in Mis Reservaciones
 * what each week came to, and stops it there; the bookings already made stay.
 * A customer of her own per screen size (her credits and bookings are hers).
 */
const stamp = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-8);

async function newCustomerWithCredits(request: APIRequestContext): Promise<{ email: string; name: string }> {
  const email = `semanal.${stamp()}@estudio.demo`;
  const identity = await request.post('/api/auth/signup', { data: { email, password: demoPassword } });
  expect(identity.ok(), await identity.text()).toBeTruthy();
  const { idToken } = (await identity.json()) as { idToken: string };
  const pages = (await (await request.get('/api/pages')).json()) as { pages: { page_id: number; required: boolean }[] };
  const signup = await request.post('/api/customer/signup', {
    headers: bearer(idToken),
    data: { name: 'Sofía', last_name: 'Semanal', email, phone: `55${stamp()}`, birthdate: '1992-05-04', accepted_page_ids: pages.pages.filter((p) => p.required).map((p) => p.page_id) },
  });
  expect(signup.ok(), await signup.text()).toBeTruthy();
  const { customer } = (await signup.json()) as { customer: { customer_id: number } };
  const admin = await apiLogin(request, 'admin@estudio.demo');
  const credit = await request.post('/api/available_classes', { headers: bearer(admin), data: { customer_id: customer.customer_id, available_classes: 6, reason: 'Paquete de la prueba' } });
  expect(credit.ok(), await credit.text()).toBeTruthy();
  return { email, name: 'Sofía' };
}

/** A class without a seat map, more than a day ahead and within the week the clock books, with places left and the same class a week later. */
function weeklyClass(classes: ScheduleClass[]): ScheduleClass {
  const week = 7 * 86_400_000;
  const found = classes.find(
    (c) =>
      !c.class_type.spot_map &&
      c.class_package_id === null &&
      c.reservation_count + 1 < c.capacity &&
      Date.parse(c.class_date) > Date.now() + 26 * 3_600_000 &&
      Date.parse(c.class_date) < Date.now() + 6 * 86_400_000 &&
      classes.some((o) => o.class_type_id === c.class_type_id && o.location_id === c.location_id && Date.parse(o.class_date) === Date.parse(c.class_date) + week),
  );
  expect(found, 'the demo repeats its week').toBeDefined();
  return found!;
}

for (const size of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`at ${size.width}×${size.height}: she books a class every week from its dialog, sees each week in Mis Reservaciones and stops; the booking stays`, async ({ page, request }) => {
    test.setTimeout(120_000);
    const { email, name } = await newCustomerWithCredits(request);
    const token = await apiLogin(request, email);
    const target = weeklyClass(await upcomingClasses(request, token));

    await signIn(page, email);
    await expectSignedIn(page, new RegExp(name));
    await page.setViewportSize(size);
    // A new customer meets the studio's first-class questions (decision 087); they are optional.
    const questions = page.getByRole('dialog', { name: 'Completar Información' });
    if (await questions.waitFor({ state: 'visible', timeout: 5_000 }).then(() => true, () => false)) {
      await questions.getByRole('button', { name: 'Completar Información' }).click();
      await expect(questions).toHaveCount(0);
    }
    await page.goto(`/mystudio?semana=${weekStart(target.class_date)}`);
    const card = page.locator(`[data-class-id="${target.single_class_id}"]`);
    await card.click();
    const modal = page.getByRole('dialog', { name: 'Reservar Clase' });
    const everyWeek = modal.getByRole('checkbox', { name: 'Reservar cada semana' });
    await expect(everyWeek).not.toBeChecked();
    await expect(modal.getByText(/^Te reservamos (lunes|martes|miércoles|jueves|viernes|sábado|domingo) \d\d:\d\d cada semana/)).toBeVisible();
    await everyWeek.check();
    await shoot(page, 'standing-booking-dialog');
    await modal.getByRole('button', { name: 'Reservar', exact: true }).click();
    await expect(page.getByText('¡Reservación guardada con éxito!')).toBeVisible();
    await expect(page.getByText(/^¡Listo! Reservaremos tu lugar cada semana: \S+ \d\d:\d\d\.$/)).toBeVisible();
    await expect(card).toHaveAttribute('data-state', 'reserved');

    await page.goto('/mystudio/reservaciones');
    const section = page.getByRole('region', { name: 'Cada semana' });
    await expect(section).toBeVisible();
    const place = section.getByRole('article', { name: new RegExp(`^${target.class_type.name} · `) });
    await expect(place).toContainText(target.location.name);
    // This week's class is booked; next week's is booked by the studio's clock once it opens.
    const weeks = place.getByRole('listitem');
    await expect(weeks).toHaveCount(2);
    await expect(weeks.nth(0)).toContainText('Reservada');
    await expect(weeks.nth(1)).toContainText('Se reserva al abrir');
    await shoot(page, 'standing-booking-list');
    await expectNoAxeViolations(page);

    await place.getByRole('button', { name: 'Dejar de reservar' }).click();
    const stop = page.getByRole('dialog', { name: '¿Dejar de reservar cada semana?' });
    await expect(stop).toContainText('Las clases ya reservadas se quedan');
    await shoot(page, 'standing-booking-stop');
    await stop.getByRole('button', { name: 'Sí, dejar de reservar' }).click();
    await expect(page.getByText('Ya no reservaremos esta clase cada semana.')).toBeVisible();
    await expect(section).toHaveCount(0);
    // The class she booked stays booked.
    await expect(page.locator('[data-reservation-id]').filter({ hasText: target.class_type.name }).first()).toContainText('Próxima');

    // From her booking's dialog she can keep it every week again, and the dialog then says so.
    await page.goto(`/mystudio?semana=${weekStart(target.class_date)}`);
    await card.click();
    const mine = page.getByRole('dialog', { name: 'Tu Reservación' });
    await mine.getByRole('button', { name: 'Reservar cada semana' }).click();
    await expect(page.getByText(/^¡Listo! Reservaremos tu lugar cada semana/)).toBeVisible();
    await expect(mine.getByTestId('kept-weekly')).toHaveText(/^Reservas esta clase cada semana \(\S+ \d\d:\d\d\)\.$/);
    await shoot(page, 'standing-booking-own');
  });
}
