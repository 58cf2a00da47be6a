import { expect, test, type Locator } from '@playwright/test';
import { expectSignedIn, signIn } from './helpers.ts';
import { apiLogin, bearer } from './booking-helpers.ts';

interface MineRow {
  class_reservation_id: number;
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
  await expect(page.getByRole('cell', { name: 'Todas' })).toBeVisible();
  await expect(page.getByRole('link', { name: '+ Créditos' })).toHaveAttribute('href', '/mystudio/paquetes');
});

test('an unlimited member sees Ilimitadas with the expiry date', async ({ page }) => {
  await signIn(page, 'ilimitado@estudio.demo');
  await expectSignedIn(page, /Sofía/);
  await page.goto('/mystudio/reservaciones');
  await expect(page.getByTestId('credits-available')).toHaveText('Ilimitadas');
  await expect(page.getByText(/^Vigencia: \d{2} \S+ \d{4}$/)).toBeVisible();
});
