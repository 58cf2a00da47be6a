import { and, eq, isNull, or } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { DomainError } from '@estudio/core';
import { isUniqueViolation, type Db } from '../../db.ts';
import { assertFileUsable } from '../files/file-use.ts';
import { welcome } from '@estudio/core/messages/templates/account';
import type { MessageContext } from '../messages/message-context.ts';
import { recordOptionalMessagesChoice } from '../messages/preferences.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { acceptDocuments } from './accept-documents.ts';
import { saveCustomerAnswers } from './customer-answers.ts';
import type { CustomerRow } from './find-customer.ts';

export interface CustomerSignupData {
  name: string;
  last_name: string;
  phone: string;
  email: string;
  instagram?: string | null | undefined;
  birthdate?: string | null | undefined;
  signup_reason?: string | null | undefined;
  signup_reason_other?: string | null | undefined;
  file_id?: number | null | undefined;
  accepted_page_ids: number[];
  /** Answers to the studio's questions of the sign-up form (decision 087). */
  custom_fields?: Record<string, unknown> | undefined;
  sensitive_consent?: boolean | undefined;
  /** Her yes to the optional messages; absent is no. */
  optional_messages?: boolean | undefined;
}

/**
 * Creates the customer row of a signed-in identity and records the pages it
 * accepted, in one transaction. 409 'customer/already-exists' when the
 * identity or the e-mail already has a customer, 409 'customer/phone-taken'
 * when the phone does; every required page must be among the accepted ones;
 * a profile picture must be a file the new customer may use (assertFileUsable).
 */
export async function signUpCustomer(
  db: Db,
  identity: { uid: string; email: string | null },
  data: CustomerSignupData,
  messages: MessageContext | null = null,
): Promise<CustomerRow> {
  // The identity's e-mail wins: the account is whatever the sign-in provider verified.
  const email = identity.email ?? data.email;
  const phone = data.phone || null;
  try {
    return await db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ customer_id: customer.customer_id })
        .from(customer)
        .where(or(eq(customer.uid, identity.uid), eq(customer.email, email)))
        .limit(1);
      if (existing) throw new DomainError('customer/already-exists');
      if (phone) {
        const [samePhone] = await tx
          .select({ customer_id: customer.customer_id })
          .from(customer)
          .where(and(eq(customer.phone, phone), isNull(customer.deletedAt)))
          .limit(1);
        if (samePhone) throw new DomainError('customer/phone-taken');
      }

      const [row] = await tx
        .insert(customer)
        .values({
          uid: identity.uid,
          email,
          name: data.name,
          last_name: data.last_name,
          phone,
          instagram: data.instagram ?? null,
          birthdate: data.birthdate ?? null,
          signup_reason: data.signup_reason ?? null,
          signup_reason_other: data.signup_reason_other ?? null,
          file_id: data.file_id ?? null,
        })
        .returning();
      if (!row) throw new Error('insert customer returned no row');
      // A profile picture named by id must be one this new customer may use (never another customer's upload).
      if (row.file_id !== null) await assertFileUsable(tx, row.file_id, { for: 'customer', customerId: row.customer_id }, 'image');
      await acceptDocuments(tx, row.customer_id, data.accepted_page_ids, { requireAll: true, refusal: 'customer/terms-not-accepted' });
      await saveCustomerAnswers(tx, row.customer_id, data.custom_fields, data.sensitive_consent, { profile: row, signingUp: true });
      await recordOptionalMessagesChoice(tx, row.customer_id, data.optional_messages === true);
      if (messages) await queueWelcome(tx, messages, row);
      return row;
    });
  } catch (error) {
    // A concurrent sign-up got there first; the unique indexes decide which rule it broke.
    if (isUniqueViolation(error, 'customer_phone_key')) throw new DomainError('customer/phone-taken');
    if (isUniqueViolation(error)) throw new DomainError('customer/already-exists');
    throw error;
  }
}


/** The welcome after sign-up, in the sign-up's transaction: the account is ready, and the next step. */
async function queueWelcome(tx: Db, ctx: MessageContext, row: CustomerRow): Promise<void> {
  const settings = await loadStudioSettings(tx);
  await queueCustomerMessage(tx, ctx, {
    customerId: row.customer_id,
    dedupeKey: `welcome:${row.customer_id}`,
    parts: welcome({
      name: row.name.trim() || null,
      businessName: settings.business_name,
      calendarUrl: `${ctx.publicUrl}/mystudio`,
      packagesUrl: `${ctx.publicUrl}${settings.class_packages_path || '/mystudio/paquetes'}`,
      packagesName: settings.class_packages_name || 'Paquetes',
      // A new account has nothing to book with yet; a desk-registered one signs up through the claim link instead.
      hasCredits: false,
    }),
  });
}
