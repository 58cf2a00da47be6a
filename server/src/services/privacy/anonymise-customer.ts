import { DomainError } from '@estudio/core';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { auth_user } from '@estudio/db/schema/identity';
import { audit_log } from '@estudio/db/schema/audit';
import { payment_source } from '@estudio/db/schema/payments';
import { tax_profile } from '@estudio/db/schema/cfdi';
import { address, customer, customer_field_value, customer_note } from '@estudio/db/schema/customer';
import { message_preference, outbox_message } from '@estudio/db/schema/outbox';
import { class_reservation, standing_booking, waitlist } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { favorite, playback } from '@estudio/db/schema/videos';
import type { Db as DbOrTx } from '../../db.ts';

/** The personal fields an account change records in the activity log; the change stays, her values go. */
const personalChangeKeys = ['name', 'last_name', 'email', 'phone', 'birthdate', 'instagram', 'signup_reason', 'signup_reason_other'];

/**
 * Cancels a customer's personal data (Mexico's law, decision 124): what identifies her is deleted or blanked, and
 * what the law asks the studio to keep (purchases, payments, invoices and CFDI, the classes taken against them) stays,
 * attached to an anonymous customer row. She can no longer sign in. The desks' replicas receive the blanked row and
 * the deleted notes like any change, so they forget her too. Refused while she has classes or waitlists ahead: those
 * hold credits and places, and are cancelled first through the one audited service, by the studio's rules.
 * Her uploaded files (a profile picture) are removed with their bytes by the caller, after the commit (removeFile).
 * Call it inside the transaction that records the answer.
 */
export async function anonymiseCustomer(tx: DbOrTx, customerId: number, now: Date): Promise<void> {
  const [who] = await tx.select({ uid: customer.uid, deletedAt: customer.deletedAt }).from(customer).where(eq(customer.customer_id, customerId)).for('update');
  if (!who) throw new DomainError('customer/unknown');
  const [ahead] = await tx
    .select({ id: class_reservation.class_reservation_id })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .where(and(eq(class_reservation.customer_id, customerId), isNull(class_reservation.deletedAt), isNull(single_class.cancelledAt), gt(single_class.class_date, now)))
    .limit(1);
  const [waiting] = await tx
    .select({ id: waitlist.waitlist_id })
    .from(waitlist)
    .innerJoin(single_class, eq(single_class.single_class_id, waitlist.single_class_id))
    .where(and(eq(waitlist.customer_id, customerId), gt(single_class.class_date, now)))
    .limit(1);
  if (ahead || waiting) throw new DomainError('privacy-request/future-bookings');

  await tx
    .update(customer)
    .set({
      name: 'Cliente',
      last_name: 'anonimizado',
      // Unique and never a mailbox: '.invalid' is reserved (RFC 2606).
      email: `anonimizado-${customerId}@anonimizado.invalid`,
      uid: null,
      phone: null,
      instagram: null,
      birthdate: null,
      file_id: null,
      signup_reason: null,
      signup_reason_other: null,
      address_id: null,
      stripe_customer_id: null,
      paypal_payer_id: null,
      deletedAt: who.deletedAt ?? now,
      updatedAt: now,
    })
    .where(eq(customer.customer_id, customerId));
  // Her sign-in goes with its sessions and links (they cascade from auth_user).
  if (who.uid) await tx.delete(auth_user).where(eq(auth_user.uid, who.uid));
  for (const table of [address, customer_field_value, customer_note, message_preference, payment_source, tax_profile, favorite, playback, standing_booking]) {
    await tx.delete(table).where(eq(table.customer_id, customerId));
  }
  // What was sent stays as a fact (kind, channel, when); to whom and what it said does not. Nothing more goes out.
  await tx
    .update(outbox_message)
    .set({ recipient: 'anonimizado', subject: null, body: '', html: null, attachments: null, whatsapp_template: null })
    .where(eq(outbox_message.customer_id, customerId));
  await tx
    .update(outbox_message)
    .set({ status: 'failed', last_error: 'Cliente anonimizado.' })
    .where(and(eq(outbox_message.customer_id, customerId), eq(outbox_message.status, 'pending')));
  await tx
    .update(audit_log)
    .set({ changes: sql`${audit_log.changes} - ${sql.raw(`array[${personalChangeKeys.map((k) => `'${k}'`).join(', ')}]`)}` })
    .where(and(eq(audit_log.entity, 'customer'), eq(audit_log.entity_id, String(customerId))));
}
