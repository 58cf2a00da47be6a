import { and, eq, or } from 'drizzle-orm';
import type Stripe from 'stripe';
import { processed_webhook_event } from '@estudio/db/schema/payments';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import type { Tx } from '@estudio/db';
import type { Db } from '../../db.ts';
import { endAccessNow, markPurchaseFailed, markPurchasePaid, recordRenewal, type PurchaseRow } from './grant-purchase.ts';

const cents = (n: number | null | undefined) => ((n ?? 0) / 100).toFixed(2);
const idOf = (v: string | { id: string } | null | undefined) => (v ? (typeof v === 'string' ? v : v.id) : null);

async function purchaseByMetadata(tx: Tx, metadata: Record<string, string> | null | undefined, where: ReturnType<typeof eq> | undefined): Promise<PurchaseRow | null> {
  const fromMeta = Number(metadata?.purchase_id);
  const conditions = [where, Number.isInteger(fromMeta) && fromMeta > 0 ? eq(purchase.purchase_id, fromMeta) : undefined].filter(Boolean);
  if (!conditions.length) return null;
  const [row] = await tx
    .select()
    .from(purchase)
    .where(and(eq(purchase.provider, 'stripe'), or(...conditions)));
  return row ?? null;
}

function subscriptionOfInvoice(inv: Stripe.Invoice): string | null {
  return idOf(inv.parent?.subscription_details?.subscription ?? null);
}

async function applyEvent(tx: Tx, event: Stripe.Event, now: Date): Promise<void> {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const pi = event.data.object;
      const p = await purchaseByMetadata(tx, pi.metadata, eq(purchase.provider_payment_id, pi.id));
      if (p && !p.subscription_period) await markPurchasePaid(tx, p.purchase_id, { providerPaymentId: pi.id, totalPayment: cents(pi.amount_received || pi.amount), now });
      return;
    }
    case 'payment_intent.payment_failed': {
      const pi = event.data.object;
      const p = await purchaseByMetadata(tx, pi.metadata, eq(purchase.provider_payment_id, pi.id));
      if (p) await markPurchaseFailed(tx, p.purchase_id, now);
      return;
    }
    case 'checkout.session.completed': {
      const s = event.data.object;
      const p = await purchaseByMetadata(tx, s.metadata, eq(purchase.provider_session_id, s.id));
      if (!p) return;
      if (s.payment_status === 'paid' || s.payment_status === 'no_payment_required') {
        await markPurchasePaid(tx, p.purchase_id, {
          providerPaymentId: idOf(s.payment_intent),
          subscriptionId: idOf(s.subscription),
          totalPayment: cents(s.amount_total),
          now,
        });
      }
      return;
    }
    case 'invoice.paid': {
      const inv = event.data.object;
      const subId = subscriptionOfInvoice(inv);
      if (!subId) return;
      const [p] = await tx.select().from(purchase).where(and(eq(purchase.provider, 'stripe'), eq(purchase.subscription_id, subId)));
      if (!p) return;
      if (p.status === 'pending' || p.status === 'failed') {
        await markPurchasePaid(tx, p.purchase_id, { providerInvoiceId: inv.id, totalPayment: cents(inv.amount_paid), now });
        return;
      }
      if (p.status !== 'active' || inv.billing_reason === 'subscription_create') return;
      const line = inv.lines?.data?.[0]?.period;
      await recordRenewal(tx, p, {
        providerInvoiceId: inv.id ?? `${event.id}`,
        totalPayment: cents(inv.amount_paid),
        periodStart: line?.start ? new Date(line.start * 1000) : now,
        periodEnd: line?.end ? new Date(line.end * 1000) : null,
        now,
      });
      return;
    }
    case 'invoice.payment_failed': {
      const inv = event.data.object;
      const subId = subscriptionOfInvoice(inv);
      if (!subId) return;
      const [p] = await tx.select().from(purchase).where(and(eq(purchase.provider, 'stripe'), eq(purchase.subscription_id, subId)));
      if (!p) return;
      if (p.status === 'pending') {
        await markPurchaseFailed(tx, p.purchase_id, now);
        return;
      }
      // A renewal that failed: recorded as a failed charge; Stripe retries, and ends the subscription if it never pays.
      await tx
        .insert(invoice)
        .values({ purchase_id: p.purchase_id, customer_id: p.customer_id, total_payment: cents(inv.amount_due), status: 'failed', provider_invoice_id: inv.id ?? null })
        .onConflictDoNothing({ target: invoice.provider_invoice_id });
      return;
    }
    case 'customer.subscription.deleted': {
      const sub = event.data.object;
      const [p] = await tx.select().from(purchase).where(and(eq(purchase.provider, 'stripe'), eq(purchase.subscription_id, sub.id)));
      if (!p || p.status === 'revoked') return;
      const [cancelled] = await tx
        .update(purchase)
        .set({ status: 'cancelled', cancelledAt: p.cancelledAt ?? now, updatedAt: now })
        .where(eq(purchase.purchase_id, p.purchase_id))
        .returning();
      if (cancelled) await endAccessNow(tx, cancelled, now);
      return;
    }
    default:
      return;
  }
}

/**
 * Applies a verified Stripe event exactly once: the event id is inserted into
 * processed_webhook_event (unique per provider) in the same transaction as its
 * effect. A repeated or concurrent delivery conflicts on the insert and
 * changes nothing; a failed effect rolls the insert back so Stripe's retry is
 * applied. Returns false when the event had been processed already.
 */
export async function processStripeEvent(db: Db, event: Stripe.Event, now: Date = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(processed_webhook_event)
      .values({ provider: 'stripe', event_id: event.id, type: event.type, processedAt: now })
      .onConflictDoNothing({ target: [processed_webhook_event.provider, processed_webhook_event.event_id] })
      .returning({ id: processed_webhook_event.processed_webhook_event_id });
    if (!inserted.length) return false;
    await applyEvent(tx, event, now);
    return true;
  });
}
