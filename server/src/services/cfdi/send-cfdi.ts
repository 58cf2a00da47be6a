import { fromCents, toCents } from '@estudio/core';
import { cfdiIssued } from '@estudio/core/messages/templates/mexico';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { cfdi, cfdi_global_charge, cfdi_global_product_sale } from '@estudio/db/schema/cfdi';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { PacFailure, type PacClient, type PacInvoice } from '../../providers/invoicing/facturapi.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { creditNoteBody, globalInvoiceBody, personalInvoiceBody } from './build-documents.ts';
import { resolvePac } from './pac-settings.ts';

type CfdiRow = typeof cfdi.$inferSelect;

export interface SenderDeps {
  db: Db;
  config: Pick<Config, 'FACTURAPI_API_BASE'>;
  messages: MessageContext | null;
  log?: { warn: (obj: object, msg: string) => void; error: (obj: object, msg: string) => void } | undefined;
}

/** How long a claim lasts: a global invoice of 5,000 lines is one long call, and its PDF another. */
const leaseMs = 5 * 60_000;
/** A failure the PAC may not repeat (an outage, a timeout) is retried after 30 s, doubling to an hour. */
const backoffMs = (attempts: number) => Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));
/** How often a cancellation the SAT or the receiver has not answered yet is asked about again. */
const cancellationPollMs = 60 * 60_000;

/**
 * Claims due documents (pending ones to stamp, cancellations to ask for) with
 * one conditional UPDATE and a lease, so two processes never send one twice,
 * and a crashed sender's claim lapses and is taken again (idempotency keys
 * make the PAC answer the same document).
 */
async function claimDue(db: Db, now: Date, limit: number): Promise<CfdiRow[]> {
  const due = db
    .select({ id: cfdi.cfdi_id })
    .from(cfdi)
    .where(
      and(
        inArray(cfdi.status, ['pending', 'cancelling']),
        lte(cfdi.next_attempt_at, now),
        or(isNull(cfdi.claimed_until), lt(cfdi.claimed_until, now)),
      ),
    )
    .orderBy(asc(cfdi.cfdi_id))
    .limit(limit);
  return db
    .update(cfdi)
    .set({ claimed_until: new Date(now.getTime() + leaseMs), attempts: sql`${cfdi.attempts} + 1` })
    .where(
      and(
        inArray(cfdi.cfdi_id, due),
        inArray(cfdi.status, ['pending', 'cancelling']),
        or(isNull(cfdi.claimed_until), lt(cfdi.claimed_until, now)),
      ),
    )
    .returning();
}

/**
 * The clock's CFDI sender (job 'cfdi-sender', decision 084): stamps pending
 * invoices, global invoices and credit notes at the PAC, downloads each
 * stamped document's PDF and XML onto it and e-mails them to the customer
 * (the outbox, in the transaction that records the stamp); asks for pending
 * cancellations. Without a PAC key nothing is sent and everything waits.
 * Returns how many documents it finished (stamped, cancelled or refused).
 */
export async function sendDueCfdis(deps: SenderDeps, now: Date = new Date(), limit = 20): Promise<number> {
  const pac = await resolvePac(deps.db, deps.config);
  if (!pac) return 0;
  const claimed = await claimDue(deps.db, now, limit);
  let done = 0;
  for (const doc of claimed) {
    try {
      const finished = doc.status === 'cancelling' ? await cancelAtPac(deps, pac.client, doc, now) : await stampAtPac(deps, pac.client, doc, now);
      if (finished) done += 1;
    } catch (err) {
      const failure = err instanceof PacFailure ? err : null;
      if (!failure) deps.log?.error({ err, cfdiId: doc.cfdi_id }, 'cfdi sender failed');
      await deps.db
        .update(cfdi)
        .set(
          failure?.permanent && doc.status === 'pending'
            ? { status: 'failed', failure_reason: failure.reason, claimed_until: null, updatedAt: now }
            : { failure_reason: failure?.reason ?? 'Error al enviar al proveedor de facturación.', next_attempt_at: new Date(now.getTime() + backoffMs(doc.attempts)), claimed_until: null, updatedAt: now },
        )
        .where(and(eq(cfdi.cfdi_id, doc.cfdi_id), eq(cfdi.claimed_until, doc.claimed_until as Date)));
      if (failure?.permanent && doc.status === 'pending') done += 1;
    }
  }
  return done;
}

