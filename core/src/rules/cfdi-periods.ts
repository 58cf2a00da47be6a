import { studioDayjs, type DateInput } from './time.ts';
import type { GlobalPeriodicity } from './sat-catalogues.ts';

/**
 * When a sale can still be invoiced to a person, and which global invoice
 * takes it otherwise (CFDI 4.0, the SAT's "factura global": sales to the
 * public in general, on the studio's clock).
 */

/**
 * The last moment a customer may ask for the invoice of a purchase made at
 * `at`: with `cfdi_request_days` 0 (the default) until the end of the
 * purchase's calendar month in the studio's zone; otherwise that many days
 * after it.
 */
export function invoiceRequestDeadline(at: DateInput, requestDays: string | undefined, tz: string): Date {
  const days = Number(requestDays);
  if (Number.isInteger(days) && days > 0) return new Date(studioDayjs(at, tz).valueOf() + days * 86_400_000);
  return studioDayjs(at, tz).startOf('month').add(1, 'month').toDate();
}

export interface GlobalPeriod {
  periodicity: GlobalPeriodicity;
  /** First instant of the period (inclusive) and the first after it. */
  start: Date;
  end: Date;
  /** The SAT's Meses key: '01'-'12' for the month, '13'-'18' for a two-month period. */
  months: string;
  year: number;
}

/**
 * The global-invoice period holding an instant: its studio day, its week
 * (Monday to Sunday, cut at the month's edges, since a global invoice names
 * one month), its fortnight (1-15, 16-end), its month, or its two months
 * (January-February is '13', … November-December '18').
 */
export function globalPeriodOf(at: DateInput, periodicity: GlobalPeriodicity, tz: string): GlobalPeriod {
  const local = studioDayjs(at, tz);
  const monthStart = local.startOf('month');
  const nextMonth = monthStart.add(1, 'month');
  const year = monthStart.year();
  const month = monthStart.month() + 1;
  const key = String(month).padStart(2, '0');
  switch (periodicity) {
    case 'day': {
      const start = local.startOf('day');
      return { periodicity, start: start.toDate(), end: start.add(1, 'day').toDate(), months: key, year };
    }
    case 'week': {
      const day = local.startOf('day');
      const monday = day.subtract((day.day() + 6) % 7, 'day');
      const start = monday.isBefore(monthStart) ? monthStart : monday;
      const nextMonday = monday.add(7, 'day');
      const end = nextMonday.isAfter(nextMonth) ? nextMonth : nextMonday;
      return { periodicity, start: start.toDate(), end: end.toDate(), months: key, year };
    }
    case 'fortnight': {
      const sixteenth = monthStart.add(15, 'day');
      const first = local.date() <= 15;
      return { periodicity, start: (first ? monthStart : sixteenth).toDate(), end: (first ? sixteenth : nextMonth).toDate(), months: key, year };
    }
    case 'month':
      return { periodicity, start: monthStart.toDate(), end: nextMonth.toDate(), months: key, year };
    case 'two_months': {
      const pair = Math.floor((month - 1) / 2);
      const start = monthStart.subtract((month - 1) % 2, 'month');
      return { periodicity, start: start.toDate(), end: start.add(2, 'month').toDate(), months: String(13 + pair), year };
    }
  }
}

/** A stable name for a period ('month:2026-11', 'day:2026-11-03'): one global invoice run per period and payment form. */
export function globalPeriodKey(p: GlobalPeriod, tz: string): string {
  return `${p.periodicity}:${studioDayjs(p.start, tz).format('YYYY-MM-DD')}`;
}

export type InvoiceCorrection = { kind: 'cancel'; motive: '03' } | { kind: 'credit-note' };

/**
 * What undoing (part of) an invoiced sale does to its CFDI: a full refund or
 * an annulled sale in the invoice's own fiscal year cancels it with motive 03
 * ("no se llevó a cabo la operación"); a partial refund, or one after the
 * year closed (the SAT allows cancelling only within the year of issue and
 * the annual return), issues a credit note (CFDI de egreso) for the amount
 * returned, related to the invoice.
 */
export function invoiceCorrection(f: { issuedAt: DateInput; now: DateInput; returnedCents: number; invoicedCents: number; tz: string }): InvoiceCorrection {
  const sameYear = studioDayjs(f.issuedAt, f.tz).year() === studioDayjs(f.now, f.tz).year();
  if (sameYear && f.returnedCents >= f.invoicedCents) return { kind: 'cancel', motive: '03' };
  return { kind: 'credit-note' };
}

/**
 * Whether the request window fits the global invoice's periodicity: the SAT
 * wants the global invoice within 72 hours of its period's end, and a sale
 * still open to a personal invoice cannot go on it yet. With the
 * month-of-purchase window only a monthly or two-month global invoice waits
 * for every window of its period to close; a window of N days ends at most N
 * days after the period, so it fits any periodicity when N is 3 or less.
 */
export function periodicityFitsWindow(periodicity: string, requestDays: string | undefined): boolean {
  const days = Number(requestDays);
  if (!(Number.isInteger(days) && days > 0)) return periodicity === 'month' || periodicity === 'two_months';
  return days <= 3;
}
