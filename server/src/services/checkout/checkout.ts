import { randomUUID } from 'node:crypto';
import { cashAllowedFor, DomainError, fromCents, installmentOptions, installmentsAllowed, isFreePackage, isOn, texts, toCents, trialDays, type AppConfigMap, type ClassPackageOutput } from '@estudio/core';
import { and, eq, isNull } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { discount as discountTable } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method, payment_source } from '@estudio/db/schema/payments';
import { purchase } from '@estudio/db/schema/purchases';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { paymentProviders, type CardProvider } from '../../providers/payments/index.ts';
import type { ProviderCustomer } from '../../providers/payments/types.ts';
import { getSellablePackage } from '../packages/package-output.ts';
import { saveCardForCustomer } from '../payments/payment-sources.ts';
import { messageContextOf } from '../messages/message-context.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { markPurchaseFailed, markPurchasePaid, type PaidDetails } from './grant-purchase.ts';
import { preparePurchase, type Prepared } from './prepare-purchase.ts';
import { assertPurchaseCanBePaid, isRefusedAtPayment } from './purchase-caps.ts';

export interface CheckoutDeps {
  db: Db;
  config: Config;
  customerId: number;
  /** Where provider failures (502) are logged with their cause. */
  log?: { error: (obj: object, msg: string) => void } | undefined;
}

type CustomerRow = typeof customer.$inferSelect;

async function loadCustomer(db: Db, customerId: number): Promise<CustomerRow> {
  const [row] = await db.select().from(customer).where(eq(customer.customer_id, customerId));
  if (!row) throw new DomainError('customer/not-found');
  return row;
}

const providerCustomer = (c: CustomerRow): ProviderCustomer => ({
  customer_id: c.customer_id,
  email: c.email,
  name: c.name,
  last_name: c.last_name,
  stripe_customer_id: c.stripe_customer_id,
});

async function rememberStripeCustomer(db: Db, c: CustomerRow, id: string | undefined): Promise<void> {
  if (!id || c.stripe_customer_id === id) return;
  await db.update(customer).set({ stripe_customer_id: id }).where(and(eq(customer.customer_id, c.customer_id), isNull(customer.stripe_customer_id)));
}

async function assertCheckoutOpen(settings: AppConfigMap): Promise<void> {
  if (isOn(settings.checkout_disabled)) throw new DomainError('checkout/disabled');
}

async function paymentMethodRow(db: Db, id: number) {
  const [row] = await db.select().from(payment_method).where(eq(payment_method.payment_method_id, id));
  if (!row) throw new DomainError('checkout/no-payment-method');
  return row;
}

/** Pays a purchase now in its own transaction (free packages, successful charges). */
async function payNow(db: Db, purchaseId: number, details: PaidDetails) {
  return db.transaction((tx) => markPurchasePaid(tx, purchaseId, details));
}

/**
 * A charge went through: the purchase is paid, every cap checked again
 * (markPurchasePaid). When a cap refuses it now (the attempt was superseded
 * or the last place sold meanwhile) the purchase fails, the charge is given
 * back and the customer reads the cap's 409/412.
 */
async function payCharged(deps: CheckoutDeps, purchaseId: number, details: Omit<PaidDetails, 'messages'>, giveBack: () => Promise<void>) {
  try {
    await payNow(deps.db, purchaseId, { ...details, messages: messageContextOf(deps.config) });
  } catch (err) {
    if (!isRefusedAtPayment(err)) throw err;
    await deps.db.transaction((tx) => markPurchaseFailed(tx, purchaseId));
    await giveBack().catch((refundError: unknown) =>
      deps.log?.error({ err: refundError, purchaseId }, 'a purchase refused by a cap after its charge could not be refunded: refund it by hand'),
    );
    throw err;
  }
}

