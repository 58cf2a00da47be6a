import { expect, test, type APIRequestContext, type Page } from './fixtures.ts';
import { addDays, apiLogin, bearer, localDate, weekStart } from './booking-helpers.ts';
import { fillSandboxCard, packageId } from './checkout-helpers.ts';
import { withConfig } from './content-helpers.ts';
import { signIn } from './helpers.ts';
import { shoot } from './shots.ts';

/**
 * The booking and the money around it, as a customer sees them (decisions
 * 088 and 090): the booking modal says what she has to book with and offers
 * no guest where one place is left; the guest's seat has its own heading;
 * 'Tu Reservación' names her seat and her guest's and cancels with Mis
 * Reservaciones' rules; the order page of a monthly plan names the card, the
 * code and how often it renews; a declined card is said beside the card,
 * above the button, never over it. At 390×844 and 1366×900; SHOTS_DIR=<dir>
 * keeps the screens.
 */

const toast = (page: Page, text: string) => page.locator('.mantine-Notification-root').filter({ hasText: text });

/** A class the admin adds for the test, `days` ahead at a minute of its own, of the named class type. */
async function addClass(request: APIRequestContext, admin: string, typeName: string, capacity: number, days: number, time: string): Promise<{ id: number; date: string }> {
  const types = (await (await request.get('/api/class_types')).json()) as { class_types: { class_type_id: number; name: string }[] };
  const locations = (await (await request.get('/api/locations')).json()) as { locations: { location_id: number }[] };
  const type = types.class_types.find((t) => t.name === typeName);
  expect(type, typeName).toBeDefined();
  const date = addDays(localDate(new Date()), days);
  const created = await request.post('/api/single_class', {
    headers: bearer(admin),
    data: { date, time, duration_minutes: 50, capacity, location_id: locations.locations[0]?.location_id, class_type_id: type?.class_type_id, allow_overlap: true },
  });
  expect(created.ok(), await created.text()).toBeTruthy();
  return { id: ((await created.json()) as { single_class: { single_class_id: number } }).single_class.single_class_id, date };
}

/** How many classes the customer's credits hold (none of the demo's are tied to a type or a time). */
async function creditsOf(request: APIRequestContext, token: string): Promise<number> {
  const answer = (await (await request.get('/api/available_classes', { headers: bearer(token) })).json()) as { available_classes: { available_classes: number }[] };
  return answer.available_classes.reduce((sum, c) => sum + Math.max(0, c.available_classes), 0);
}

