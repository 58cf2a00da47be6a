import { randomBytes } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { class_package } from '@estudio/db/schema/packages';
import { payment_source } from '@estudio/db/schema/payments';
import { purchase } from '@estudio/db/schema/purchases';
import type { Config } from '../../src/config.ts';
import type { Db } from '../../src/db.ts';
import type { RenewalDeps } from '../../src/services/billing/renewals.ts';
import { checkoutAttempt } from '../../src/services/checkout/checkout.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { recordOptionalMessagesChoice } from '../../src/services/messages/preferences.ts';

const tag = () => randomBytes(4).toString('hex');

/**
 * A customer of its own for each test (the seeded ones carry the demo's purchases). `optionalMessages`: she said yes
 * to the optional messages (reminders, expiring credits), which nobody has without it (decision 120).
 */
export async function newCustomer(db: Db, name = 'Lucía', options: { optionalMessages?: boolean } = {}): Promise<number> {
  const [row] = await db
    .insert(customer)
    .values({ name, last_name: 'Prueba', email: `cobros-${tag()}@prueba.test`, phone: `55${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}` })
    .returning({ id: customer.customer_id });
  if (options.optionalMessages) await recordOptionalMessagesChoice(db, row!.id, true);
  return row!.id;
}

/** A subscription package that renews every `interval` days (the offline demo's). */
export async function dailySubscription(db: Db, values: Partial<typeof class_package.$inferInsert> = {}): Promise<number> {
  const [row] = await db
    .insert(class_package)
    .values({
      title: `Suscripción diaria ${tag()}`,
      price: '100.00',
      class_amount: 4,
      is_subscription: true,
      subscription_period: 'day',
      subscription_interval: 1,
      ...values,
    })
    .returning({ id: class_package.class_package_id });
  return row!.id;
}

/** A card the customer saved in Métodos de Pago: a sandbox test token (it pays or declines like Stripe's). */
export async function saveCard(db: Db, customerId: number, token: string, last: string): Promise<number> {
  const [row] = await db
    .insert(payment_source)
    .values({ customer_id: customerId, provider: 'sandbox', source_id: `${token}.${tag()}`, card_type: 'Visa', last_digits: last })
    .returning({ id: payment_source.payment_source_id });
  return row!.id;
}

/** Buys a package through the real checkout service with the card method (1) and a saved card or a token. */
export async function buy(db: Db, config: Config, customerId: number, classPackageId: number, card: { sourceId?: number; token?: string }) {
  const res = await checkoutAttempt(
    { db, config, customerId },
    { class_package_id: classPackageId, payment_method: 1, payment_source_id: card.sourceId ?? null, payment_method_token: card.token ?? null },
  );
  if (!('purchase_id' in res) || !res.purchase_id) throw new Error(`checkout did not pay: ${JSON.stringify(res)}`);
  const [row] = await db.select().from(purchase).where(eq(purchase.purchase_id, res.purchase_id));
  return row!;
}

export const renewalDeps = (db: Db, config: Config): RenewalDeps => ({ db, config, messages: messageContextOf(config) });

/** The customer's queued messages of a kind, oldest first. */
export async function messagesOf(db: Db, customerId: number, kind?: string) {
  const rows = await db
    .select()
    .from(outbox_message)
    .where(and(eq(outbox_message.customer_id, customerId), ...(kind ? [eq(outbox_message.kind, kind)] : [])))
    .orderBy(outbox_message.outbox_message_id);
  return rows;
}

export const emailsOf = async (db: Db, customerId: number, kind?: string) => (await messagesOf(db, customerId, kind)).filter((m) => m.channel === 'email');

export const byDedupe = (db: Db, prefix: string) => db.select().from(outbox_message).where(like(outbox_message.dedupe_key, `${prefix}%`));

export const minutes = (d: Date, n: number) => new Date(d.getTime() + n * 60_000);
export const days = (d: Date, n: number) => new Date(d.getTime() + n * 86_400_000);