/** A provider step failed after the purchase was created: the purchase fails (its unit and discount are freed) and the error goes on. */
async function failAndRethrow(deps: CheckoutDeps, purchaseId: number, err: unknown): Promise<never> {
  await deps.db.transaction((tx) => markPurchaseFailed(tx, purchaseId));
  if (err instanceof DomainError && err.code === 'payment/provider-error') {
    deps.log?.error({ err: (err as { cause?: unknown }).cause ?? err, purchaseId }, 'payment provider failed');
  }
  throw err;
}

async function createFree(deps: CheckoutDeps, pkg: ClassPackageOutput, settings: AppConfigMap, discountCode?: string) {
  const prepared = await preparePurchase(deps.db, {
    customerId: deps.customerId,
    pkg,
    discountCode,
    provider: 'free',
    paymentMethodId: null,
    settings,
    payNow: 'always',
    messages: messageContextOf(deps.config),
  });
  return { purchase_id: prepared.purchase.purchase_id };
}

/**
 * POST /checkout: free packages ('Obtener Oferta': price 0, not a
 * subscription, paid at once) and cash ('Efectivo': pending until staff mark
 * it paid). A package with a price and no cash method is 400 'No has
 * seleccionado un método de pago.'.
 */
export async function checkoutCreate(deps: CheckoutDeps, input: { class_package_id: number; discountCode?: string | undefined; payment_method?: number | null | undefined }) {
  const settings = await loadStudioSettings(deps.db);
  await assertCheckoutOpen(settings);
  const pkg = await getSellablePackage(deps.db, input.class_package_id);
  if (isFreePackage(pkg)) return createFree(deps, pkg, settings, input.discountCode);
  const method = input.payment_method ? await paymentMethodRow(deps.db, input.payment_method) : await cashMethod(deps.db);
  if (!method || method.provider !== 'cash' || (!input.payment_method && !isOn(settings.cash_checkout_enabled))) {
    throw new DomainError('package/not-free');
  }
  return createCash(deps, pkg, settings, method, input.discountCode);
}

async function cashMethod(db: Db) {
  const [row] = await db.select().from(payment_method).where(and(eq(payment_method.provider, 'cash'), eq(payment_method.available, true)));
  return row ?? null;
}

async function createCash(
  deps: CheckoutDeps,
  pkg: ClassPackageOutput,
  settings: AppConfigMap,
  method: typeof payment_method.$inferSelect,
  discountCode: string | undefined,
) {
  if (!method.available || !isOn(settings.cash_checkout_enabled)) throw new DomainError('checkout/method-unavailable');
  // A free trial's first charge needs a card kept for it (decision 029).
  if (!cashAllowedFor(pkg)) throw new DomainError('checkout/method-unavailable', texts.checkout.trialCardOnly);
  const prepared = await preparePurchase(deps.db, {
    customerId: deps.customerId,
    pkg,
    discountCode,
    provider: 'cash',
    paymentMethodId: method.payment_method_id,
    settings,
    // A cash purchase that costs nothing after its discount needs no one at the desk: paid as it is created.
    payNow: 'when-nothing-to-charge',
    messages: messageContextOf(deps.config),
  });
  return { purchase_id: prepared.purchase.purchase_id };
}

export interface AttemptInput {
  class_package_id: number;
  discountCode?: string | undefined;
  payment_method: number;
  payment_source_id?: number | null | undefined;
  payment_method_token?: string | null | undefined;
  save_card?: boolean | undefined;
  card_type?: string | null | undefined;
  last_digits?: string | null | undefined;
  /** Ask which meses sin intereses plans the card has before charging it (decision 082). */
  ask_installments?: boolean | undefined;
}

/**
 * POST /checkout/attempt. Answers one of:
 * - {purchase_id}: paid now (free package, saved card or a token charged at
 *   once), or a cash purchase left pending;
 * - {clientSecret, purchase_id}: the card payment (or first subscription
 *   payment) the browser confirms, then goes to /gracias/{purchase_id}: with Stripe, stripe.confirmCardPayment (or
 *   confirmCardSetup when the secret starts with 'seti_', a trial); in the
 *   sandbox, POST /checkout/confirm with the test token;
 * - {session: {url}}: Stripe Checkout (stripe_checkout_mode 'checkout').
 */