for (const [width, height, time, laterTime] of [
  [390, 844, '05:10', '05:20'],
  [1366, 900, '05:40', '05:50'],
] as const) {
  test.describe(`Reservar y pagar, ${width}×${height}`, () => {
    test.use({ viewport: { width, height } });
    test.setTimeout(120_000);

    test('the booking modal says what she has to book with; with one place left it offers no guest', async ({ page, request }) => {
      const admin = await apiLogin(request, 'admin@estudio.demo');
      const cliente = await apiLogin(request, 'cliente@estudio.demo');
      const klass = await addClass(request, admin, 'Barre', 1, 5, time);
      const have = await creditsOf(request, cliente);
      expect(have).toBeGreaterThan(0);

      await signIn(page, 'cliente@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);
      await page.goto(`/mystudio?semana=${weekStart(klass.date)}`);
      await page.locator(`[data-class-id="${klass.id}"]`).click();
      const modal = page.getByRole('dialog', { name: 'Reservar Clase' });
      await expect(modal).toBeVisible();
      await expect(modal.getByTestId('booking-credits')).toHaveText(`Tienes ${have} ${have === 1 ? 'crédito' : 'créditos'} para esta clase; esta reservación usa 1.`);
      const guest = modal.getByRole('checkbox', { name: 'Llevar un invitado' });
      await expect(guest).toBeDisabled();
      await expect(modal).toContainText('No queda lugar para un invitado en esta clase.');
      await shoot(page, `booking-credits-one-place-${width}`, modal);
    });

    test("an unlimited member reads that the booking uses no credits", async ({ page, request }) => {
      const admin = await apiLogin(request, 'admin@estudio.demo');
      const klass = await addClass(request, admin, 'Barre', 6, 5, laterTime);
      await signIn(page, 'ilimitado@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);
      await page.goto(`/mystudio?semana=${weekStart(klass.date)}`);
      await page.locator(`[data-class-id="${klass.id}"]`).click();
      const modal = page.getByRole('dialog', { name: 'Reservar Clase' });
      await expect(modal.getByTestId('booking-credits')).toHaveText('Con tu membresía ilimitada: esta reservación no usa créditos.');
      await expect(modal.getByRole('checkbox', { name: 'Llevar un invitado' })).toBeEnabled();
    });

    test("with a guest she picks her seat, then her guest's under its own heading; 'Tu Reservación' names both and cancels with its rules", async ({ page, request }) => {
      const admin = await apiLogin(request, 'admin@estudio.demo');
      const cliente = await apiLogin(request, 'cliente@estudio.demo');
      // Earlier specs may have used up the cancellations of the credit this booking takes: none counted while it cancels.
      await withConfig(request, admin, { max_cancels_per_available_class: '0' }, async () => {
        const klass = await addClass(request, admin, 'Pilates Reformer', 8, 6, time);
        const have = await creditsOf(request, cliente);

        await signIn(page, 'cliente@estudio.demo');
        await expect(page).toHaveURL(/\/mystudio$/);
        await page.goto(`/mystudio?semana=${weekStart(klass.date)}`);
        const card = page.locator(`[data-class-id="${klass.id}"]`);
        await card.click();
        const modal = page.getByRole('dialog', { name: 'Reservar Clase' });
        await expect(modal.getByTestId('booking-credits')).toHaveText(`Tienes ${have} ${have === 1 ? 'crédito' : 'créditos'} para esta clase; esta reservación usa 1.`);
        await modal.getByRole('checkbox', { name: 'Llevar un invitado' }).check();
        // The demo's guest uses one more credit: the modal says so before the tap.
        await expect(modal.getByTestId('booking-credits')).toContainText('esta reservación usa 2');
        await modal.getByLabel('Nombre de tu invitado').fill('Ana Invitada');
        await expect(modal.getByText('Elige tu lugar', { exact: true })).toBeVisible();
        await modal.getByRole('button', { name: 'Lugar 3', exact: true }).click();
        await expect(modal.getByText('Elige el lugar de tu invitado', { exact: true })).toBeVisible();
        await modal.getByRole('button', { name: 'Lugar 4', exact: true }).click();
        await shoot(page, `booking-guest-seat-${width}`, modal);
        await modal.getByRole('button', { name: 'Reservar', exact: true }).click();
        await expect(toast(page, '¡Reservación guardada con éxito!')).toBeVisible();
        await expect(modal).toBeHidden();

        await card.click();
        const mine = page.getByRole('dialog', { name: 'Tu Reservación' });
        await expect(mine.getByTestId('my-booking-seats')).toContainText('Tu lugar: 3');
        await expect(mine.getByTestId('my-booking-seats')).toContainText('Tu invitado: Ana Invitada, lugar 4');
        await shoot(page, `booking-mine-${width}`, mine);
        await mine.getByRole('link', { name: 'Cancelar reservación' }).click();
        await expect(page).toHaveURL(/\/mystudio\/reservaciones$/);
        const confirm = page.getByRole('dialog', { name: 'Cancelar Clase' });
        await expect(confirm).toBeVisible();
        await expect(confirm).toContainText('Pilates Reformer');
        await shoot(page, `booking-mine-cancel-${width}`, confirm);
        await confirm.getByRole('button', { name: 'Cancelar Clase' }).click();
        await expect(confirm).toBeHidden();
        const listed = (await (await request.get('/api/class_reservations/mine?filter=cancelled', { headers: bearer(cliente) })).json()) as { class_reservations: { single_class_id: number }[] };
        expect(listed.class_reservations.map((r) => r.single_class_id)).toContain(klass.id);
      });
    });

    test('a declined card is said beside the card, above the button, and nothing covers the button', async ({ page, request }) => {
      const id = await packageId(request, '1 Clase');
      await signIn(page, 'cliente@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);
      await page.goto(`/checkout/${id}`);
      await fillSandboxCard(page, '4000 0000 0000 9995');
      const pay = page.getByRole('button', { name: 'Pagar Ahora' });
      await pay.click();
      const declined = page.getByTestId('payment-declined');
      await expect(declined).toHaveText('Lo sentimos. Tu tarjeta ha sido rechazada por fondos insuficientes.');
      // On a phone the button is below the fold: where the customer scrolls to tap it again.
      await pay.scrollIntoViewIfNeeded();
      const notice = await declined.boundingBox();
      const button = await pay.boundingBox();
      expect(notice && button && notice.y + notice.height <= button.y).toBeTruthy();
      // What a tap at the button's centre reaches is the button: no toast sits over it.
      const centre = { x: button!.x + button!.width / 2, y: button!.y + button!.height / 2 };
      expect(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('button')?.textContent ?? null, centre)).toBe('Pagar Ahora');
      await shoot(page, `checkout-declined-${width}`, declined);
    });
  });
}

test.describe('the order page of a monthly plan', () => {
  test.setTimeout(120_000);

  test('names the card it was paid with, the discount code and how often it renews', async ({ page, request }) => {
    // A customer of her own: the purchase changes what she has to book with.
    const stamp = `${Date.now()}`.slice(-8);
    const email = `orden.${stamp}@correo.mx`;
    const password = 'Orden-2026';
    const signedUp = await request.post('/api/auth/signup', { data: { email, password } });
    const { idToken } = (await signedUp.json()) as { idToken: string };
    const pages = (await (await request.get('/api/pages')).json()) as { pages: { page_id: number; required: boolean }[] };
    const made = await request.post('/api/customer/signup', {
      headers: bearer(idToken),
      data: { name: 'Olga', last_name: 'Orden', phone: `59${stamp}`, birthdate: '1990-02-03', email, accepted_page_ids: pages.pages.filter((p) => p.required).map((p) => p.page_id) },
    });
    expect(made.ok(), await made.text()).toBeTruthy();
    const saved = await request.post('/api/payment_sources', { headers: bearer(idToken), data: { payment_method_token: 'pm_card_visa', card_type: 'visa', last_digits: '4242' } });
    expect(saved.ok(), await saved.text()).toBeTruthy();
    const source = ((await saved.json()) as { payment_source: { payment_source_id: number } }).payment_source.payment_source_id;
    const bought = await request.post('/api/checkout/attempt', {
      headers: bearer(idToken),
      data: { class_package_id: await packageId(request, 'Ilimitado Mensual'), payment_method: 1, payment_source_id: source, discountCode: 'VERANO200' },
    });
    expect(bought.ok(), await bought.text()).toBeTruthy();
    const purchaseId = ((await bought.json()) as { purchase_id: number }).purchase_id;

    await signIn(page, email, password);
    await expect(page).toHaveURL(/\/mystudio$/);
    for (const [width, height] of [
      [390, 844],
      [1366, 900],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`/gracias/${purchaseId}`);
      await expect(page.getByRole('heading', { name: `Orden #00${purchaseId}` })).toBeVisible();
      await expect(page.getByText('Tarjeta Visa terminación 4242')).toBeVisible();
      await expect(page.getByText('VERANO200')).toBeVisible();
      await expect(page.getByText('Tus clases renuevan cada mes')).toBeVisible();
      await expect(page.getByText(/renuevan cada \d+ días/)).toHaveCount(0);
    }
    await shoot(page, 'thanks-subscription-card');
  });
});
