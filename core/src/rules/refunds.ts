import { toCents } from './money.ts';

/**
 * How much of a purchase can be given back (decision 034). A refund
 * ends the purchase's access, so the money that can go back is what the
 * customer has not used yet:
 * - nothing used: everything paid;
 * - a class pack with classes used: the share of the classes left
 *   (paid × left / bought, down to the centavo);
 * - an unlimited membership already used: the share of its days left.
 * A full refund of something partly used is refused; the admin types the
 * partial amount, at most this.
 */
export interface RefundFacts {
  /** What the purchase charged, in centavos. */
  paidCents: number;
  /** Credits the purchase sold; -1 unlimited, 0 none (an online membership). */
  classAmount: number;
  /** Classes booked with its credits and not given back (cancelled in time gives them back). */
  used: number;
  /** When access started and ends (unlimited and online memberships). */
  startsAt: Date;
  endsAt: Date | null;
  now: Date;
}

export function refundableCents(f: RefundFacts): number {
  if (f.paidCents <= 0) return 0;
  if (f.used <= 0) return f.paidCents;
  if (f.classAmount > 0) return Math.floor((f.paidCents * Math.max(0, f.classAmount - f.used)) / f.classAmount);
  if (!f.endsAt) return 0;
  const total = f.endsAt.getTime() - f.startsAt.getTime();
  const left = f.endsAt.getTime() - f.now.getTime();
  if (total <= 0 || left <= 0) return 0;
  return Math.floor((f.paidCents * Math.min(left, total)) / total);
}

/** What went back of a purchase, in centavos: the sum of its refund invoices (decision 034 writes one per refund). */
export function refundedCents(invoices: readonly { status: string; total_payment: string }[]): number {
  return invoices.filter((i) => i.status === 'refunded').reduce((sum, i) => sum + toCents(i.total_payment), 0);
}

/**
 * A purchase's status as staff read it: a refund ends its access (status 'revoked', as a removal does), but a
 * purchase whose money went back is 'refunded', not removed.
 */
export function purchaseStatusKey(p: { status: string; refundedAt?: Date | string | null; invoices?: readonly { status: string; total_payment: string }[] }): string {
  // The purchase's own mark (the desk's replica has no invoices), or its refund invoices (the console's answer).
  const refunded = (p.refundedAt ?? null) !== null || refundedCents(p.invoices ?? []) > 0;
  return p.status === 'revoked' && refunded ? 'refunded' : p.status;
}

/**
 * How a sale was paid, as the reports split it. An 'Efectivo' order is cash
 * until staff record that it came in as a bank transfer: only cash is money
 * in the drawer. OXXO vouchers and SPEI transfers through Stripe are their own
 * kinds: neither is money in the studio's drawer.
 */
export const paymentKinds = ['cash', 'transfer', 'card', 'oxxo', 'spei', 'paypal', 'gift', 'free'] as const;
export type PaymentKind = (typeof paymentKinds)[number];

export const paymentKindText: Record<PaymentKind, string> = {
  cash: 'Efectivo',
  transfer: 'Transferencia',
  card: 'Tarjeta',
  oxxo: 'OXXO (efectivo en tienda)',
  spei: 'Transferencia SPEI',
  paypal: 'PayPal',
  gift: 'Cortesía',
  free: 'Sin costo',
};
