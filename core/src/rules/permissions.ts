import type { Role } from '../schemas/auth.ts';
import { toCents } from './money.ts';

/**
 * What each staff role may do beyond the desk's everyday work (decision 037).
 * One home for the rule, so the server's services (over /api and at a desk's
 * replay) and the desk's dialogs judge alike. The owner sets the limit in the
 * app config (`reception_gift_max_price`, pesos); an administrator is never
 * limited. Refunds stay with administrators (decision 034).
 */
export function mayGift(role: Role, packagePriceCents: number, receptionGiftMaxPrice: string): boolean {
  if (role === 'admin') return true;
  if (role !== 'staff') return false;
  return packagePriceCents <= giftLimitCents(receptionGiftMaxPrice);
}

function giftLimitCents(receptionGiftMaxPrice: string): number {
  try {
    return toCents(receptionGiftMaxPrice || '0');
  } catch {
    return 0;
  }
}

/** A change of a customer's credits as the gift limit weighs it (POST, PUT and DELETE /available_classes, the previous panel's giveClasses). */
export interface CreditChange {
  /** Classes before and after: 0 before for a new credit; -1 is unlimited. */
  classesBefore: number;
  classesAfter: number;
  /** The change makes the credit last longer, or good for more classes or hours (a later or no expiry, no class type, more times). */
  widens: boolean;
}

/**
 * Whether a role may make a credit change (decision 037's limit, applied to
 * credits as to gifts): an administrator always; Recepción may take away, and
 * may give classes worth up to the owner's limit at the price of one class
 * (`classPriceCents`, the studio's single-class package; null when it sells
 * none, and then Recepción gives no classes). Unlimited classes, a longer
 * validity or a wider credit are an administrator's.
 * 'over-limit' and 'admin-only' say why not.
 */
export function mayChangeCredits(role: Role, change: CreditChange, classPriceCents: number | null, receptionGiftMaxPrice: string): true | 'over-limit' | 'admin-only' {
  if (role === 'admin') return true;
  if (role !== 'staff') return 'admin-only';
  if (change.classesAfter === -1 && change.classesBefore !== -1) return 'admin-only';
  if (change.widens) return 'admin-only';
  const given = change.classesBefore === -1 || change.classesAfter === -1 ? 0 : change.classesAfter - change.classesBefore;
  if (given <= 0) return true;
  if (classPriceCents === null) return 'over-limit';
  return given * classPriceCents <= giftLimitCents(receptionGiftMaxPrice) ? true : 'over-limit';
}

/** A reason for a gift, a removal of classes or a revocation: at least 3 letters (as a cancellation's override, decision 017). */
export function isReasonGiven(reason: string | null | undefined): boolean {
  return (reason?.trim().length ?? 0) >= 3;
}
