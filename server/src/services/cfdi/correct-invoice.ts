import { fromCents, invoiceCorrection, studioTimeZone, toCents } from '@estudio/core';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { cfdi, cfdi_global_charge, cfdi_global_product_sale } from '@estudio/db/schema/cfdi';
import { invoice } from '@estudio/db/schema/purchases';
import type { Tx } from '@estudio/db';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

/**
 * Money given back of a sale (a refund) or a sale annulled (a revocation),
 * told to its CFDI in the same transaction (decision 086), by core's
 * invoiceCorrection: a personal invoice of the year fully undone is cancelled
 * with motive 03 ("no se llevó a cabo la operación"), asked of the PAC by the
 * sender (one never stamped is simply dropped); a partial refund, or one after
 * its year, gets a credit note (egreso) related to the invoice. A sale already
 * on a global invoice gets a credit note to the public in general related to
 * that global invoice. A sale on no invoice needs nothing: the global invoice
 * leaves out what was given back.
 */
export async function correctInvoiceOfReturn(tx: Tx, input: { purchaseId: number; returnedCents: number; now: Date }): Promise<void> {
  if (input.returnedCents <= 0) return;
  const [charge] = await tx
    .select()
    .from(invoice)
    .where(and(eq(invoice.purchase_id, input.purchaseId), eq(invoice.status, 'completed')))
    .orderBy(sql`${invoice.paidAt} desc nulls last`, sql`${invoice.invoice_id} desc`)
    .limit(1);
  if (!charge) return;
  const tz = studioTimeZone(await loadStudioSettings(tx));
  const [own] = await tx
    .select()
    .from(cfdi)
    .where(and(eq(cfdi.charge_id, charge.invoice_id), eq(cfdi.kind, 'invoice'), ne(cfdi.status, 'cancelled')))
    .for('update');
  if (own?.status === 'cancelling') return;
  if (own) {
    const returned = Math.min(input.returnedCents, toCents(own.total));
    if ((own.status === 'pending' || own.status === 'failed') && !own.provider_id) {
      // Never reached the SAT: it is stamped for what was kept, or dropped when nothing was.
      const kept = toCents(own.total) - returned;
      await tx
        .update(cfdi)
        .set(kept > 0 ? { total: fromCents(kept), updatedAt: input.now } : { status: 'cancelled', cancel_motive: '03', cancelledAt: input.now, updatedAt: input.now })
        .where(eq(cfdi.cfdi_id, own.cfdi_id));
      return;
    }
    const fix = invoiceCorrection({ issuedAt: own.stampedAt ?? own.createdAt, now: input.now, returnedCents: returned, invoicedCents: toCents(own.total), tz });
    if (fix.kind === 'cancel') {
      await tx.update(cfdi).set({ status: 'cancelling', cancel_motive: fix.motive, next_attempt_at: input.now, updatedAt: input.now }).where(eq(cfdi.cfdi_id, own.cfdi_id));
      return;
    }
    await tx.insert(cfdi).values({
      kind: 'credit_note',
      status: 'pending',
      charge_id: charge.invoice_id,
      purchase_id: input.purchaseId,
      customer_id: own.customer_id,
      related_cfdi_id: own.cfdi_id,
      receiver: own.receiver,
      total: fromCents(returned),
      payment_form: own.payment_form,
      next_attempt_at: input.now,
      createdAt: input.now,
      updatedAt: input.now,
    });
    return;
  }
  const [line] = await tx
    .select({ cfdiId: cfdi_global_charge.cfdi_id, amount: cfdi_global_charge.amount, receiver: cfdi.receiver, form: cfdi.payment_form })
    .from(cfdi_global_charge)
    .innerJoin(cfdi, eq(cfdi.cfdi_id, cfdi_global_charge.cfdi_id))
    .where(and(eq(cfdi_global_charge.charge_id, charge.invoice_id), inArray(cfdi.status, ['pending', 'stamped', 'failed'])));
  if (line) await creditNoteToGlobal(tx, line, input, { charge_id: charge.invoice_id, purchase_id: input.purchaseId });
}

/** A line of a global invoice whose money came back, as read with its invoice. */
interface GlobalLine {
  cfdiId: number;
  amount: string;
  receiver: typeof cfdi.$inferSelect.receiver;
  form: string;
}

/** A credit note to the public in general, related to the global invoice the line is on, for at most the line's amount. */
async function creditNoteToGlobal(tx: Tx, line: GlobalLine, input: { returnedCents: number; now: Date }, sale: { charge_id?: number; purchase_id?: number }): Promise<void> {
  await tx.insert(cfdi).values({
    kind: 'credit_note',
    status: 'pending',
    ...sale,
    customer_id: null,
    related_cfdi_id: line.cfdiId,
    receiver: line.receiver,
    total: fromCents(Math.min(input.returnedCents, toCents(line.amount))),
    payment_form: line.form,
    next_attempt_at: input.now,
    createdAt: input.now,
    updatedAt: input.now,
  });
}

/**
 * Units of a counter sale brought back (decision 115), told to the global invoice in the same transaction: a product
 * sale is only ever on a global invoice (decision 114), so one already on it gets a credit note to the public in
 * general related to that invoice; one not yet on it needs nothing (its period's invoice leaves out what came back).
 */
export async function correctGlobalInvoiceOfProductReturn(tx: Tx, input: { productSaleId: number; returnedCents: number; now: Date }): Promise<void> {
  if (input.returnedCents <= 0) return;
  const [line] = await tx
    .select({ cfdiId: cfdi_global_product_sale.cfdi_id, amount: cfdi_global_product_sale.amount, receiver: cfdi.receiver, form: cfdi.payment_form })
    .from(cfdi_global_product_sale)
    .innerJoin(cfdi, eq(cfdi.cfdi_id, cfdi_global_product_sale.cfdi_id))
    .where(and(eq(cfdi_global_product_sale.product_sale_id, input.productSaleId), inArray(cfdi.status, ['pending', 'stamped', 'failed'])));
  if (line) await creditNoteToGlobal(tx, line, input, {});
}
