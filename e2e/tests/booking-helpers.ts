import { expect, type APIRequestContext } from './fixtures.ts';
import { demoPassword } from './helpers.ts';

/** The demo studio's zone (config `timezone`): weeks and dates in the portal are local to it. */
export const studioTimeZone = 'America/Mexico_City';

/** A class as GET /api/single_class answers it (the fields these tests read). */
export interface ScheduleClass {
  single_class_id: number;
  class_date: string;
  capacity: number;
  reservation_count: number;
  class_package_id: number | null;
  location_id: number;
  class_type_id: number;
  cancelledAt: string | null;
  taken_spots: number[];
  class_type: { name: string; spot_map: string | null };
  location: { name: string };
  class_reservations: { class_reservation_id: number; spot: number | null }[];
  waitlist_id: number | null;
}

export async function apiLogin(request: APIRequestContext, email: string): Promise<string> {
  const answer = await request.post('/api/auth/login', { data: { email, password: demoPassword } });
  expect(answer.ok()).toBeTruthy();
  return ((await answer.json()) as { idToken: string }).idToken;
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** 'YYYY-MM-DD' of an instant on the studio's calendar. */
export function localDate(instant: Date | string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: studioTimeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(instant));
}

/** 'YYYY-MM-DD' plus some days. */
export const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** The Monday of the studio-local week holding the instant: the calendar's ?semana= value. */
export function weekStart(instant: Date | string): string {
  // A day ('YYYY-MM-DD') is that day: read as an instant it is UTC midnight, the evening before in the studio.
  const date = typeof instant === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(instant) ? instant : localDate(instant);
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -((weekday + 6) % 7));
}

/** The live classes from `start` to `end` (YYYY-MM-DD), seen by the given customer when a token is passed. */
export async function classesBetween(request: APIRequestContext, start: string, end: string, token?: string): Promise<ScheduleClass[]> {
  const answer = await request.get('/api/single_class', {
    params: { start_date: start, end_date: end },
    headers: token ? bearer(token) : {},
  });
  expect(answer.ok()).toBeTruthy();
  const { single_classes } = (await answer.json()) as { single_classes: ScheduleClass[] };
  return single_classes.filter((c) => !c.cancelledAt);
}

/**
 * The next two weeks of the seeded schedule (the seed runs to 13 days ahead of
 * its start), seen by the given customer when a token is passed.
 */
export async function upcomingClasses(request: APIRequestContext, token?: string): Promise<ScheduleClass[]> {
  const today = localDate(new Date());
  return classesBetween(request, today, addDays(today, 13), token);
}

export const isFull = (c: ScheduleClass) => c.reservation_count >= c.capacity;
export const startsAfter = (c: ScheduleClass, hours: number) => Date.parse(c.class_date) > Date.now() + hours * 3_600_000;

/** A bookable class for the customer: open, not theirs, not package-only, starting after `hours`. */
export function openClass(classes: ScheduleClass[], hours: number, extra: (c: ScheduleClass) => boolean = () => true): ScheduleClass {
  const found = classes.find(
    (c) => !isFull(c) && c.reservation_count + 1 <= c.capacity && !c.class_package_id && c.class_reservations.length === 0 && c.waitlist_id == null && startsAfter(c, hours) && extra(c),
  );
  if (!found) throw new Error('the demo schedule has no class that fits this test');
  return found;
}
