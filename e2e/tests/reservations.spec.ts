import { expect, test, type Locator, type Page } from './fixtures.ts';
import { expectSignedIn, signIn } from './helpers.ts';
import { apiLogin, bearer, openClass, upcomingClasses } from './booking-helpers.ts';
import { withConfig, writeConfig } from './content-helpers.ts';
import { shoot } from './shots.ts';

interface MineRow {
  class_reservation_id: number;
  available_class_id: number | null;
  attend: boolean;
  class_stars: number | null;
  deletedAt: string | null;
  access_code: string;
  single_class: { class_date: string; class_type: { name: string } };
}

/** Clicks the n-th star of a Mantine Rating, as a user does (its radio inputs are visually hidden). */
async function pickStars(group: Locator, n: number): Promise<void> {
  const id = await group.getByRole('radio', { name: `${n} de 5 estrellas` }).getAttribute('id');
  await group.locator(`label[for="${id}"]`).click();
}

async function mine(request: Parameters<typeof apiLogin>[0], token: string, filter: string): Promise<MineRow[]> {
  const answer = await request.get('/api/class_reservations/mine', { params: { filter }, headers: bearer(token) });
  expect(answer.ok()).toBeTruthy();
  return ((await answer.json()) as { class_reservations: MineRow[] }).class_reservations;
}

test.describe('Mis Reservaciones', () => {
  test('shows the rule, the credits and the filters, and rates an attended class once', async ({ page, request }) => {
    const token = await apiLogin(request, 'cliente@estudio.demo');
    const attended = (await mine(request, token, 'past')).find((r) => r.attend && r.class_stars == null && !r.deletedAt);
    expect(attended, 'the seed has an attended, unrated class of cliente@').toBeDefined();

    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await page.goto('/mystudio/reservaciones');
    await expect(page.getByRole('heading', { name: 'Mis Reservaciones' })).toBeVisible();
    await expect(page.getByText('Solo puedes cancelar clases con 12 horas de anticipacion')).toBeVisible();
    await expect(page.getByText('Solo puedes cancelar hasta 2 veces por cada crédito de clase.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Comprar Clases' })).toHaveAttribute('href', '/mystudio/paquetes');
    for (const name of ['Clase', 'Invitado', 'Coach', 'Fecha y Hora', 'Lugar', 'Estado', 'Acciones']) {
      await expect(page.getByRole('columnheader', { name, exact: true })).toBeVisible();
    }

    await page.getByText('Pasadas', { exact: true }).click();
    const row = page.locator(`[data-reservation-id="${attended?.class_reservation_id}"]`);
    await expect(row).toContainText('Exitosa');
    await row.getByRole('button', { name: 'Calificar Clase' }).click();

    const modal = page.getByRole('dialog', { name: 'Calificar Clase' });
    await expect(modal).toBeVisible();
    // The comment and the buttons wait for the coach's rating (spec §5).
    await pickStars(modal.getByRole('group', { name: 'Clase' }), 5);
    await expect(modal.getByLabel('Comentario')).toHaveCount(0);
    await expect(modal.getByRole('button', { name: 'Calificar' })).toHaveCount(0);
    await pickStars(modal.getByRole('group', { name: 'Coach' }), 4);
    await modal.getByLabel('Comentario').fill('Excelente clase, muy buena energía.');
    await modal.getByRole('button', { name: 'Calificar', exact: true }).click();
    await expect(page.getByText('¡Gracias por calificar tu clase!')).toBeVisible();
    await expect(row.getByRole('button', { name: 'Calificar Clase' })).toHaveCount(0);
    await expect(row.getByLabel('5 de 5 estrellas')).toBeVisible();
  });

  test('Código de Acceso shows the QR of the admin reservation link with the random access code, and the code to type under it', async ({ page, request, baseURL }) => {
    const token = await apiLogin(request, 'cliente@estudio.demo');
    const upcoming = (await mine(request, token, 'upcoming'))[0];
    expect(upcoming, 'the seed gives cliente@ an upcoming reservation').toBeDefined();

    await signIn(page, 'cliente@estudio.demo');
    await expectSignedIn(page, /Mariana/);
    await page.goto('/mystudio/reservaciones');
    await page.getByText('Próximas', { exact: true }).click();
    const row = page.locator(`[data-reservation-id="${upcoming?.class_reservation_id}"]`);
    await row.getByRole('button', { name: 'Código de Acceso' }).click();
    const modal = page.getByRole('dialog', { name: 'Código de Acceso' });
    const qr = modal.getByRole('img', { name: 'Código de Acceso' });
    await expect(qr).toBeVisible();
    const code = upcoming?.access_code ?? '';
    expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    await expect(qr).toHaveAttribute('data-value', `${new URL(baseURL ?? '').origin}/admin/reservaciones/${upcoming?.class_reservation_id}/${code}`);
    await expect(modal.getByTestId('access-code-text')).toHaveText(`${code.slice(0, 5)}-${code.slice(5)}`);
    if (process.env.SHOTS_DIR) {
      for (const [width, height] of [[1366, 900], [390, 844]] as const) {
        await page.setViewportSize({ width, height });
        await expect(modal.getByTestId('access-code-text')).toBeInViewport();
        await page.screenshot({ path: `${process.env.SHOTS_DIR}/portal-access-code-${width}x${height}.png` });
      }
    }
  });

  test('on a phone the reservations are cards and the calendar is a day-by-day list', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signIn(page, 'cliente@estudio.demo');
    await expect(page).toHaveURL(/\/mystudio$/);
    await expect(page.getByRole('heading', { name: 'Calendario' })).toBeVisible();
    await expect(page.getByText('Reserva tus clases presenciales')).toBeVisible();
    for (const label of ['Disponible', 'Reservada', 'Sin Lugares']) await expect(page.getByText(label, { exact: true }).first()).toBeVisible();
    await page.getByRole('button', { name: 'Semana siguiente' }).click();
    await expect(page).toHaveURL(/semana=\d{4}-\d{2}-\d{2}/);
    await expect(page.getByRole('region', { name: /^Lunes \d+ de / })).toBeVisible();

    await page.goto('/mystudio/reservaciones');
    await expect(page.getByRole('table')).toHaveCount(0);
    await expect(page.getByRole('article').first()).toBeVisible();
  });
});