export async function checkoutAttempt(deps: CheckoutDeps, input: AttemptInput) {
  const settings = await loadStudioSettings(deps.db);
  await assertCheckoutOpen(settings);
  const pkg = await getSellablePackage(deps.db, input.class_package_id);
  if (isFreePackage(pkg)) return createFree(deps, pkg, settings, input.discountCode);
  const method = await paymentMethodRow(deps.db, input.payment_method);
  if (method.provider === 'cash') return createCash(deps, pkg, settings, method, input.discountCode);
  if (method.provider !== 'card' || !method.available) throw new DomainError('checkout/method-unavailable');

  const { card } = paymentProviders(deps.config);
  const owner = await loadCustomer(deps.db, deps.customerId);
  let token = input.payment_method_token ?? undefined;
  let sourceId: number | null = null;
  if (input.payment_source_id) {
    const [source] = await deps.db
      .select()
      .from(payment_source)
      .where(
        and(
          eq(payment_source.payment_source_id, input.payment_source_id),
          eq(payment_source.customer_id, deps.customerId),
          eq(payment_source.provider, card.name),
          isNull(payment_source.deletedAt),
        ),
      );
    if (!source) throw new DomainError('payment-source/not-found');
    token = source.source_id;
    sourceId = source.payment_source_id;
  }

  const prepared = await preparePurchase(deps.db, {
    customerId: deps.customerId,
    pkg,
    discountCode: input.discountCode,
    provider: card.name,
    paymentMethodId: method.payment_method_id,
    paymentSourceId: sourceId,
    settings,
  });
  const purchaseId = prepared.purchase.purchase_id;

  // Once the card is charged the purchase is never failed (a retry would charge again): the payment webhook completes it.
  let charged = false;
  try {
    if (card.createSession && settings.stripe_checkout_mode === 'checkout' && !token) {
      const session = await card.createSession({
        purchaseId,
        customer: providerCustomer(owner),
        title: pkg.title,
        amountCents: pkg.is_subscription ? prepared.priceCents : prepared.chargeCents,
        subscription: pkg.is_subscription
          ? { interval: pkg.subscription_period ?? 'month', intervalCount: pkg.subscription_interval ?? 1, trialDays: trialDays(pkg.free_trial_length, pkg.free_trial_period) }
          : undefined,
        discount: stripeDiscount(prepared.discount),
        successUrl: `${deps.config.PUBLIC_URL}/gracias/${purchaseId}`,
        cancelUrl: `${deps.config.PUBLIC_URL}/checkout/${pkg.class_package_id}`,
        idempotencyKey: `purchase-${purchaseId}-session`,
      });
      await rememberStripeCustomer(deps.db, owner, session.providerCustomerId);
      if (session.stripeCouponId && prepared.discount) {
        await deps.db.update(discountTable).set({ stripe_coupon_id: session.stripeCouponId }).where(eq(discountTable.discount_id, prepared.discount.discount_id));
      }
      await deps.db.update(purchase).set({ provider_session_id: session.sessionId }).where(eq(purchase.purchase_id, purchaseId));
      return { session: { url: session.url } };
    }
    // Meses sin intereses (decision 082): with a card in hand, ask its bank's plans before charging; none offered, pay at once.
    if (input.ask_installments && token && !pkg.is_subscription && installmentsAllowed(prepared.chargeCents, settings.installments_min_amount)) {
      const asked = await askInstallments(deps, card, owner, pkg, prepared, token, settings);
      if (asked.plans.length > 0) return { clientSecret: asked.clientSecret, purchase_id: purchaseId, installment_plans: asked.plans };
      const status = await card.confirmPayment(asked.paymentId, token, `purchase-${purchaseId}-confirm-single`, null);
      if (status !== 'succeeded') throw new DomainError('payment/not-approved');
      charged = true;
      await payCharged(deps, purchaseId, { providerPaymentId: asked.paymentId }, async () => void (await card.refundPayment(asked.paymentId, `purchase-${purchaseId}-refund`)));
      return { purchase_id: purchaseId };
    }
    const result = pkg.is_subscription
      ? await startSubscription(deps, card, owner, pkg, prepared, token)
      : await startPayment(deps, card, owner, pkg, prepared, token, input.save_card === true && !sourceId);
    if (result.paid) {
      charged = true;
      await payCharged(deps, purchaseId, { providerPaymentId: result.paymentId, subscriptionId: result.subscriptionId }, async () => {
        if (result.subscriptionId) await card.cancelSubscription(result.subscriptionId, { now: true });
        if (result.paymentId && !pkg.is_subscription) await card.refundPayment(result.paymentId, `purchase-${purchaseId}-refund`);
      });
      if (input.save_card && token && !sourceId && input.card_type && input.last_digits) {
        await saveCardForCustomer(deps, { token, card_type: input.card_type, last_digits: input.last_digits }).catch(() => undefined);
      }
      // A Stripe trial starts at once; its SetupIntent secret still lets the browser save the card for the first charge.
      return result.clientSecret ? { clientSecret: result.clientSecret, purchase_id: purchaseId } : { purchase_id: purchaseId };
    }
    if (!result.clientSecret) throw new DomainError('payment/provider-error');
    return { clientSecret: result.clientSecret, purchase_id: purchaseId };
  } catch (err) {
    if (charged) {
      if (isRefusedAtPayment(err)) throw err;
      deps.log?.error({ err, purchaseId }, 'card charged but the purchase not recorded; the payment webhook completes it');
      throw new DomainError('payment/charged-pending');
    }
    return failAndRethrow(deps, purchaseId, err);
  }
}

