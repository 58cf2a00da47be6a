import { and, eq, isNull, ne } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { DomainError } from '@estudio/core';
import { isUniqueViolation, type Db } from '../../db.ts';
import { assertOwnAddress } from '../addresses/addresses.ts';
import { assertFileUsable } from '../files/file-use.ts';
import { saveCustomerAnswers } from './customer-answers.ts';
import type { CustomerRow } from './find-customer.ts';

export interface CustomerProfileChanges {
  name?: string | undefined;
  last_name?: string | undefined;
  phone?: string | undefined;
  instagram?: string | null | undefined;
  birthdate?: string | null | undefined;
  signup_reason?: string | null | undefined;
  signup_reason_other?: string | null | undefined;
  file_id?: number | null | undefined;
  address_id?: number | null | undefined;
  /** Answers to the studio's questions (decision 087), by key; keys not sent are kept. */
  custom_fields?: Record<string, unknown> | undefined;
  sensitive_consent?: boolean | undefined;
}

/**
 * Saves the customer's own profile. Only the profile fields can change here;
 * e-mail, role and membership belong to other flows, and the related lists
 * and invoices the portal may send are dropped by the input schema. The
 * address and the profile image must be the customer's own.
 */
export async function updateCustomer(db: Db, customerId: number, changes: CustomerProfileChanges): Promise<CustomerRow> {
  const set: Partial<typeof customer.$inferInsert> = {};
  for (const key of ['name', 'last_name', 'instagram', 'birthdate', 'signup_reason', 'signup_reason_other', 'file_id'] as const) {
    if (changes[key] !== undefined) Object.assign(set, { [key]: changes[key] });
  }
  if (changes.phone !== undefined) set.phone = changes.phone || null;
  if (changes.address_id !== undefined) set.address_id = changes.address_id;
  // The 'other' text belongs to the 'Otro' answer only; another answer clears it.
  if (changes.signup_reason !== undefined && changes.signup_reason !== 'Otro') set.signup_reason_other = null;
  try {
    return await db.transaction(async (tx) => {
      if (set.address_id) await assertOwnAddress(tx, customerId, set.address_id);
      if (set.file_id) await assertFileUsable(tx, set.file_id, { for: 'customer', customerId }, 'image');
      if (set.phone) {
        const [other] = await tx
          .select({ customer_id: customer.customer_id })
          .from(customer)
          .where(and(eq(customer.phone, set.phone), ne(customer.customer_id, customerId), isNull(customer.deletedAt)))
          .limit(1);
        if (other) throw new DomainError('customer/phone-taken');
      }
      const [row] = await tx
        .update(customer)
        .set({ ...set, updatedAt: new Date() })
        .where(eq(customer.customer_id, customerId))
        .returning();
      if (!row) throw new DomainError('customer/not-found');
      await saveCustomerAnswers(tx, customerId, changes.custom_fields, changes.sensitive_consent, { profile: row });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'customer_phone_key')) throw new DomainError('customer/phone-taken');
    throw error;
  }
}
