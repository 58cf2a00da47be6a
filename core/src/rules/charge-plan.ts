import { discountedCents, type DiscountLike } from './discounts.ts';
import { effectivePriceCents, type PackageLike } from './packages.ts';
import { trialEnd } from './subscriptions.ts';
import type { DateInput } from './time.ts';

/** What a checkout or an order reads to say what is charged and when. */
export interface ChargePlanPackage extends Pick<PackageLike, 'price' | 'sale_price' | 'is_subscription'> {
  free_trial_length?: number | null;
  free_trial_period?: string | null;
}

export interface ChargePlan {
  /** Charged when the customer pays, in centavos: 0 during a free trial. */
  todayCents: number;
  /** A subscription's first charge after its free trial (amount and moment); null when today's charge is the first. */
  firstCharge: { cents: number; at: Date } | null;
}

/** A subscription that starts with a free trial: nothing is charged at checkout. */
export function startsWithFreeTrial(pkg: Pick<ChargePlanPackage, 'is_subscription' | 'free_trial_length'>): boolean {
  return Boolean(pkg.is_subscription) && (pkg.free_trial_length ?? 0) > 0;
}

/**
 * The one rule for "what is charged today and when is the first charge": a
 * subscription with a free trial charges 0 today and its price (after the
 * discount) when the trial ends, counted from `startedAt` (now at checkout, the
 * purchase's creation on its order page); anything else charges its price now.
 */
export function chargePlan(pkg: ChargePlanPackage, options: { startedAt: DateInput; discount?: DiscountLike | null }): ChargePlan {
  const priceCents = discountedCents(effectivePriceCents(pkg), options.discount);
  if (!startsWithFreeTrial(pkg)) return { todayCents: priceCents, firstCharge: null };
  const at = trialEnd({ createdAt: options.startedAt, free_trial_length: pkg.free_trial_length, free_trial_period: pkg.free_trial_period });
  return { todayCents: 0, firstCharge: at ? { cents: priceCents, at } : null };
}

/**
 * Whether 'Efectivo' is offered for a package. A subscription with a free
 * trial has nothing to pay in cash today, and its first charge must come from
 * a card kept for it (decision 029): cash would leave a trial nobody can charge.
 */
export function cashAllowedFor(pkg: Pick<ChargePlanPackage, 'is_subscription' | 'free_trial_length'>): boolean {
  return !startsWithFreeTrial(pkg);
}

/** Where 'Ir a Mis Clases' leads after a purchase: the video library for an online-only package, the calendar otherwise. */
export function classesPathAfterPurchase(pkg: { is_online?: boolean | null; is_presencial?: boolean | null }): string {
  return pkg.is_online && !pkg.is_presencial ? '/mystudio/online' : '/mystudio';
}