function stripeDiscount(d: Prepared['discount']) {
  return d
    ? { discount_id: d.discount_id, code: d.code, amount: d.amount, is_percent: d.is_percent, first_invoice_only: d.first_invoice_only, stripe_coupon_id: d.stripe_coupon_id }
    : undefined;
}

/** The card attached to a payment not yet confirmed, and the plans its bank offers that the studio offers too. */
async function askInstallments(
  deps: CheckoutDeps,
  card: CardProvider,
  owner: CustomerRow,
  pkg: ClassPackageOutput,
  prepared: Prepared,
  token: string,
  settings: AppConfigMap,
) {
  const purchaseId = prepared.purchase.purchase_id;
  const result = await card.createInstallmentPayment({
    purchaseId,
    amountCents: prepared.chargeCents,
    description: `${pkg.title} (orden ${purchaseId})`,
    customer: providerCustomer(owner),
    paymentMethod: token,
    idempotencyKey: `purchase-${purchaseId}-installments`,
  });
  await rememberStripeCustomer(deps.db, owner, result.providerCustomerId);
  await deps.db.update(purchase).set({ provider_payment_id: result.paymentId }).where(eq(purchase.purchase_id, purchaseId));
  const plans = installmentOptions(prepared.chargeCents, result.availablePlans, settings.installments_min_amount).map((o) => ({ count: o.count, monthly: fromCents(o.monthlyCents) }));
  return { paymentId: result.paymentId, clientSecret: result.clientSecret, plans };
}

/** A plan the customer chose must be one the studio offers for this amount (the provider checks the card's bank offers it). */
async function assertPlanOffered(db: Db, totalPayment: string, installments: number): Promise<void> {
  const settings = await loadStudioSettings(db);
  const offered = installmentOptions(toCents(totalPayment), [installments], settings.installments_min_amount);
  if (offered.length === 0) throw new DomainError('checkout/installments-plan');
}

interface Started {
  paid: boolean;
  clientSecret: string | null;
  paymentId: string | null;
  subscriptionId: string | null;
}

