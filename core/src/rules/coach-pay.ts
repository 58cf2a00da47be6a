import { formatMXN, toCents } from './money.ts';

/**
 * What a coach earns for a class (decision 139). Amounts are MXN strings
 * ('120.00') as stored; the arithmetic is in centavos.
 */
export type CoachPayKind = 'per_class' | 'per_attendee' | 'revenue_share';

export interface CoachPayRule {
  kind: CoachPayKind;
  /** Per class or per attendee. */
  amount: string | null;
  /** 0–100, for a share of revenue. */
  percent: string | null;
  minimum: string | null;
  maximum: string | null;
  /** The studio's local day from which the rule pays (YYYY-MM-DD). */
  effective_from: string;
}

/** The rule that pays a class given on `day` (a local YYYY-MM-DD): the latest one that started on or before it. */
export function payRuleOn<R extends Pick<CoachPayRule, 'effective_from'>>(rules: readonly R[], day: string): R | null {
  let found: R | null = null;
  for (const rule of rules) if (rule.effective_from <= day && (!found || rule.effective_from > found.effective_from)) found = rule;
  return found;
}

export interface ClassFacts {
  /** People who came: attended reservations and the guests who came with them. */
  attendees: number;
  /** The class's revenue in centavos: what its bookings were worth (decision 139). */
  revenueCents: number;
  /** How many coaches taught it: a share of revenue is split between them. */
  coaches: number;
}

/** A coach's pay for one class under a rule, in centavos (a share of revenue rounds to the centavo). */
export function classPayCents(rule: CoachPayRule, facts: ClassFacts): number {
  const amount = rule.amount === null ? 0 : toCents(rule.amount);
  let pay: number;
  if (rule.kind === 'per_class') return amount;
  if (rule.kind === 'per_attendee') pay = amount * facts.attendees;
  else pay = Math.round((facts.revenueCents * Number(rule.percent ?? 0)) / 100 / Math.max(1, facts.coaches));
  if (rule.minimum !== null) pay = Math.max(pay, toCents(rule.minimum));
  if (rule.maximum !== null) pay = Math.min(pay, toCents(rule.maximum));
  return pay;
}

/** The rule in words, for the report and the coach's view: '$120.00 por clase', '$35.00 por asistente (mín. $150.00, máx. $400.00)'. */
export function payRuleText(rule: CoachPayRule): string {
  const bounds = [rule.minimum !== null ? `mín. ${formatMXN(toCents(rule.minimum))}` : null, rule.maximum !== null ? `máx. ${formatMXN(toCents(rule.maximum))}` : null].filter(Boolean);
  const limits = bounds.length ? ` (${bounds.join(', ')})` : '';
  if (rule.kind === 'per_class') return `${formatMXN(toCents(rule.amount ?? '0'))} por clase`;
  if (rule.kind === 'per_attendee') return `${formatMXN(toCents(rule.amount ?? '0'))} por asistente${limits}`;
  return `${Number(rule.percent ?? 0)}% de lo que vale la clase${limits}`;
}

/**
 * What one booking is worth to its class's revenue, in centavos: a class of a paid package is its price over its
 * classes; an unlimited membership's price is spread over the classes booked with it (Mindbody's "revenue per visit");
 * a gift, a courtesy or an unpaid purchase is worth nothing.
 */
export function bookingValueCents(purchase: { paid: boolean; total: string; classes: number } | null, bookingsOnCredit: number): number {
  if (!purchase || !purchase.paid) return 0;
  const total = toCents(purchase.total);
  if (purchase.classes > 0) return Math.round(total / purchase.classes);
  return Math.round(total / Math.max(1, bookingsOnCredit));
}

