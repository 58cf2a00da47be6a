/**
 * Meses sin intereses: a Mexican credit card splits a payment over 3, 6, 9 or
 * 12 monthly statements; the studio is paid at once and the bank collects.
 * Stripe offers a plan only when the card's bank does (the PaymentIntent's
 * available_plans) and the amount reaches that plan's minimum; the studio
 * offers them only on packages of at least its own amount
 * (`installments_min_amount`, pesos; 0 turns them off).
 */

/** The plans the product offers and Stripe's default minimum amount of each, in centavos. */
export const installmentPlanMinimums: readonly { count: number; minCents: number }[] = [
  { count: 3, minCents: 30_000 },
  { count: 6, minCents: 60_000 },
  { count: 9, minCents: 90_000 },
  { count: 12, minCents: 120_000 },
];

export interface InstallmentOption {
  count: number;
  /** What each monthly statement shows, in centavos (the last one takes the rounding). */
  monthlyCents: number;
}

/** Whether a payment of this amount may be offered in installments at all, by the studio's threshold (pesos; '0' or '' off). */
export function installmentsAllowed(amountCents: number, studioMinPesos: string | undefined): boolean {
  const min = Number(studioMinPesos);
  if (!Number.isFinite(min) || min <= 0) return false;
  return amountCents >= Math.round(min * 100) && amountCents >= (installmentPlanMinimums[0]?.minCents ?? 0);
}

/**
 * The plans to offer for a payment: those the card's bank offers
 * (`available`: Stripe's available_plans counts, fixed_count monthly), that
 * the product knows, whose minimum the amount reaches, when the studio's
 * threshold allows installments for it. Fewest months first.
 */
export function installmentOptions(amountCents: number, available: readonly number[], studioMinPesos: string | undefined): InstallmentOption[] {
  if (!installmentsAllowed(amountCents, studioMinPesos)) return [];
  return installmentPlanMinimums
    .filter((plan) => available.includes(plan.count) && amountCents >= plan.minCents)
    .map((plan) => ({ count: plan.count, monthlyCents: Math.round(amountCents / plan.count) }));
}

/** Whether a chosen plan is one of the options (a browser may send any number). */
export const isOfferedPlan = (options: readonly InstallmentOption[], count: number) => options.some((o) => o.count === count);