async function startPayment(
  deps: CheckoutDeps,
  card: CardProvider,
  owner: CustomerRow,
  pkg: ClassPackageOutput,
  prepared: Prepared,
  token: string | undefined,
  saveCard: boolean,
): Promise<Started> {
  const purchaseId = prepared.purchase.purchase_id;
  const result = await card.createPayment({
    purchaseId,
    amountCents: prepared.chargeCents,
    description: `${pkg.title} (orden ${purchaseId})`,
    customer: providerCustomer(owner),
    paymentMethod: token,
    saveCard,
    idempotencyKey: `purchase-${purchaseId}-payment`,
  });
  await rememberStripeCustomer(deps.db, owner, result.providerCustomerId);
  await deps.db.update(purchase).set({ provider_payment_id: result.paymentId }).where(eq(purchase.purchase_id, purchaseId));
  const paid = result.status === 'succeeded';
  return { paid, clientSecret: paid ? null : result.clientSecret, paymentId: result.paymentId, subscriptionId: null };
}

async function startSubscription(
  deps: CheckoutDeps,
  card: CardProvider,
  owner: CustomerRow,
  pkg: ClassPackageOutput,
  prepared: Prepared,
  token: string | undefined,
): Promise<Started> {
  const purchaseId = prepared.purchase.purchase_id;
  const [pkgRow] = await deps.db
    .select({ stripe_price_id: class_package.stripe_price_id })
    .from(class_package)
    .where(eq(class_package.class_package_id, pkg.class_package_id));
  const d = prepared.discount;
  const result = await card.createSubscription({
    purchaseId,
    customer: providerCustomer(owner),
    pkg: { class_package_id: pkg.class_package_id, title: pkg.title, stripe_price_id: pkgRow?.stripe_price_id ?? null },
    amountCents: prepared.priceCents,
    interval: pkg.subscription_period ?? 'month',
    intervalCount: pkg.subscription_interval ?? 1,
    trialDays: trialDays(pkg.free_trial_length, pkg.free_trial_period),
    discount: stripeDiscount(d),
    paymentMethod: token,
    idempotencyKey: `purchase-${purchaseId}-subscription`,
  });
  await rememberStripeCustomer(deps.db, owner, result.providerCustomerId);
  if (result.stripePriceId) {
    await deps.db.update(class_package).set({ stripe_price_id: result.stripePriceId }).where(eq(class_package.class_package_id, pkg.class_package_id));
  }
  if (result.stripeCouponId && d) {
    await deps.db.update(discountTable).set({ stripe_coupon_id: result.stripeCouponId }).where(eq(discountTable.discount_id, d.discount_id));
  }
  await deps.db
    .update(purchase)
    .set({ subscription_id: result.subscriptionId, provider_payment_id: result.paymentId })
    .where(eq(purchase.purchase_id, purchaseId));
  const paid = result.status === 'active' || result.status === 'trialing';
  return { paid, clientSecret: result.clientSecret, paymentId: result.paymentId, subscriptionId: result.subscriptionId };
}

/**
 * POST /checkout/confirm {clientSecret, payment_method_token}: confirms the
 * caller's pending payment with a payment method, as stripe.confirmCardPayment
 * does in the browser. Without a token (Stripe only: the browser already
 * confirmed) it reads the intent and grants a succeeded payment. Paid: the purchase is granted now (a later webhook for
 * it is a no-op). Declined: 402 with the decline code; the purchase is failed
 * and may be confirmed again with another card.
 */
