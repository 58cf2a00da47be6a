import { describe, expect, it } from 'vitest';
import { customerEditRefusal, mayChangeCredits, mayGift, mayHandleCashShift, mayRemoveCustomerNote } from '../../src/rules/permissions.ts';
import { changeDueCents, drawerAmount, drawerDifferenceCents, drawerNoteMissing } from '../../src/schemas/cash-shifts.ts';
import { sortCustomerNotes } from '../../src/schemas/customer-notes.ts';

/** What Recepción may give (decision 037): the owner's price limit, for packages and for credits alike. */
describe('mayGift', () => {
  it('lets an administrator gift anything and Recepción up to the limit, never a customer', () => {
    expect(mayGift('admin', 199_000, '0')).toBe(true);
    expect(mayGift('staff', 18_000, '180')).toBe(true);
    expect(mayGift('staff', 18_001, '180')).toBe(false);
    expect(mayGift('staff', 100, '0')).toBe(false);
    expect(mayGift('customer', 0, '180')).toBe(false);
  });
});

describe('mayChangeCredits', () => {
  const classPrice = 18_000;
  const give = (before: number, after: number, widens = false) => ({ classesBefore: before, classesAfter: after, widens });

  it('lets Recepción give classes worth up to the limit at the price of one class', () => {
    expect(mayChangeCredits('staff', give(0, 1), classPrice, '180')).toBe(true);
    expect(mayChangeCredits('staff', give(0, 2), classPrice, '180')).toBe('over-limit');
    expect(mayChangeCredits('staff', give(3, 5), classPrice, '360')).toBe(true);
    expect(mayChangeCredits('staff', give(0, 10_000), classPrice, '180')).toBe('over-limit');
    expect(mayChangeCredits('staff', give(0, 1), classPrice, '0')).toBe('over-limit');
  });

  it('keeps unlimited classes, longer validity and wider credits for an administrator', () => {
    expect(mayChangeCredits('staff', give(0, -1), classPrice, '99999')).toBe('admin-only');
    expect(mayChangeCredits('staff', give(5, 5, true), classPrice, '99999')).toBe('admin-only');
    expect(mayChangeCredits('admin', give(0, -1), classPrice, '0')).toBe(true);
    expect(mayChangeCredits('admin', give(0, 10_000, true), null, '0')).toBe(true);
  });

  it('lets Recepción take away, and end an unlimited credit', () => {
    expect(mayChangeCredits('staff', give(5, 0), classPrice, '0')).toBe(true);
    expect(mayChangeCredits('staff', give(-1, 0), classPrice, '0')).toBe(true);
    expect(mayChangeCredits('staff', give(5, 2), null, '0')).toBe(true);
  });

  it('gives Recepción no classes when the studio sells no single class to price them', () => {
    expect(mayChangeCredits('staff', give(0, 1), null, '99999')).toBe('over-limit');
  });

  it('refuses anyone who is not staff', () => {
    expect(mayChangeCredits('customer', give(0, 1), classPrice, '99999')).toBe('admin-only');
  });
});

describe("what Recepción may change of a customer (customerEditRefusal)", () => {
  const customer = { hasSignIn: true, role: 'customer' as const };
  it('the contact details, the photo and the studio’s questions; not the role, the sign-up reason or the address book', () => {
    expect(customerEditRefusal('staff', ['name', 'last_name', 'phone', 'instagram', 'birthdate', 'file_id', 'custom_fields', 'sensitive_consent'], customer)).toBeNull();
    expect(customerEditRefusal('staff', ['phone', 'role'], customer)).toBe('role');
    expect(customerEditRefusal('staff', ['signup_reason'], customer)).toBe('signup_reason');
    expect(customerEditRefusal('staff', ['address_id'], customer)).toBe('address_id');
  });
  it('the e-mail only of a customer with no sign-in yet (a walk-in typed wrong at the counter)', () => {
    expect(customerEditRefusal('staff', ['email'], customer)).toBe('email');
    expect(customerEditRefusal('staff', ['email'], { hasSignIn: false, role: 'customer' })).toBeNull();
  });
  it("nothing of the staff's or the coaches' accounts; an administrator anything; a customer or a coach nothing of another", () => {
    expect(customerEditRefusal('staff', ['phone'], { hasSignIn: true, role: 'admin' })).toBe('role');
    expect(customerEditRefusal('staff', ['phone'], { hasSignIn: true, role: 'coach' })).toBe('role');
    expect(customerEditRefusal('admin', ['email', 'role', 'address_id'], customer)).toBeNull();
    expect(customerEditRefusal('customer', ['phone'], customer)).toBe('phone');
    expect(customerEditRefusal('coach', ['name'], customer)).toBe('name');
  });
});

