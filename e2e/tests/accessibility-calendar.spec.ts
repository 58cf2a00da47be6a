import { expect, request as playwrightRequest, test, type APIRequestContext, type Page } from './fixtures.ts';
import { addDays, apiLogin, bearer, classesBetween, isFull, weekStart, type ScheduleClass } from './booking-helpers.ts';
import { expectNoAxeViolations } from './axe.ts';
import { patchPageConfig } from './content-helpers.ts';
import { signIn } from './helpers.ts';
import { testClockEnv } from '../../scripts/test-clock.mjs';
import { launchOptionsOn, startPinnedStudio, type PinnedStudio } from './pinned-clock.ts';

/**
 * The account's weekly calendar with every card state in one week, checked
 * by axe-core, whatever day the suite runs: the studio and the browser run
 * on a clock pinned to a Wednesday morning, so the week has past days
 * (Monday, Tuesday), today, and classes ahead in every state.
 */

/** Wednesday 10:00 in Mexico City (UTC-6 all year since 2022) two weeks from now: a moved clock only goes forward. */
function wednesdayMorningAhead(now = new Date()): string {
  return `${addDays(weekStart(now), 16)}T10:00:00-06:00`;
}

const pinnedInstant = wednesdayMorningAhead();
const clock = testClockEnv(pinnedInstant);
const port = Number(process.env.E2E_PORT ?? 3100) + 50;

test.use({ baseURL: `http://127.0.0.1:${port}`, launchOptions: launchOptionsOn(clock) });

let studio: PinnedStudio | null = null;

/** The brand colours an owner might pick: the demo's, a light one and a dark one. Text on each must keep AA. */
const brands = [
  { name: 'la marca del demo', primary: null },
  { name: 'una marca clara (amarillo)', primary: '#fcc419' },
  { name: 'una marca oscura (azul marino)', primary: '#1b1f3b' },
] as const;

const cardStates = ['available', 'reserved', 'full', 'waitlist', 'special'] as const;

/**
 * Makes sure the week ahead of the pinned instant shows every state for the
 * demo customer, arranging through /api what the seed left out: her own
 * reservation, a full class, a full class she waits for, a special class.
 */
async function arrangeEveryState(api: APIRequestContext): Promise<void> {
  const cliente = await apiLogin(api, 'cliente@estudio.demo');
  const admin = await apiLogin(api, 'admin@estudio.demo');
  const monday = weekStart(pinnedInstant);
  const soon = Date.parse(pinnedInstant) + 2 * 3_600_000;
  const ahead = async () => (await classesBetween(api, monday, addDays(monday, 6), cliente)).filter((c) => Date.parse(c.class_date) > soon);
  const isOpen = (c: ScheduleClass) => !isFull(c) && !c.class_package_id && c.class_reservations.length === 0 && c.waitlist_id == null;

  let classes = await ahead();
  if (!classes.some((c) => c.class_reservations.length > 0)) {
    const target = classes.find((c) => isOpen(c) && c.class_type.spot_map === null);
    expect(target, 'una clase abierta para reservar').toBeDefined();
    const booked = await api.post('/api/class_reservations', { headers: bearer(cliente), data: { single_class_id: target?.single_class_id } });
    expect(booked.ok(), await booked.text()).toBeTruthy();
  }
  // Two full classes: one to wait for, one that stays plainly full.
  classes = await ahead();
  for (const c of classes.filter(isOpen).filter((c) => c.reservation_count > 0).slice(0, Math.max(0, 2 - classes.filter(isFull).length))) {
    const sold = await api.put('/api/single_class', { headers: bearer(admin), data: { single_class_id: c.single_class_id, capacity: c.reservation_count } });
    expect(sold.ok(), await sold.text()).toBeTruthy();
  }
  classes = await ahead();
  if (!classes.some((c) => isFull(c) && c.waitlist_id != null)) {
    const full = classes.find((c) => isFull(c) && c.class_reservations.length === 0);
    const joined = await api.post('/api/waitlist', { headers: bearer(cliente), data: { single_class_id: full?.single_class_id } });
    expect(joined.ok(), await joined.text()).toBeTruthy();
  }
  if (!classes.some((c) => c.class_package_id != null)) {
    // The seed's special event falls in a later week: the same package-only class, on Friday evening of this one.
    const later = await classesBetween(api, addDays(monday, 7), addDays(monday, 13), cliente);
    const event = [...classes, ...later].find((c) => c.class_package_id != null);
    const sample = classes[0];
    expect(event && sample, 'el demo tiene una clase especial').toBeTruthy();
    const created = await api.post('/api/single_class', {
      headers: bearer(admin),
      data: { date: addDays(monday, 4), time: '18:30', duration_minutes: 60, capacity: 20, location_id: sample?.location_id, class_type_id: sample?.class_type_id, class_package_id: event?.class_package_id, allow_overlap: true },
    });
    expect(created.ok(), await created.text()).toBeTruthy();
  }
}

async function openCalendar(page: Page): Promise<void> {
  await signIn(page, 'cliente@estudio.demo');
  // The user menu with her name is in the drawer on a phone: the account's calendar is the sign of being in.
  await expect(page).toHaveURL(/\/mystudio$/);
  await expect(page.getByRole('heading', { name: 'Calendario', level: 1 })).toBeVisible();
  await expect(page.locator('[data-class-id]').first()).toBeVisible();
}

test.describe('Accesibilidad (axe-core): el calendario semanal con cada estado', () => {
  test.beforeAll(async () => {
    test.setTimeout(240_000);
    studio = await startPinnedStudio(clock, port);
    const api = await playwrightRequest.newContext({ baseURL: studio.url });
    try {
      await arrangeEveryState(api);
    } finally {
      await api.dispose();
    }
  });

  test.afterAll(async () => {
    await studio?.stop();
  });

  test('the browser and the studio share the pinned clock', async ({ page }) => {
    await page.goto('/');
    const browserNow = await page.evaluate(() => Date.now());
    expect(Math.abs(browserNow - Date.parse(pinnedInstant))).toBeLessThan(15 * 60_000);
  });

  for (const brand of brands) {
    test(`the week shows past days, today and every card state, with no violations, in ${brand.name}`, async ({ page }) => {
      if (brand.primary) await patchPageConfig(page, { primary: brand.primary });
      await openCalendar(page);
      await expect(page.locator('section[data-past]')).toHaveCount(2);
      await expect(page.locator('section[data-today]')).toHaveCount(1);
      for (const state of cardStates) await expect(page.locator(`[data-class-id][data-state="${state}"]`).first(), state).toBeVisible();
      await expectNoAxeViolations(page);
    });
  }

  test('on a phone (390×844) every card state has no violations', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await openCalendar(page);
    for (const state of cardStates) await expect(page.locator(`[data-class-id][data-state="${state}"]`).first(), state).toBeAttached();
    await expectNoAxeViolations(page);
  });
});
