import { isOn, type AppConfigMap } from '../appconfig.ts';
import { texts } from '../texts.ts';
import { isUnlimitedCredit, pickCredit, type CreditLike, type CreditTarget } from './credits.ts';

type GuestConfig = Pick<AppConfigMap, 'guest_uses_credit'>;

/** The studio's guest rule (guest_uses_credit): a guest is paid with one more class credit of the booker, or comes free. */
export const guestUsesCredit = (config: GuestConfig): boolean => isOn(config.guest_uses_credit);

/** The guest rule as the customer reads it (booking modal, the demo studio's FAQ). */
export function guestRuleText(config: GuestConfig): string {
  return guestUsesCredit(config) ? texts.booking.guestUsesCredit : texts.booking.guestFree;
}

/**
 * The credit that pays for a guest, after the booker's own place was paid with
 * `bookerCredit`: a class credit (an unlimited membership is its holder's
 * alone), the one that expires first, counting the class the booker's credit
 * just gave. Null when none is left.
 */
export function pickGuestCredit<T extends CreditLike>(credits: readonly T[], target: CreditTarget, bookerCredit: { available_class_id?: number } | null): T | null {
  const left = credits
    .filter((c) => !isUnlimitedCredit(c))
    .map((c) => (bookerCredit && c.available_class_id === bookerCredit.available_class_id ? { ...c, available_classes: c.available_classes - 1 } : c));
  const picked = pickCredit(left, target);
  return picked ? (credits.find((c) => c.available_class_id === picked.available_class_id) ?? null) : null;
}

/** Seats a booking holds: the booker's and the guest's (either may be null). */
export function heldSeats(r: { spot: number | null; guest_spot?: number | null }): number[] {
  return [r.spot, r.guest_spot ?? null].filter((s): s is number => s != null);
}
