import { DomainError, type DeskMutationArgs } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { markPurchasePaid, type PurchaseRow } from '../checkout/grant-purchase.ts';
import type { MessageContext } from '../messages/message-context.ts';

export type MarkCashPurchasePaidInput = DeskMutationArgs<'markPurchasePaid'>;

/**
 * Cash collected at the desk for a purchase made with 'Efectivo': the same
 * grant path as a card payment (credits, membership, invoice), whose
 * conditional update makes it happen once. Anything but a pending cash
 * purchase (already paid, cancelled, a card purchase) is purchase/not-pending.
 * The receipt links to `messages`' portal.
 */
export async function markCashPurchasePaid(
  db: Db,
  input: MarkCashPurchasePaidInput,
  messages: MessageContext | null,
  now: Date = new Date(),
): Promise<PurchaseRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(purchase).where(eq(purchase.purchase_id, input.purchase_id));
    if (!row) throw new DomainError('purchase/not-found');
    if (row.provider !== 'cash' || row.status !== 'pending') throw new DomainError('purchase/not-pending');
    const { purchase: paid, paidNow } = await markPurchasePaid(tx, row.purchase_id, { now, messages });
    if (!paidNow) throw new DomainError('purchase/not-pending');
    return paid;
  });
}
