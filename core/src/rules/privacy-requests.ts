/**
 * Mexico's data-protection law: a request to access, rectify, cancel or oppose the use of one's data (ARCO) is
 * answered within 20 business days of its receipt (decision 124). Business days are Monday to Friday except the
 * country's official days of rest (Ley Federal del Trabajo, art. 74).
 */
export const privacyRequestAnswerDays = 20;

/** 'YYYY-MM-DD' of a calendar day. */
const iso = (year: number, month: number, day: number) => `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;

/** The day of the month of the n-th Monday of a month (n from 1). */
function nthMonday(year: number, month: number, n: number): number {
  const firstWeekday = new Date(Date.UTC(year, month - 1, 1)).getUTCDay();
  const firstMonday = 1 + ((8 - firstWeekday) % 7);
  return firstMonday + 7 * (n - 1);
}

/** The official days of rest of a year, as 'YYYY-MM-DD'. */
export function mexicanRestDays(year: number): Set<string> {
  const days = [
    iso(year, 1, 1),
    iso(year, 2, nthMonday(year, 2, 1)), // Constitution day
    iso(year, 3, nthMonday(year, 3, 3)), // Benito Juárez
    iso(year, 5, 1),
    iso(year, 9, 16),
    iso(year, 11, nthMonday(year, 11, 3)), // Revolution day
    iso(year, 12, 25),
  ];
  // The federal executive's change of power, every six years (2024, 2030…).
  if ((year - 2024) % 6 === 0) days.push(iso(year, 10, 1));
  return new Set(days);
}

/** Whether a calendar day ('YYYY-MM-DD') is a business day. */
export function isBusinessDay(day: string): boolean {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const weekday = new Date(Date.UTC(year, month - 1, date)).getUTCDay();
  return weekday !== 0 && weekday !== 6 && !mexicanRestDays(year).has(day);
}

/** The calendar day `count` business days after `day` (the day itself never counts). */
export function addBusinessDays(day: string, count: number): string {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(year, month - 1, date));
  let left = count;
  while (left > 0) {
    at.setUTCDate(at.getUTCDate() + 1);
    if (isBusinessDay(at.toISOString().slice(0, 10))) left--;
  }
  return at.toISOString().slice(0, 10);
}

/** The last day to answer a request received on `receivedDay` (the studio's date). */
export function privacyRequestDueDay(receivedDay: string): string {
  return addBusinessDays(receivedDay, privacyRequestAnswerDays);
}

/** Business days from `today` to `dueDay`: 0 on the day itself, negative once it has passed. */
export function businessDaysLeft(today: string, dueDay: string): number {
  if (today === dueDay) return 0;
  const forward = today < dueDay;
  let count = 0;
  let at = today;
  while (at !== dueDay) {
    const [y, m, d] = at.split('-').map(Number) as [number, number, number];
    const next = new Date(Date.UTC(y, m - 1, d + (forward ? 1 : -1))).toISOString().slice(0, 10);
    if (isBusinessDay(forward ? next : at)) count++;
    at = next;
  }
  return forward ? count : -count;
}
