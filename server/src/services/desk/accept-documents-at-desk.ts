import { DomainError, type DeskMutationArgs } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import { acceptDocuments } from '../customer/accept-documents.ts';

export type AcceptDocumentsAtDeskInput = DeskMutationArgs<'acceptDocuments'>;

/**
 * Decision 018: staff showed the customer these documents at the
 * counter and the customer accepted them in person. Recorded through the one
 * acceptance service (acceptDocuments: every id must be a page; an earlier
 * acceptance keeps its date) and in the audit log with the staff member and
 * the desk's time `at` (when it happened, which an offline desk sends later).
 */
export async function acceptDocumentsAtDesk(db: Db, actor: StaffActor, input: AcceptDocumentsAtDeskInput, now: Date = new Date()): Promise<{ page_ids: number[] }> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select({ id: customer.customer_id }).from(customer).where(eq(customer.customer_id, input.customer_id)).limit(1);
    if (!row) throw new DomainError('customer/unknown');
    const pageIds = await acceptDocuments(tx, input.customer_id, input.page_ids, { requireAll: false, versionsRead: input.versions_read });
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'customer.documents.accept-at-desk',
      entity: 'customer',
      entityId: input.customer_id,
      changes: { page_ids: pageIds, at: input.at ?? now.toISOString() },
    });
    return { page_ids: pageIds };
  });
}
