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

/**
 * A customer's details Recepción may change at the counter (decision 107): who
 * they are and how to reach them (name, phone, Instagram, birth date, photo),
 * the studio's questions (emergency contact, injuries, with the customer's
 * consent for a health answer), and the e-mail of a customer who has no
 * sign-in yet (a walk-in registered at the counter, typed wrong). The e-mail
 * of an account that signs in, the role, the sign-up reason and the address
 * book are an administrator's, as everything is.
 */
export const receptionCustomerFields = ['name', 'last_name', 'phone', 'instagram', 'birthdate', 'file_id', 'custom_fields', 'sensitive_consent'] as const;

/** The Spanish name of a customer field, for a refusal that names it. */
export const customerFieldLabels: Record<string, string> = {
  name: 'Nombre',
  last_name: 'Apellidos',
  phone: 'Teléfono',
  instagram: 'Instagram',
  birthdate: 'Fecha de nacimiento',
  file_id: 'Foto',
  custom_fields: 'Preguntas del estudio',
  sensitive_consent: 'Consentimiento',
  email: 'Correo electrónico',
  role: 'Rol',
  signup_reason: '¿Cómo nos conociste?',
  signup_reason_other: '¿Cómo nos conociste?',
  address_id: 'Dirección',
};

/**
 * The first field of `changed` that `role` may not change on another account
 * (`target.hasSignIn`: it signs in with a password), or null when every one is
 * allowed. Recepción changes customers' details, not the staff's or the
 * coaches' ('role' is answered for those). Customers and coaches change no one else.
 */
export function customerEditRefusal(role: Role, changed: readonly string[], target: { hasSignIn: boolean; role: Role }): string | null {
  if (role === 'admin') return null;
  if (role === 'staff' && target.role !== 'customer' && changed.length > 0) return 'role';
  for (const field of changed) {
    if (role !== 'staff') return field;
    if (field === 'email' && !target.hasSignIn) continue;
    if (!(receptionCustomerFields as readonly string[]).includes(field)) return field;
  }
  return null;
}

/**
 * Who removes a note on a customer: an administrator any note; Recepción the notes it wrote itself (an owner's
 * "debe dinero" stays until the owner says so). A note whose author's account is gone is an administrator's.
 */
export function mayRemoveCustomerNote(role: Role, note: { created_by: number | null }, actorId: number): boolean {
  if (role === 'admin') return true;
  return role === 'staff' && note.created_by === actorId;
}

/**
 * Who closes a shift at the cash drawer: the staff member who opened it, or an administrator (a shift left open by
 * someone who went home). Recepción never closes, nor reads, another person's drawer.
 */
export function mayHandleCashShift(role: Role, shift: { staff_id: number | null }, actorId: number): boolean {
  if (role === 'admin') return true;
  return role === 'staff' && shift.staff_id === actorId;
}