async function bodyOf(deps: SenderDeps, doc: CfdiRow): Promise<Record<string, unknown> | null> {
  const settings = await loadStudioSettings(deps.db);
  if (doc.kind === 'global') {
    const lines = await deps.db
      .select({ charge_id: cfdi_global_charge.charge_id, amount: cfdi_global_charge.amount })
      .from(cfdi_global_charge)
      .where(eq(cfdi_global_charge.cfdi_id, doc.cfdi_id))
      .orderBy(asc(cfdi_global_charge.charge_id));
    const products = await deps.db
      .select({ product_sale_id: cfdi_global_product_sale.product_sale_id, amount: cfdi_global_product_sale.amount })
      .from(cfdi_global_product_sale)
      .where(eq(cfdi_global_product_sale.cfdi_id, doc.cfdi_id))
      .orderBy(asc(cfdi_global_product_sale.product_sale_id));
    return globalInvoiceBody(doc, [...lines, ...products], settings);
  }
  if (doc.kind === 'credit_note') {
    const [related] = doc.related_cfdi_id ? await deps.db.select().from(cfdi).where(eq(cfdi.cfdi_id, doc.related_cfdi_id)) : [];
    // A credit note waits for the invoice it corrects to have its folio fiscal.
    if (!related?.uuid) return null;
    return creditNoteBody(doc, related.uuid, settings);
  }
  const [line] = await deps.db
    .select({ title: purchase.title, classAmount: purchase.class_amount, period: purchase.subscription_period, installments: purchase.installments, sub: class_package.is_subscription })
    .from(purchase)
    .innerJoin(class_package, eq(class_package.class_package_id, purchase.class_package_id))
    .where(eq(purchase.purchase_id, doc.purchase_id ?? 0));
  return personalInvoiceBody(
    doc,
    { title: line?.title ?? 'Paquete', membership: Boolean(line?.sub || line?.period || line?.classAmount === -1), installments: line?.installments ?? null },
    settings,
  );
}

async function stampAtPac(deps: SenderDeps, pac: PacClient, doc: CfdiRow, now: Date): Promise<boolean> {
  let stamped: PacInvoice;
  if (doc.provider_id) stamped = await pac.retrieveInvoice(doc.provider_id);
  else {
    const body = await bodyOf(deps, doc);
    if (!body) {
      await deps.db
        .update(cfdi)
        .set({ next_attempt_at: new Date(now.getTime() + 60_000), claimed_until: null })
        .where(eq(cfdi.cfdi_id, doc.cfdi_id));
      return false;
    }
    stamped = await pac.createInvoice(body);
  }
  if (stamped.status !== 'valid') {
    // Stamping asynchronously (the PAC's queue): the document is read again later by its id.
    await deps.db
      .update(cfdi)
      .set({ provider_id: stamped.id, next_attempt_at: new Date(now.getTime() + 60_000), claimed_until: null, updatedAt: now })
      .where(eq(cfdi.cfdi_id, doc.cfdi_id));
    return false;
  }
  const [pdf, xml] = await Promise.all([pac.downloadPdf(stamped.id), pac.downloadXml(stamped.id)]);
  await deps.db.transaction(async (tx) => {
    const [current] = await tx.select().from(cfdi).where(eq(cfdi.cfdi_id, doc.cfdi_id)).for('update');
    if (!current) return;
    // A refund while it was being stamped cancelled it here: now that the SAT has it, it is cancelled there too.
    const cancelledMeanwhile = current.status === 'cancelled' || current.status === 'cancelling';
    const [row] = await tx
      .update(cfdi)
      .set({
        status: cancelledMeanwhile ? 'cancelling' : 'stamped',
        cancel_motive: cancelledMeanwhile ? (current.cancel_motive ?? '03') : current.cancel_motive,
        provider_id: stamped.id,
        uuid: stamped.uuid,
        series: stamped.series,
        folio: stamped.folio_number,
        xml,
        pdf_base64: pdf.toString('base64'),
        failure_reason: null,
        stampedAt: now,
        claimed_until: null,
        next_attempt_at: now,
        updatedAt: now,
      })
      .where(eq(cfdi.cfdi_id, doc.cfdi_id))
      .returning();
    // A partial refund while it was being stamped lowered its total here: the SAT has the whole, so a credit note says the rest.
    if (row && !cancelledMeanwhile && toCents(current.total) < toCents(doc.total)) {
      await tx.update(cfdi).set({ total: doc.total }).where(eq(cfdi.cfdi_id, doc.cfdi_id));
      await tx.insert(cfdi).values({
        kind: 'credit_note',
        status: 'pending',
        charge_id: doc.charge_id,
        purchase_id: doc.purchase_id,
        customer_id: doc.customer_id,
        related_cfdi_id: doc.cfdi_id,
        receiver: doc.receiver,
        total: fromCents(toCents(doc.total) - toCents(current.total)),
        payment_form: doc.payment_form,
        next_attempt_at: now,
        createdAt: now,
        updatedAt: now,
      });
    }
    if (row && !cancelledMeanwhile && row.kind !== 'global' && row.customer_id && deps.messages) await queueIssuedMessage(tx, deps.messages, { ...row, total: doc.total });
  });
  return true;
}