test('Mis Créditos lists the usable credits with the configured columns', async ({ page }) => {
  await signIn(page, 'cliente@estudio.demo');
  await expectSignedIn(page, /Mariana/);
  await page.goto('/mystudio/creditos');
  await expect(page.getByRole('heading', { name: 'Mis Créditos' })).toBeVisible();
  for (const name of ['Tipo de Clase', 'Créditos', 'Expiran en']) await expect(page.getByRole('columnheader', { name })).toBeVisible();
  // allow_restricted_times is off in the demo studio.
  await expect(page.getByRole('columnheader', { name: 'Horarios' })).toHaveCount(0);
  // One row per package with credits left: earlier specs of a run buy Mariana more.
  await expect(page.getByRole('cell', { name: 'Todas' }).first()).toBeVisible();
  await expect(page.getByRole('link', { name: '+ Créditos' })).toHaveAttribute('href', '/mystudio/paquetes');
});

test('an unlimited member sees Ilimitadas with the expiry date', async ({ page }) => {
  await signIn(page, 'ilimitado@estudio.demo');
  await expectSignedIn(page, /Sofía/);
  await page.goto('/mystudio/reservaciones');
  await expect(page.getByTestId('credits-available')).toHaveText('Ilimitadas');
  await expect(page.getByText(/^Vigencia: \d{2} \S+ \d{4}$/)).toBeVisible();
});

/** Rewrites one tRPC answer of the page (batched calls included): `edit` gets that procedure's data. */
async function patchTrpc(page: Page, procedure: string, edit: (data: Record<string, unknown>) => void): Promise<void> {
  await page.route(`**/trpc/*${procedure}*`, async (route) => {
    const answer = await route.fetch();
    const paths = new URL(route.request().url()).pathname.replace('/trpc/', '').split(',');
    const body = (await answer.json()) as { result?: { data: Record<string, unknown> } }[];
    const entry = body[paths.indexOf(procedure)];
    if (entry?.result) edit(entry.result.data);
    await route.fulfill({ response: answer, json: body });
  });
}

