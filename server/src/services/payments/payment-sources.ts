import { randomUUID } from 'node:crypto';
import { DomainError, isOn, type PaymentSourceOutput } from '@estudio/core';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { payment_method, payment_source } from '@estudio/db/schema/payments';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { paymentProviders } from '../../providers/payments/index.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

type SourceRow = typeof payment_source.$inferSelect;

export function toPaymentSourceOutput(row: SourceRow): PaymentSourceOutput {
  return {
    payment_source_id: row.payment_source_id,
    source_id: row.source_id,
    provider: row.provider,
    card_type: row.card_type,
    last_digits: row.last_digits,
    exp_month: row.exp_month,
    exp_year: row.exp_year,
    createdAt: row.createdAt.toISOString(),
  };
}

/** The checkout choices: available methods, cash only with cash_checkout_enabled, PayPal only with paypal_enabled. */
export async function listPaymentMethods(db: Db) {
  const settings = await loadStudioSettings(db);
  const rows = await db.select().from(payment_method).where(eq(payment_method.available, true)).orderBy(asc(payment_method.payment_method_id));
  return rows
    .filter((m) => (m.provider === 'cash' ? isOn(settings.cash_checkout_enabled) : m.provider === 'paypal' ? isOn(settings.paypal_enabled) : true))
    .map((m) => ({ payment_method_id: m.payment_method_id, name: m.name, description: m.description, provider: m.provider }));
}

/** The caller's saved cards of the active card provider (a sandbox card cannot pay through Stripe). */
export async function listPaymentSources(db: Db, config: Config, customerId: number): Promise<PaymentSourceOutput[]> {
  const { card } = paymentProviders(config);
  const rows = await db
    .select()
    .from(payment_source)
    .where(and(eq(payment_source.customer_id, customerId), eq(payment_source.provider, card.name), isNull(payment_source.deletedAt)))
    .orderBy(asc(payment_source.payment_source_id));
  return rows.map(toPaymentSourceOutput);
}

/**
 * Saves a card from a browser-made token: Stripe attaches the PaymentMethod
 * to the customer (brand and last 4 come from Stripe); the sandbox keeps the
 * test token. Only the token, brand and last 4 digits are stored.
 */
export async function saveCardForCustomer(
  deps: { db: Db; config: Config; customerId: number },
  input: { token: string; card_type: string; last_digits: string },
): Promise<PaymentSourceOutput> {
  const settings = await loadStudioSettings(deps.db);
  if (!isOn(settings.payment_sources_enabled)) throw new DomainError('payment-source/disabled');
  const { card } = paymentProviders(deps.config);
  const [owner] = await deps.db.select().from(customer).where(eq(customer.customer_id, deps.customerId));
  if (!owner) throw new DomainError('customer/not-found');
  const saved = await card.saveCard(
    { customer_id: owner.customer_id, email: owner.email, name: owner.name, last_name: owner.last_name, stripe_customer_id: owner.stripe_customer_id },
    input.token,
    { card_type: input.card_type, last_digits: input.last_digits },
  );
  if (saved.providerCustomerId && !owner.stripe_customer_id) {
    await deps.db.update(customer).set({ stripe_customer_id: saved.providerCustomerId }).where(eq(customer.customer_id, owner.customer_id));
  }
  const [row] = await deps.db
    .insert(payment_source)
    .values({
      customer_id: owner.customer_id,
      provider: card.name,
      source_id: saved.source_id,
      card_type: saved.card_type,
      last_digits: saved.last_digits,
      exp_month: saved.exp_month,
      exp_year: saved.exp_year,
    })
    .onConflictDoUpdate({
      target: [payment_source.provider, payment_source.source_id],
      set: { deletedAt: null },
      where: eq(payment_source.customer_id, owner.customer_id),
    })
    .returning();
  if (!row) throw new DomainError('payment-source/not-found');
  return toPaymentSourceOutput(row);
}

/**
 * '+ Agregar' in Métodos de Pago: with Stripe, a SetupIntent for the caller
 * (created as a Stripe customer on the way) whose secret the browser confirms
 * with the card before saving it with saveCardForCustomer; with the sandbox no
 * secret (its form sends the test token straight to saveCardForCustomer).
 */
export async function startCardSetup(deps: { db: Db; config: Config; customerId: number }): Promise<{ card_provider: 'stripe' | 'sandbox'; clientSecret: string | null }> {
  const settings = await loadStudioSettings(deps.db);
  if (!isOn(settings.payment_sources_enabled)) throw new DomainError('payment-source/disabled');
  const { card } = paymentProviders(deps.config);
  if (!card.startCardSetup) return { card_provider: card.name, clientSecret: null };
  const [owner] = await deps.db.select().from(customer).where(eq(customer.customer_id, deps.customerId));
  if (!owner) throw new DomainError('customer/not-found');
  const setup = await card.startCardSetup(
    { customer_id: owner.customer_id, email: owner.email, name: owner.name, last_name: owner.last_name, stripe_customer_id: owner.stripe_customer_id },
    // Each '+ Agregar' is its own intent; a retried request of the same one is not.
    `card-setup-${owner.customer_id}-${randomUUID()}`,
  );
  if (!owner.stripe_customer_id) {
    await deps.db.update(customer).set({ stripe_customer_id: setup.providerCustomerId }).where(and(eq(customer.customer_id, owner.customer_id), isNull(customer.stripe_customer_id)));
  }
  return { card_provider: card.name, clientSecret: setup.clientSecret };
}

/** Removes one of the caller's saved cards (soft delete; Stripe detaches it). */
export async function removePaymentSource(deps: { db: Db; config: Config; customerId: number }, id: number): Promise<void> {
  const [row] = await deps.db
    .select()
    .from(payment_source)
    .where(and(eq(payment_source.payment_source_id, id), eq(payment_source.customer_id, deps.customerId), isNull(payment_source.deletedAt)));
  if (!row) throw new DomainError('payment-source/not-found');
  const { card } = paymentProviders(deps.config);
  if (row.provider === card.name) await card.removeCard(row.source_id);
  await deps.db.update(payment_source).set({ deletedAt: new Date() }).where(eq(payment_source.payment_source_id, id));
}