describe('mayRemoveCustomerNote', () => {
  it('an administrator removes any note; Recepción only its own; a coach or a customer none', () => {
    expect(mayRemoveCustomerNote('admin', { created_by: 7 }, 1)).toBe(true);
    expect(mayRemoveCustomerNote('admin', { created_by: null }, 1)).toBe(true);
    expect(mayRemoveCustomerNote('staff', { created_by: 4 }, 4)).toBe(true);
    expect(mayRemoveCustomerNote('staff', { created_by: 7 }, 4)).toBe(false);
    // Its author's account is gone: the owner decides.
    expect(mayRemoveCustomerNote('staff', { created_by: null }, 4)).toBe(false);
    expect(mayRemoveCustomerNote('coach', { created_by: 9 }, 9)).toBe(false);
    expect(mayRemoveCustomerNote('customer', { created_by: 9 }, 9)).toBe(false);
  });

  it('the card lists alerts, then health notes, then notes, the newest first', () => {
    const at = (d: string) => `2026-11-${d}T12:00:00.000Z`;
    const sorted = sortCustomerNotes([
      { customer_note_id: 1, kind: 'note' as const, created_at: at('10') },
      { customer_note_id: 2, kind: 'alert' as const, created_at: at('01') },
      { customer_note_id: 3, kind: 'health' as const, created_at: at('05') },
      { customer_note_id: 4, kind: 'alert' as const, created_at: at('20') },
      // Written offline: a temporary id, the same minute as the alert above.
      { customer_note_id: -1, kind: 'note' as const, created_at: at('10') },
    ]);
    expect(sorted.map((n) => n.customer_note_id)).toEqual([4, 2, 3, 1, -1]);
  });
});

describe('the cash drawer', () => {
  it('Recepción handles its own drawer; an administrator any; nobody else', () => {
    expect(mayHandleCashShift('staff', { staff_id: 4 }, 4)).toBe(true);
    expect(mayHandleCashShift('staff', { staff_id: 7 }, 4)).toBe(false);
    expect(mayHandleCashShift('admin', { staff_id: 7 }, 1)).toBe(true);
    expect(mayHandleCashShift('customer', { staff_id: 4 }, 4)).toBe(false);
  });
  it('reads an amount as typed at the counter, and says what is wrong in Spanish', () => {
    const amount = drawerAmount('el efectivo contado');
    expect(['500', ' $1,250.5 ', 0, '0.00'].map((v) => amount.parse(v))).toEqual(['500.00', '1250.50', '0.00', '0.00']);
    for (const bad of ['-5', 'quinientos', '1.234', '']) {
      expect(amount.safeParse(bad).error?.issues[0]?.message).toBe('Escribe el efectivo contado en pesos, con hasta dos decimales.');
    }
    expect(drawerDifferenceCents('1090.00', '1140.00')).toBe(-5000);
  });
  it('says the change for cash received, and nothing when it does not cover the total', () => {
    expect(changeDueCents(80_000, 100_000)).toBe(20_000);
    expect(changeDueCents(80_000, 80_000)).toBe(0);
    expect(changeDueCents(80_000, 50_000)).toBeNull();
  });
  it('asks why only when the count does not balance', () => {
    expect(drawerNoteMissing(0, null)).toBe(false);
    expect(drawerNoteMissing(-5000, '  ')).toBe(true);
    expect(drawerNoteMissing(2000, 'Propina.')).toBe(false);
  });
});