export async function checkoutConfirm(
  deps: CheckoutDeps,
  input: {
    clientSecret: string;
    payment_method_token?: string | null | undefined;
    save_card?: boolean | undefined;
    card_type?: string | null | undefined;
    last_digits?: string | null | undefined;
    /** Meses sin intereses: the plan chosen (decision 082); null or absent, one payment. */
    installments?: number | null | undefined;
  },
) {
  const { card } = paymentProviders(deps.config);
  const paymentId = await card.paymentIdOf(input.clientSecret);
  if (!paymentId) throw new DomainError('payment/intent-not-found');
  const [row] = await deps.db
    .select()
    .from(purchase)
    .where(and(eq(purchase.provider, card.name), eq(purchase.provider_payment_id, paymentId), eq(purchase.customer_id, deps.customerId)));
  if (!row) throw new DomainError('payment/intent-not-found');
  if (row.status === 'active' || row.status === 'completed') return { purchase_id: row.purchase_id };
  if (row.status !== 'pending' && row.status !== 'failed') throw new DomainError('purchase/not-pending');
  const token = input.payment_method_token;
  if (!token) {
    // The browser confirmed with Stripe: grant now if Stripe says it succeeded (the webhook then finds it paid).
    if (card.name === 'sandbox') throw new DomainError('checkout/no-payment-method');
    const state = card.paymentState ? await card.paymentState(paymentId) : { status: await card.paymentStatus(paymentId), installments: null };
    if (state.status !== 'succeeded') throw new DomainError('payment/not-approved');
    await payCharged(deps, row.purchase_id, { providerPaymentId: paymentId, installments: state.installments }, async () => void (await card.refundPayment(paymentId, `purchase-${row.purchase_id}-refund`)));
    return { purchase_id: row.purchase_id };
  }
  if (input.installments) await assertPlanOffered(deps.db, row.total_payment, input.installments);
  // An attempt superseded by a later one, or whose place sold meanwhile, is refused before the card is charged.
  await assertPurchaseCanBePaid(deps.db, row.purchase_id);
  let status;
  try {
    status = await card.confirmPayment(paymentId, token, `purchase-${row.purchase_id}-confirm-${randomUUID()}`, input.installments ?? null);
  } catch (err) {
    // A plan the card's bank does not offer changes nothing: the customer chooses again or pays at once.
    if (err instanceof DomainError && err.code === 'checkout/installments-plan') throw err;
    return failAndRethrow(deps, row.purchase_id, err);
  }
  if (status !== 'succeeded') throw new DomainError('payment/not-approved');
  await payCharged(deps, row.purchase_id, { providerPaymentId: paymentId, installments: input.installments ?? null }, async () => void (await card.refundPayment(paymentId, `purchase-${row.purchase_id}-refund`)));
  if (input.save_card && input.card_type && input.last_digits) {
    await saveCardForCustomer(deps, { token, card_type: input.card_type, last_digits: input.last_digits }).catch(() => undefined);
  }
  return { purchase_id: row.purchase_id };
}

// ---------- PayPal ----------

async function paypalReady(deps: CheckoutDeps, settings: AppConfigMap) {
  const { paypal } = paymentProviders(deps.config);
  const [method] = await deps.db.select().from(payment_method).where(eq(payment_method.provider, 'paypal'));
  if (!paypal || !method?.available || !isOn(settings.paypal_enabled)) throw new DomainError('checkout/method-unavailable');
  return { paypal, method };
}

/**
 * POST /checkout/paypal: a pending purchase and, for one-off packages, the
 * PayPal order the button approves ({orderID}); for subscriptions the plan
 * ({plan_id}, the package's paypal_plan_id) the button subscribes to, with
 * custom_id = purchase_id.
 */
export async function checkoutPaypal(deps: CheckoutDeps, input: { class_package_id: number; discountCode?: string | undefined }) {
  const settings = await loadStudioSettings(deps.db);
  await assertCheckoutOpen(settings);
  const pkg = await getSellablePackage(deps.db, input.class_package_id);
  const { paypal, method } = await paypalReady(deps, settings);
  let planId: string | null = null;
  if (pkg.is_subscription) {
    const [row] = await deps.db.select({ plan: class_package.paypal_plan_id }).from(class_package).where(eq(class_package.class_package_id, pkg.class_package_id));
    planId = row?.plan ?? null;
    if (!planId) throw new DomainError('checkout/method-unavailable');
  }
  const prepared = await preparePurchase(deps.db, {
    customerId: deps.customerId,
    pkg,
    discountCode: input.discountCode,
    provider: 'paypal',
    paymentMethodId: method.payment_method_id,
    settings,
  });
  const purchaseId = prepared.purchase.purchase_id;
  if (planId) return { purchase_id: purchaseId, plan_id: planId };
  try {
    const order = await paypal.createOrder({
      purchaseId,
      amount: fromCents(prepared.chargeCents),
      description: pkg.title,
      requestId: `purchase-${purchaseId}-order`,
    });
    await deps.db.update(purchase).set({ provider_payment_id: order.id }).where(eq(purchase.purchase_id, purchaseId));
    return { purchase_id: purchaseId, orderID: order.id };
  } catch (err) {
    return failAndRethrow(deps, purchaseId, err);
  }
}

