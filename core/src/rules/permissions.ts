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
  let limit: number;
  try {
    limit = toCents(receptionGiftMaxPrice || '0');
  } catch {
    limit = 0;
  }
  return packagePriceCents <= limit;
}

/** A reason for a gift, a removal of classes or a revocation: at least 3 letters (as a cancellation's override, decision 017). */
export function isReasonGiven(reason: string | null | undefined): boolean {
  return (reason?.trim().length ?? 0) >= 3;
}