test.describe('Cancelar', () => {
  test('a double click on Cancelar Clase sends one cancel and says one thing', async ({ page, request }) => {
    // Sofía's membership is unlimited: cancelling uses up nothing later specs count on.
    const token = await apiLogin(request, 'ilimitado@estudio.demo');
    const target = openClass(await upcomingClasses(request, token), 24, (c) => c.class_type.spot_map === null);
    const booked = await request.post('/api/class_reservations', { headers: bearer(token), data: { single_class_id: target.single_class_id } });
    expect(booked.ok(), await booked.text()).toBeTruthy();
    const id = ((await booked.json()) as { class_reservation: { class_reservation_id: number } }).class_reservation.class_reservation_id;

    const cancels: string[] = [];
    page.on('request', (req) => {
      if (req.url().includes('reservations.cancel')) cancels.push(req.url());
    });
    await signIn(page, 'ilimitado@estudio.demo');
    await expectSignedIn(page, /Sofía/);
    await page.goto('/mystudio/reservaciones');
    const row = page.locator(`[data-reservation-id="${id}"]`);
    await row.getByRole('button', { name: 'Cancelar', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancelar Clase' });
    await dialog.getByRole('button', { name: 'Cancelar Clase' }).dblclick();
    await expect(page.getByText('Reservación cancelada.')).toHaveCount(1);
    await expect(row).toContainText('Cancelada');
    await expect(page.getByText('Esta reservación ya fue cancelada.')).toHaveCount(0);
    expect(cancels).toHaveLength(1);
  });

  for (const [width, height] of [[1366, 900], [390, 844]] as const) {
    test(`at ${width}×${height}, a reservation whose credit used its cancellations says why it has no Cancelar`, async ({ page, request }) => {
      const token = await apiLogin(request, 'cliente@estudio.demo');
      const upcoming = (await mine(request, token, 'upcoming')).find((r) => r.available_class_id != null);
      expect(upcoming, 'the seed gives cliente@ an upcoming reservation paid with a credit').toBeDefined();
      await page.setViewportSize({ width, height });
      // Both cancellations of every credit used (max_cancels_per_available_class is 2 in the demo).
      await patchTrpc(page, 'credits.history', (data) => {
        for (const credit of data.available_classes as { cancels_used: number }[]) credit.cancels_used = 2;
      });
      await signIn(page, 'cliente@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);
      await page.goto('/mystudio/reservaciones');
      const row = page.locator(`[data-reservation-id="${upcoming?.class_reservation_id}"]`);
      await expect(row.getByTestId('cancel-blocked')).toHaveText('Ya usaste las 2 cancelaciones de este crédito, por eso esta reservación ya no se puede cancelar.');
      await expect(row.getByRole('button', { name: 'Cancelar', exact: true })).toHaveCount(0);
      await shoot(page, `reservations-cancel-blocked-${width}`, row, { fullPage: false });
    });
  }

  test('an unlimited member is not told about a limit per credit', async ({ page }) => {
    await signIn(page, 'ilimitado@estudio.demo');
    await expectSignedIn(page, /Sofía/);
    await page.goto('/mystudio/reservaciones');
    await expect(page.getByText('Con tu membresía ilimitada puedes cancelar las veces que lo necesites.')).toBeVisible();
    await expect(page.getByText(/por cada crédito de clase/)).toHaveCount(0);
  });

  test('with cancelling off, the page says one rule', async ({ page, request }) => {
    const admin = await apiLogin(request, 'admin@estudio.demo');
    await writeConfig(request, admin, { allow_cancel_reservations: 'false', allow_cancel_after_treshold: 'false' });
    try {
      await signIn(page, 'cliente@estudio.demo');
      await expectSignedIn(page, /Mariana/);
      await page.goto('/mystudio/reservaciones');
      const rule = page.getByRole('alert').filter({ hasText: 'Tus clases son transferibles y no son cancelables' });
      await expect(rule).toHaveText('Tus clases son transferibles y no son cancelables');
      await expect(page.getByText(/por cada crédito de clase/)).toHaveCount(0);
      await expect(page.getByText(/de anticipacion/)).toHaveCount(0);
      await shoot(page, 'reservations-cancel-disabled', rule, { fullPage: false });
    } finally {
      await writeConfig(request, admin, { allow_cancel_reservations: 'true', allow_cancel_after_treshold: 'true' });
    }
  });

  test('on a phone the WhatsApp button never covers Cancelar', async ({ page, request }) => {
    // Earlier specs may have used up this credit's cancellations, which hides every Cancelar: no limit while it looks.
    const admin = await apiLogin(request, 'admin@estudio.demo');
    await withConfig(request, admin, { max_cancels_per_available_class: '0' }, () => cancelButtonsClearOfWhatsapp(page));
  });
});

/** Every Cancelar of her upcoming reservations' cards at 390×844, scrolled to the end, is clear of the floating WhatsApp button. */
async function cancelButtonsClearOfWhatsapp(page: Page): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'cliente@estudio.demo');
  await expect(page).toHaveURL(/\/mystudio$/);
  await page.goto('/mystudio/reservaciones');
  await page.getByText('Próximas', { exact: true }).click();
  const whatsapp = page.getByRole('link', { name: 'Escríbenos por WhatsApp' });
  const buttons = page.getByRole('article').getByRole('button', { name: 'Cancelar', exact: true });
  await expect(buttons.first()).toBeVisible();
  // Scrolled to the end, the last card sits where the button floats.
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  const fab = await whatsapp.boundingBox();
  expect(fab).not.toBeNull();
  for (const button of await buttons.all()) {
    const box = await button.boundingBox();
    if (!box || !fab) continue;
    const overlaps = box.x < fab.x + fab.width && box.x + box.width > fab.x && box.y < fab.y + fab.height && box.y + box.height > fab.y;
    expect(overlaps).toBe(false);
  }
  await page.screenshot({ path: test.info().outputPath('reservations-phone-end.png') });
  if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/reservations-phone-end-390x844.png` });
}