/** The stamped invoice (or credit note) by e-mail, PDF and XML attached; once per document. */
async function queueIssuedMessage(tx: Db, messages: MessageContext, row: CfdiRow): Promise<void> {
  const [who] = await tx.select({ name: customer.name }).from(customer).where(eq(customer.customer_id, row.customer_id as number));
  const [p] = row.purchase_id ? await tx.select({ title: purchase.title }).from(purchase).where(eq(purchase.purchase_id, row.purchase_id)) : [];
  const base = `${row.series ?? ''}${row.folio ?? row.cfdi_id}`;
  await queueCustomerMessage(tx, messages, {
    customerId: row.customer_id as number,
    channels: ['email'],
    dedupeKey: `cfdi:${row.cfdi_id}`,
    parts: cfdiIssued({
      name: who?.name?.trim() || null,
      kind: row.kind === 'credit_note' ? 'credit_note' : 'invoice',
      title: p?.title ?? 'tu compra',
      uuid: row.uuid ?? '',
      series: row.series,
      folio: row.folio,
      total: row.total,
      legalName: row.receiver.legal_name,
      rfc: row.receiver.rfc,
      attachments: [
        { filename: `${base}.pdf`, contentType: 'application/pdf', content: row.pdf_base64 ?? '', encoding: 'base64' },
        { filename: `${base}.xml`, contentType: 'application/xml', content: row.xml ?? '' },
      ],
      purchasesUrl: `${messages.publicUrl}/mystudio/membresias`,
    }),
  });
}

/**
 * A cancellation at the PAC with its SAT motive: cancelled at once, or
 * waiting for the receiver (an invoice to a person over $1,000 MXN) or the SAT
 * ('cancelling' with facturapi's cancellation_status, asked again hourly); a
 * receiver who rejects it leaves the invoice valid, with the reason for staff.
 */
async function cancelAtPac(deps: SenderDeps, pac: PacClient, doc: CfdiRow, now: Date): Promise<boolean> {
  if (!doc.provider_id) {
    // Never reached the SAT: nothing to cancel there.
    await deps.db.update(cfdi).set({ status: 'cancelled', cancelledAt: now, claimed_until: null, updatedAt: now }).where(eq(cfdi.cfdi_id, doc.cfdi_id));
    return true;
  }
  const answer = doc.cancellation_status ? await pac.retrieveInvoice(doc.provider_id) : await pac.cancelInvoice(doc.provider_id, doc.cancel_motive ?? '02');
  return recordCancellation(deps.db, doc.cfdi_id, answer, now);
}

/** What the PAC says of a cancellation (its answer, a webhook, a poll), recorded on the document. */
export async function recordCancellation(db: Db, cfdiId: number, answer: Pick<PacInvoice, 'status' | 'cancellation_status'>, now: Date): Promise<boolean> {
  if (answer.status === 'canceled' || answer.cancellation_status === 'accepted') {
    await db.update(cfdi).set({ status: 'cancelled', cancellation_status: 'accepted', cancelledAt: now, claimed_until: null, updatedAt: now }).where(eq(cfdi.cfdi_id, cfdiId));
    return true;
  }
  if (answer.cancellation_status === 'rejected' || answer.cancellation_status === 'expired') {
    await db
      .update(cfdi)
      .set({
        status: 'stamped',
        cancellation_status: answer.cancellation_status,
        failure_reason: answer.cancellation_status === 'rejected' ? 'El cliente rechazó la cancelación ante el SAT.' : 'El cliente no respondió la solicitud de cancelación a tiempo.',
        claimed_until: null,
        updatedAt: now,
      })
      .where(eq(cfdi.cfdi_id, cfdiId));
    return true;
  }
  await db
    .update(cfdi)
    .set({ cancellation_status: answer.cancellation_status ?? 'verifying', next_attempt_at: new Date(now.getTime() + cancellationPollMs), claimed_until: null, updatedAt: now })
    .where(eq(cfdi.cfdi_id, cfdiId));
  return false;
}
