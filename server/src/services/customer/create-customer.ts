import { DomainError, type customerCreateInput, type z } from '@estudio/core';
import { and, eq, isNull } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { isUniqueViolation, type Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { DeskOrigin } from '../permissions/staff-permissions.ts';
import { recordOptionalMessagesChoice } from '../messages/preferences.ts';
import { acceptDocuments, missingRequiredDocuments } from './accept-documents.ts';
import type { CustomerRow } from './find-customer.ts';

export type CreateCustomerData = z.output<typeof customerCreateInput>;

/** What a registration may say of the customer besides the desk form's fields (the previous panel's form). */
export interface CreateCustomerProfile {
  instagram?: string | null | undefined;
  birthdate?: string | null | undefined;
  signup_reason?: string | null | undefined;
}

/**
 * POST /api/customer: staff register a first-time walk-in, or an
 * admin a customer, in one transaction: the customer row (no sign-in identity
 * yet), the required documents the customer accepted at the counter, and an
 * audit record naming the staff member. The e-mail and the phone are unique:
 * customer/email-taken and customer/phone-taken (409), also when a concurrent
 * registration wins the race (the unique indexes decide).
 *
 * `documentsPending` (the previous panel, decision 040: an admin registers a
 * customer who is not at the counter): the required documents are not
 * recorded as accepted; the audit row names them as pending and the portal's
 * terms panel asks the customer to accept them at her first sign-in.
 * `profile` (the same form): her Instagram, birthday and how she heard of
 * the studio, stored with the row.
 */
export async function createCustomer(
  db: Db,
  actorId: number,
  data: CreateCustomerData,
  options: { documentsPending?: boolean; profile?: CreateCustomerProfile; desk?: DeskOrigin | undefined } = {},
): Promise<CustomerRow> {
  const given = { birthdate: data.birthdate, ...options.profile };
  const profile = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined && v !== null && v !== ''));
  try {
    return await db.transaction(async (tx) => {
      const [sameEmail] = await tx.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, data.email)).limit(1);
      if (sameEmail) throw new DomainError('customer/email-taken');
      const [samePhone] = await tx
        .select({ id: customer.customer_id })
        .from(customer)
        .where(and(eq(customer.phone, data.phone), isNull(customer.deletedAt)))
        .limit(1);
      if (samePhone) throw new DomainError('customer/phone-taken');
      const [row] = await tx
        .insert(customer)
        .values({ ...profile, uid: null, email: data.email, name: data.name, last_name: data.last_name, phone: data.phone })
        .returning();
      if (!row) throw new Error('insert customer returned no row');
      const accepted = await acceptDocuments(tx, row.customer_id, data.accepted_page_ids, { requireAll: !options.documentsPending });
      const pending = options.documentsPending ? await missingRequiredDocuments(tx, row.customer_id) : [];
      await recordOptionalMessagesChoice(tx, row.customer_id, data.optional_messages === true);
      await recordAudit(tx, {
        actorId,
        desk: options.desk,
        action: 'customer.create',
        entity: 'customer',
        entityId: row.customer_id,
        changes: {
          name: row.name,
          last_name: row.last_name,
          email: row.email,
          phone: row.phone,
          ...profile,
          accepted_page_ids: accepted,
          optional_messages: data.optional_messages === true,
          ...(pending.length ? { documents_pending: pending } : {}),
        },
      });
      return row;
    });
  } catch (error) {
    if (isUniqueViolation(error, 'customer_phone_key')) throw new DomainError('customer/phone-taken');
    if (isUniqueViolation(error, 'customer_email_key')) throw new DomainError('customer/email-taken');
    throw error;
  }
}
