import { expect, test, type APIRequestContext } from './fixtures.ts';
import { signIn } from './helpers.ts';
import { addDays, apiLogin, bearer, upcomingClasses } from './booking-helpers.ts';
import { shoot } from './shots.ts';

/** Points 10 and 11 (decision 030): the studio's clock on the portal. */

const months = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'];
const part = (instant: string, timeZone: string, options: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-GB', { timeZone, ...options }).format(new Date(instant));
/** 'HH:mm' of an instant on a zone's clock, as a class card shows it. */
const hhmm = (instant: string, timeZone: string) => part(instant, timeZone, { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
/** 'DD MMM YYYY' in Spanish on a zone's clock, the spec's date. */
const ddMmmYyyy = (instant: string, timeZone: string) => {
  const [y, m, d] = part(instant, timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' }).split('/').reverse().map(Number) as [number, number, number];
  return `${String(d).padStart(2, '0')} ${months[m - 1]} ${y}`;
};
/** The calendar's ?semana= (the Monday) of an instant on a zone's calendar. */
function mondayOf(instant: string, timeZone: string): string {
  const date = part(instant, timeZone, { year: 'numeric', month: '2-digit', day: '2-digit' }).split('/').reverse().join('-');
  return addDays(date, -((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7));
}

async function putConfig(request: APIRequestContext, token: string, config: { key: string; value: string }[]) {
  const answer = await request.put('/api/appconfig', { headers: bearer(token), data: { config } });
  expect(answer.status(), await answer.text()).toBe(200);
}

test.describe('the studio clock', () => {
  test("a class's time on the calendar follows the studio's timezone_offset", async ({ page, request }) => {
    const admin = await apiLogin(request, 'admin@estudio.demo');
    const cls = (await upcomingClasses(request)).find((c) => Date.parse(c.class_date) > Date.now() + 24 * 3_600_000)!;
    expect(cls, 'the demo schedule has a class tomorrow or later').toBeDefined();
    const card = page.locator(`[data-class-id="${cls.single_class_id}"]`);

    await signIn(page, 'cliente@estudio.demo');
    await expect(page).toHaveURL(/\/mystudio$/);
    await page.goto(`/mystudio?semana=${mondayOf(cls.class_date, 'America/Mexico_City')}`);
    await expect(card).toContainText(hhmm(cls.class_date, 'America/Mexico_City'));

    try {
      // The spec's setting alone: 7 hours behind UTC, an hour earlier than Mexico City.
      await putConfig(request, admin, [{ key: 'timezone_offset', value: '7' }]);
      const config = (await (await request.get('/api/appconfig')).json()) as { config: { key: string; value: string }[] };
      expect(config.config.filter((e) => e.key.startsWith('timezone'))).toEqual(
        expect.arrayContaining([
          { key: 'timezone', value: '' },
          { key: 'timezone_offset', value: '7' },
        ]),
      );
      await page.goto(`/mystudio?semana=${mondayOf(cls.class_date, 'Etc/GMT+7')}`);
      const earlier = hhmm(cls.class_date, 'Etc/GMT+7');
      expect(earlier).not.toBe(hhmm(cls.class_date, 'America/Mexico_City'));
      await expect(card).toContainText(earlier);
      await shoot(page, 'studio-time-calendar-offset-7', card);

      // A value the spec's setting cannot take is refused in Spanish and nothing changes.
      const bad = await request.put('/api/appconfig', { headers: bearer(admin), data: { config: [{ key: 'timezone_offset', value: '5.5' }] } });
      expect(bad.status()).toBe(400);
      expect(((await bad.json()) as { message: string }).message).toContain('«Diferencia horaria (horas)» no es válido');
    } finally {
      // Back to the demo studio's zone (its offset, 6, is written with it) for the specs that follow.
      await putConfig(request, admin, [{ key: 'timezone', value: 'America/Mexico_City' }]);
    }
    await page.goto(`/mystudio?semana=${mondayOf(cls.class_date, 'America/Mexico_City')}`);
    await expect(card).toContainText(hhmm(cls.class_date, 'America/Mexico_City'));
  });

  for (const [width, height] of [
    [1366, 900],
    [390, 844],
  ] as const) {
    test(`Mis Compras and Mis Cargos show the monthly membership's next charge where it was paid through (${width}×${height})`, async ({ page, request }) => {
      const token = await apiLogin(request, 'ilimitado@estudio.demo');
      const { purchases } = (await (await request.get('/api/purchases', { headers: bearer(token) })).json()) as {
        purchases: { title: string; invoices: { status: string; period_end: string | null }[] }[];
      };
      const online = purchases.find((p) => p.title === 'Online Mensual')!;
      // The provider's date: the end of the period its last charge paid (the seed's 14 Dec for a 14 Oct start), not the trial's end plus months.
      const paidThrough = online.invoices.filter((i) => i.status === 'completed').at(-1)!.period_end!;
      const expected = ddMmmYyyy(paidThrough, 'America/Mexico_City');

      await page.setViewportSize({ width, height });
      await signIn(page, 'ilimitado@estudio.demo');
      await expect(page).toHaveURL(/\/mystudio$/);
      await page.goto('/mystudio/membresias');
      const purchase = width > 600
        ? page.getByRole('table', { name: 'Mis Compras' }).getByRole('row').filter({ hasText: 'Online Mensual' })
        : page.getByTestId('purchase-card').filter({ hasText: 'Online Mensual' });
      await expect(purchase).toContainText(expected);
      if (width < 600) await expect(purchase).toContainText('Sig. Cargo');
      if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/studio-time-next-charge-${width}x${height}.png`, fullPage: true });

      await page.goto('/mystudio/pagos');
      const charges = width > 600
        ? page.getByRole('table', { name: 'Mis Cargos' }).getByRole('row').filter({ hasText: 'Online Mensual' })
        : page.getByRole('article').filter({ hasText: 'Online Mensual' });
      await expect(charges.first()).toBeVisible();
      for (const charge of await charges.all()) await expect(charge).toContainText(expected);
      if (process.env.SHOTS_DIR) await page.screenshot({ path: `${process.env.SHOTS_DIR}/studio-time-charges-${width}x${height}.png`, fullPage: true });
    });
  }
});
