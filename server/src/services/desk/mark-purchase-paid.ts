import { DomainError, type DeskMutationArgs } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { openShiftFor } from '../cash/cash-shifts.ts';
import { markPurchasePaid, type PurchaseRow } from '../checkout/grant-purchase.ts';
import type { MessageContext } from '../messages/message-context.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';

export type MarkCashPurchasePaidInput = DeskMutationArgs<'markPurchasePaid'>;

/**
 * Money collected at the desk for a purchase made with 'Efectivo' (the desk's
 * Marcar pagado and PUT /api/purchases/{id}/paid): in cash, or as a bank
 * transfer (`paid_with`; only cash is drawer cash). The same grant path as a
 * card payment (credits, membership, invoice, every cap checked again), whose
 * conditional update makes it happen once. Anything but a pending cash
 * purchase (already paid, cancelled, a card purchase) is purchase/not-pending.
 * Who collected it, how and from which desk goes to the activity log in the
 * payment's transaction. The receipt links to `messages`' portal.
 */
export async function markCashPurchasePaid(
  db: Db,
  actor: StaffActor,
  input: MarkCashPurchasePaidInput,
  messages: MessageContext | null,
  now: Date = new Date(),
): Promise<PurchaseRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(purchase).where(eq(purchase.purchase_id, input.purchase_id));
    if (!row) throw new DomainError('purchase/not-found');
    // An OXXO voucher or a SPEI transfer is paid by Stripe when the money arrives, never by hand (decision 080).
    if (row.payment_channel) throw new DomainError('purchase/not-pending', 'Esta compra se paga con su ficha OXXO o su transferencia SPEI y se confirma sola cuando llega el dinero; no se marca pagada a mano.');
    if (row.provider !== 'cash' || row.status !== 'pending') throw new DomainError('purchase/not-pending');
    const { purchase: paid, paidNow } = await markPurchasePaid(tx, row.purchase_id, { now, messages, paidWith: input.paid_with });
    if (!paidNow) throw new DomainError('purchase/not-pending');
    // Collected at the counter: it goes into (or, a transfer, beside) the collector's open drawer.
    const cashShiftId = await openShiftFor(tx, actor.customer_id, actor.desk?.at ?? now);
    if (cashShiftId !== null) await tx.update(purchase).set({ cash_shift_id: cashShiftId }).where(eq(purchase.purchase_id, paid.purchase_id));
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'purchase.mark-paid',
      entity: 'customer',
      entityId: paid.customer_id,
      changes: { purchase_id: paid.purchase_id, title: paid.title, total_payment: paid.total_payment, paid_with: input.paid_with },
    });
    return paid;
  });
}