/**
 * POST /checkout/capture: after the PayPal button's approval. {orderID}:
 * captures the order of the caller's purchase and grants it. {purchase_id,
 * subscriptionID}: reads the subscription, checks it is ACTIVE on the
 * package's plan and grants the purchase.
 */
export async function checkoutCapture(deps: CheckoutDeps, input: { purchase_id?: number | undefined; orderID?: string | undefined; subscriptionID?: string | undefined }) {
  const { paypal } = paymentProviders(deps.config);
  if (!paypal) throw new DomainError('checkout/method-unavailable');
  const where = input.orderID
    ? and(eq(purchase.provider, 'paypal'), eq(purchase.provider_payment_id, input.orderID))
    : eq(purchase.purchase_id, input.purchase_id ?? 0);
  const [row] = await deps.db.select().from(purchase).where(and(where, eq(purchase.customer_id, deps.customerId), eq(purchase.provider, 'paypal')));
  if (!row) throw new DomainError('purchase/not-found');
  if (row.status === 'active' || row.status === 'completed') return { purchase_id: row.purchase_id };
  if (input.subscriptionID) {
    const sub = await paypal.getSubscription(input.subscriptionID);
    const [pkg] = await deps.db.select({ plan: class_package.paypal_plan_id }).from(class_package).where(eq(class_package.class_package_id, row.class_package_id));
    const mine = sub.custom_id === null || sub.custom_id === String(row.purchase_id);
    if (sub.status !== 'ACTIVE' || sub.plan_id !== pkg?.plan || !mine) throw new DomainError('payment/not-approved');
    // One PayPal subscription pays for one purchase: the same id sent for a second purchase is not a new payment.
    const [taken] = await deps.db.select({ id: purchase.purchase_id }).from(purchase).where(eq(purchase.subscription_id, sub.id));
    if (taken && taken.id !== row.purchase_id) throw new DomainError('payment/not-approved');
    await payCharged(deps, row.purchase_id, { subscriptionId: sub.id }, () => paypal.cancelSubscription(sub.id, 'Límite de compras alcanzado'));
    return { purchase_id: row.purchase_id };
  }
  if (!row.provider_payment_id) throw new DomainError('payment/not-approved');
  // Checked before PayPal takes the money; checked again (and taken) when the capture is recorded.
  await assertPurchaseCanBePaid(deps.db, row.purchase_id);
  const captured = await paypal.captureOrder(row.provider_payment_id, `purchase-${row.purchase_id}-capture`);
  if (captured.status !== 'COMPLETED') throw new DomainError('payment/not-approved');
  // The order was created with this purchase's total in MXN; a capture for another amount is not this purchase's payment.
  const { amount } = captured;
  if (amount && (amount.currency !== 'MXN' || toCents(amount.value) !== toCents(row.total_payment))) throw new DomainError('payment/not-approved');
  await payCharged(deps, row.purchase_id, { providerPaymentId: captured.id }, async () => {
    // PayPal refunds are not wired in (decision 015): the refusal is logged for the studio to refund from PayPal's dashboard.
    throw new Error(`PayPal capture ${captured.id} needs a refund`);
  });
  return { purchase_id: row.purchase_id };
}
