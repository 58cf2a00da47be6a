import { toCents } from './money.ts';

export interface DiscountLike {
  /** Percent (0-100) when is_percent, otherwise MXN off. */
  amount: string;
  is_percent: boolean;
}

/**
 * Spec §5: percent: price × (1 − amount/100); otherwise price − amount;
 * never below 0; two decimals. Everything in centavos; the percent case rounds
 * half up to the centavo.
 */
export function discountedCents(priceCents: number, discount: DiscountLike | null | undefined): number {
  if (!discount) return priceCents;
  const amountCents = toCents(discount.amount);
  if (discount.is_percent) {
    // amountCents is the percent × 100 (10.00 % → 1000), so the factor is (10000 − amountCents) / 10000.
    const pct = Math.min(Math.max(amountCents, 0), 10000);
    return Math.max(0, Math.round((priceCents * (10000 - pct)) / 10000));
  }
  return Math.max(0, priceCents - amountCents);
}
