import { DomainError, texts, type DeskMutationArgs } from '@estudio/core';
import { customer, type Tx } from '@estudio/db';
import { and, eq, isNull } from 'drizzle-orm';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { acceptDocuments } from '../customer/accept-documents.ts';
import { createCustomer } from '../customer/create-customer.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';

/** What a desk's registration became: the customer's id on the server, and what staff should know about it. */
export interface DeskRegistration {
  created_id: number;
  notice: string | null;
}

/**
 * A first-time walk-in a desk registered (decision 113), usually offline, so the e-mail and the phone were only
 * checked against the desk's copy. A new person is created as POST /api/customer creates one (with the documents
 * accepted at the counter and the activity row). When the e-mail, or else the phone, is already a customer's, that
 * customer is who was at the counter: no second account is made, the desk's later changes go to hers, the documents
 * are recorded as accepted by her, and staff are told which account it was and what was typed, to correct her details.
 * A removed account keeps its e-mail: the registration is refused as online (customer/email-taken).
 */
export async function registerAtDesk(tx: Tx, actor: StaffActor, args: DeskMutationArgs<'registerCustomer'>): Promise<DeskRegistration> {
  const [byEmail] = await tx.select().from(customer).where(eq(customer.email, args.email)).limit(1);
  const [byPhone] = byEmail
    ? []
    : await tx
        .select()
        .from(customer)
        .where(and(eq(customer.phone, args.phone), isNull(customer.deletedAt)))
        .limit(1);
  const existing = byEmail ?? byPhone;
  if (!existing) {
    const row = await createCustomer(tx, actor.customer_id, args, { desk: actor.desk });
    return { created_id: row.customer_id, notice: null };
  }
  if (existing.deletedAt) throw new DomainError('customer/email-taken');
  const accepted = await acceptDocuments(tx, existing.customer_id, args.accepted_page_ids, { requireAll: false });
  const matchedBy = byEmail ? 'email' : 'phone';
  await recordAudit(tx, {
    ...auditedBy(actor),
    action: 'customer.register-matched',
    entity: 'customer',
    entityId: existing.customer_id,
    changes: {
      matched_by: matchedBy,
      typed: { name: args.name, last_name: args.last_name, email: args.email, phone: args.phone },
      accepted_page_ids: accepted,
    },
  });
  const typed = `${args.name} ${args.last_name}`;
  const known = `${existing.name} ${existing.last_name} (${existing.email})`;
  return {
    created_id: existing.customer_id,
    notice: matchedBy === 'email' ? texts.desk.adoptedByEmail(typed, known) : texts.desk.adoptedByPhone(typed, known),
  };
}
