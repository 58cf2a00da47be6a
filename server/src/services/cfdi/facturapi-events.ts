import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { cfdi } from '@estudio/db/schema/cfdi';
import { processed_webhook_event } from '@estudio/db/schema/payments';
import type { Db } from '../../db.ts';
import { recordCancellation } from './send-cfdi.ts';

/**
 * A verified facturapi event, applied once (its id, or the hash of its body
 * when it has none, in processed_webhook_event in the same transaction):
 * invoice.cancellation_status_updated records the cancellation's outcome;
 * invoice.status_updated makes an asynchronously stamped document due, so the
 * sender downloads it now. Events about documents the studio does not know
 * (made in facturapi's dashboard) change nothing.
 */
export async function applyFacturapiEvent(
  db: Db,
  event: { id?: string; type: string; data: { type: string; object: Record<string, unknown> } },
  now: Date,
): Promise<boolean> {
  const object = event.data.object;
  const eventId = event.id ?? createHash('sha256').update(JSON.stringify(event)).digest('hex');
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(processed_webhook_event)
      .values({ provider: 'facturapi', event_id: eventId, type: event.type, processedAt: now })
      .onConflictDoNothing({ target: [processed_webhook_event.provider, processed_webhook_event.event_id] })
      .returning({ id: processed_webhook_event.processed_webhook_event_id });
    if (!inserted.length) return false;
    const providerId = typeof object.id === 'string' ? object.id : null;
    if (!providerId) return true;
    const [doc] = await tx.select().from(cfdi).where(eq(cfdi.provider_id, providerId)).for('update');
    if (!doc) return true;
    if (event.type === 'invoice.cancellation_status_updated' && doc.status === 'cancelling') {
      await recordCancellation(tx, doc.cfdi_id, { status: String(object.status ?? ''), cancellation_status: typeof object.cancellation_status === 'string' ? object.cancellation_status : null }, now);
    } else if (event.type === 'invoice.status_updated' && doc.status === 'pending') {
      await tx.update(cfdi).set({ next_attempt_at: now }).where(eq(cfdi.cfdi_id, doc.cfdi_id));
    }
    return true;
  });
}
