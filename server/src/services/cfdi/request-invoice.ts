import { DomainError, formatDate, invoiceRequestDeadline, studioTimeZone, taxProfileProblem, taxProfileProblemText, type TaxProfileBody } from '@estudio/core';
import { and, eq, ne, sql } from 'drizzle-orm';
import { cfdi, cfdi_global_charge, tax_profile, type CfdiReceiver } from '@estudio/db/schema/cfdi';
import { customer } from '@estudio/db/schema/customer';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import type { Tx } from '@estudio/db';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { lockCustomer } from '../reservations/booking-locks.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { paymentKindOf } from '../reports/payment-kind.ts';
import { cfdiOn, invoiceableCharge, satPaymentFormOf } from './charges.ts';
import { assertTaxProfile } from './tax-profile.ts';

export interface RequestInvoiceInput {
  purchaseId: number;
  /** Whose purchase it must be (the customer asking); null when staff issue it at the desk. */
  ownerId: number | null;
  /** Who asks: the customer, or the staff member at the desk (audited). */
  actorId: number;
  /** A tax profile typed at the desk for this invoice; otherwise the customer's own from Mi Información. */
  profile?: TaxProfileBody | undefined;
  now?: Date;
}

/**
 * "Solicitar factura" (decision 084): an invoice for the purchase's latest
 * paid charge, to the customer's tax profile, kept as a pending CFDI that the
 * clock's sender stamps (at once when a PAC is configured; when one is, if
 * not). In one transaction: the customer's lock, then the charge's row lock,
 * which the global invoice takes too, so a charge goes on one of them only;
 * two requests at once store one invoice (the partial unique index on
 * charge_id) and both answer it. Refused with the reason in Spanish: not paid,
 * nothing paid, annulled, out of its window, already on a global invoice, no
 * or an inconsistent tax profile. A request that failed at the PAC is sent
 * again with the profile as it is now.
 */
export async function requestInvoice(db: Db, input: RequestInvoiceInput): Promise<typeof cfdi.$inferSelect> {
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const [p] = await tx.select().from(purchase).where(eq(purchase.purchase_id, input.purchaseId));
    if (!p || (input.ownerId !== null && p.customer_id !== input.ownerId)) throw new DomainError('purchase/not-found');
    await lockCustomer(tx, p.customer_id);
    const settings = await loadStudioSettings(tx);
    if (!cfdiOn(settings)) throw new DomainError('checkout/method-unavailable', 'El estudio no emite facturas en línea; pídela en recepción.');
    if (p.status === 'pending' || p.status === 'failed') throw new DomainError('invoice/not-paid');
    if (p.is_gift) throw new DomainError('invoice/nothing-to-invoice');
    if (p.status === 'revoked') throw new DomainError('invoice/cancelled-sale');
    const [charge] = await tx
      .select({ charge: invoice, kind: paymentKindOf })
      .from(invoice)
      .innerJoin(purchase, eq(purchase.purchase_id, invoice.purchase_id))
      .where(and(eq(invoice.purchase_id, p.purchase_id), invoiceableCharge()))
      .orderBy(sql`${invoice.paidAt} desc nulls last`, sql`${invoice.invoice_id} desc`)
      .limit(1)
      .for('update', { of: invoice });
    if (!charge) throw new DomainError('invoice/nothing-to-invoice');
    const chargeId = charge.charge.invoice_id;
    const [live] = await tx
      .select()
      .from(cfdi)
      .where(and(eq(cfdi.charge_id, chargeId), eq(cfdi.kind, 'invoice'), ne(cfdi.status, 'cancelled')));
    if (live && live.status !== 'failed') return live;
    const [global] = await tx.select({ id: cfdi_global_charge.cfdi_id }).from(cfdi_global_charge).where(eq(cfdi_global_charge.charge_id, chargeId));
    if (global) throw new DomainError('invoice/in-global');
    const tz = studioTimeZone(settings);
    const deadline = invoiceRequestDeadline(charge.charge.paidAt ?? charge.charge.createdAt, settings.cfdi_request_days, tz);
    // Staff may issue one at the desk a little late only through the same rule: the window is the studio's promise.
    if (deadline.getTime() <= now.getTime()) {
      throw new DomainError('invoice/window-closed', `El plazo para pedir la factura de esta compra terminó el ${formatDate(new Date(deadline.getTime() - 1), tz)}; la venta va en la factura global del estudio.`);
    }
    const receiver = await receiverFor(tx, p.customer_id, input.profile);
    const values = {
      kind: 'invoice' as const,
      status: 'pending' as const,
      charge_id: chargeId,
      purchase_id: p.purchase_id,
      customer_id: p.customer_id,
      receiver,
      total: charge.charge.total_payment,
      payment_form: satPaymentFormOf(charge.kind, p.payment_channel),
      requested_by: input.actorId,
      failure_reason: null,
      next_attempt_at: now,
      updatedAt: now,
    };
    let row;
    if (live) {
      [row] = await tx.update(cfdi).set(values).where(eq(cfdi.cfdi_id, live.cfdi_id)).returning();
    } else {
      [row] = await tx
        .insert(cfdi)
        .values({ ...values, createdAt: now })
        .onConflictDoNothing()
        .returning();
      if (!row) [row] = await tx.select().from(cfdi).where(and(eq(cfdi.charge_id, chargeId), eq(cfdi.kind, 'invoice'), ne(cfdi.status, 'cancelled')));
    }
    if (!row) throw new DomainError('internal');
    if (input.actorId !== p.customer_id) {
      await recordAudit(tx, {
        actorId: input.actorId,
        action: 'cfdi.request',
        entity: 'customer',
        entityId: p.customer_id,
        changes: { purchase_id: p.purchase_id, title: p.title, cfdi_id: row.cfdi_id, rfc: receiver.rfc },
      });
    }
    return row;
  });
}

/** The receiver of the invoice: the profile typed at the desk, else the customer's own, checked as the SAT will. */
async function receiverFor(tx: Tx, customerId: number, typed: TaxProfileBody | undefined): Promise<CfdiReceiver> {
  const [who] = await tx.select({ email: customer.email }).from(customer).where(eq(customer.customer_id, customerId));
  if (typed) {
    const v = assertTaxProfile(typed);
    return { ...v, email: v.email ?? who?.email ?? null };
  }
  const [profile] = await tx.select().from(tax_profile).where(eq(tax_profile.customer_id, customerId));
  if (!profile) throw new DomainError('tax-profile/missing');
  const problem = taxProfileProblem(profile);
  if (problem) throw Object.assign(new DomainError('tax-profile/invalid', taxProfileProblemText(problem)), { field: problem.field });
  return {
    rfc: profile.rfc,
    legal_name: profile.legal_name,
    tax_regime: profile.tax_regime,
    cfdi_use: profile.cfdi_use,
    postcode: profile.postcode,
    email: profile.email ?? who?.email ?? null,
  };
}
