import { toCents } from './money.ts';

/** The fields of a class package the shop rules read. */
export interface PackageLike {
  price: string;
  sale_price?: string | null;
  class_amount: number;
  is_trial?: boolean | null;
  is_special_event?: boolean | null;
  is_subscription?: boolean | null;
  limit_per_customer?: number | null;
  subscription_period?: string | null;
  subscription_interval?: number | null;
  order?: number | null;
}

/** Spec §9: a trial is is_trial, or one class limited to one purchase per customer. */
export function isTrialPackage(p: Pick<PackageLike, 'is_trial' | 'class_amount' | 'limit_per_customer'>): boolean {
  return Boolean(p.is_trial) || (p.class_amount === 1 && p.limit_per_customer === 1);
}

/** Spec §9: regular lists exclude special events and packages limited to one per customer. */
export function isRegularPackage(p: PackageLike): boolean {
  return !p.is_special_event && p.limit_per_customer !== 1;
}

/** Sorted by class_amount with unlimited (-1) last; ties by the configured order. */
export function comparePackages(a: PackageLike, b: PackageLike): number {
  const key = (p: PackageLike) => (p.class_amount === -1 ? Number.POSITIVE_INFINITY : p.class_amount);
  const diff = key(a) - key(b);
  if (diff !== 0) return diff;
  return (a.order ?? 0) - (b.order ?? 0);
}

/** The regular package list of the spec: filtered and ordered. */
export function regularPackages<T extends PackageLike>(packages: readonly T[]): T[] {
  return packages.filter(isRegularPackage).sort(comparePackages);
}

/** The price charged before discounts: the sale price when set, in centavos. */
export function effectivePriceCents(p: Pick<PackageLike, 'price' | 'sale_price'>): number {
  return p.sale_price !== null && p.sale_price !== undefined && p.sale_price !== '' ? toCents(p.sale_price) : toCents(p.price);
}

/** Spec §2: free packages (price 0, not a subscription) show 'Obtener Oferta'. */
export function isFreePackage(p: Pick<PackageLike, 'price' | 'sale_price' | 'is_subscription'>): boolean {
  return !p.is_subscription && effectivePriceCents(p) === 0;
}

const periodWords: Record<string, [string, string]> = {
  day: ['día', 'días'],
  week: ['semana', 'semanas'],
  month: ['mes', 'meses'],
  year: ['año', 'años'],
};

/** 'cada mes', 'cada 3 meses', 'cada año': how often a subscription renews, from its period (not its days: a month is not 30). */
export function renewalPeriodText(p: { subscription_period: string | null; subscription_interval: number | null }): string {
  const words = periodWords[p.subscription_period ?? 'day'] ?? periodWords.day;
  const n = p.subscription_interval ?? 1;
  if (!words) return '';
  return n <= 1 ? `cada ${words[0]}` : `cada ${n} ${words[1]}`;
}

/** 'por mes', 'cada 3 meses', 'por año', 'cada 15 días'; '' when not a subscription. */
export function subscriptionPeriodText(p: Pick<PackageLike, 'is_subscription' | 'subscription_period' | 'subscription_interval'>): string {
  if (!p.is_subscription) return '';
  const words = periodWords[p.subscription_period ?? 'day'] ?? periodWords.day;
  const n = p.subscription_interval ?? 1;
  if (!words) return '';
  return n <= 1 ? `por ${words[0]}` : `cada ${n} ${words[1]}`;
}
