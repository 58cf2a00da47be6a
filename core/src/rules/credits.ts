import { localTimeHHmm, toMs, type DateInput } from './time.ts';

/** A credit row as the rule needs it (database row, API output or desk replica). */
export interface CreditLike {
  available_class_id?: number;
  /** -1 means unlimited. */
  available_classes: number;
  expiration_date: DateInput | null;
  class_type_id: number | null;
  /** Comma list of local start times 'HH:mm'; null or empty: any time. */
  allowed_times: string | null;
  deletedAt?: DateInput | null;
}

export interface CreditTarget {
  classTypeId: number;
  classDate: DateInput;
  timeZone: string;
}

export const isUnlimitedCredit = (credit: Pick<CreditLike, 'available_classes'>): boolean => credit.available_classes === -1;

/** The allowed start times of a credit, or null for any time. */
export function allowedTimes(value: string | null | undefined): string[] | null {
  const times = (value ?? '')
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
  return times.length ? times : null;
}

/**
 * Can this credit pay for the class? It must have classes left (or be
 * unlimited), not be deleted, still be valid when the class starts, match the
 * class type when restricted, and list the class's local start time when
 * restricted to times.
 */
export function isCreditUsable(credit: CreditLike, target: CreditTarget): boolean {
  if (credit.deletedAt) return false;
  if (!(credit.available_classes > 0 || isUnlimitedCredit(credit))) return false;
  if (credit.expiration_date != null && toMs(credit.expiration_date) <= toMs(target.classDate)) return false;
  if (credit.class_type_id != null && credit.class_type_id !== target.classTypeId) return false;
  const times = allowedTimes(credit.allowed_times);
  if (times && !times.includes(localTimeHHmm(target.classDate, target.timeZone))) return false;
  return true;
}

/**
 * What the customer has to book one class with (the booking modal says it
 * before the tap): an unlimited membership that can pay for it, or how many
 * classes her usable credits hold.
 */
export function creditsForClass(credits: readonly CreditLike[], target: CreditTarget): { unlimited: boolean; classes: number } {
  const usable = credits.filter((c) => isCreditUsable(c, target));
  return { unlimited: usable.some(isUnlimitedCredit), classes: usable.reduce((sum, c) => sum + (isUnlimitedCredit(c) ? 0 : c.available_classes), 0) };
}

/**
 * The credit a booking consumes: among the usable ones, the one that expires
 * first (no expiry last), so credits about to lapse are spent before others.
 * Ties go to the older row.
 */
export function pickCredit<T extends CreditLike>(credits: readonly T[], target: CreditTarget): T | null {
  const usable = credits.filter((c) => isCreditUsable(c, target));
  usable.sort((a, b) => {
    const ea = a.expiration_date == null ? Number.POSITIVE_INFINITY : toMs(a.expiration_date);
    const eb = b.expiration_date == null ? Number.POSITIVE_INFINITY : toMs(b.expiration_date);
    if (ea !== eb) return ea < eb ? -1 : 1;
    return (a.available_class_id ?? 0) - (b.available_class_id ?? 0);
  });
  return usable[0] ?? null;
}

/**
 * The credits that can pay for a class: a special class (one of a package)
 * takes only that package's credits; other classes never take a special
 * package's credits.
 */
export function creditsMatchingPackage<T>(rows: readonly { credit: T; package_id: number | null; special: boolean | null }[], classPackageId: number | null): T[] {
  return rows.filter((r) => (classPackageId !== null ? r.package_id === classPackageId : !r.special)).map((r) => r.credit);
}
