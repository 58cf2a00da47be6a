import { DomainError, PaymentDeclinedError, toCents } from '@estudio/core';
import Stripe from 'stripe';
import type { Config } from '../../config.ts';
import type { CardProvider, PaymentStatus, ProviderCustomer, SubscriptionRequest, VoucherInstructions } from './types.ts';

/** stripe-node pointed at api.stripe.com, or at STRIPE_API_HOST/PORT/PROTOCOL (the tests' loopback fake). */
export function createStripeClient(config: Config): Stripe {
  if (!config.STRIPE_SECRET_KEY) throw new Error('STRIPE_SECRET_KEY is not set');
  return new Stripe(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 2,
    timeout: 20_000,
    ...(config.STRIPE_API_HOST ? { host: config.STRIPE_API_HOST } : {}),
    ...(config.STRIPE_API_PORT ? { port: config.STRIPE_API_PORT } : {}),
    ...(config.STRIPE_API_PROTOCOL ? { protocol: config.STRIPE_API_PROTOCOL } : {}),
  });
}

/** Card declines become 402 with Stripe's decline code; anything else is a provider error (logged by the caller). */
function translate(err: unknown): never {
  if (err instanceof DomainError) throw err;
  const e = err as { type?: string; code?: string; decline_code?: string; param?: string };
  if (e?.type === 'StripeCardError') throw new PaymentDeclinedError(e.decline_code ?? e.code ?? 'generic_decline');
  // A meses sin intereses plan the card's bank does not offer: the customer chooses again (decision 082).
  if (e?.type === 'StripeInvalidRequestError' && e.param?.includes('installments')) throw new DomainError('checkout/installments-plan');
  // The Stripe error stays as the cause so the caller can log it; the customer sees the catalogue text.
  throw Object.assign(new DomainError('payment/provider-error'), { cause: err });
}

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    translate(err);
  }
}

/**
 * What a voucher's PaymentIntent tells the customer to do: OXXO's reference,
 * expiry and hosted voucher (next_action.oxxo_display_details); SPEI's CLABE,
 * bank, reference and what is still missing (display_bank_transfer_instructions).
 */
export function voucherInstructionsOf(intent: Stripe.PaymentIntent, channel: 'oxxo' | 'spei'): VoucherInstructions {
  const amount = intent.amount;
  const oxxo = intent.next_action?.oxxo_display_details;
  const bank = intent.next_action?.display_bank_transfer_instructions;
  const spei = bank?.financial_addresses?.find((a) => a.type === 'spei')?.spei;
  const remaining = channel === 'spei' ? (bank?.amount_remaining ?? (intent.status === 'succeeded' ? 0 : amount)) : intent.status === 'succeeded' ? 0 : amount;
  return {
    channel,
    reference: (channel === 'oxxo' ? oxxo?.number : bank?.reference) ?? null,
    expires_at: oxxo?.expires_after ? new Date(oxxo.expires_after * 1000).toISOString() : null,
    hosted_url: (channel === 'oxxo' ? oxxo?.hosted_voucher_url : bank?.hosted_instructions_url) ?? null,
    clabe: spei?.clabe ?? null,
    bank_name: spei?.bank_name ?? null,
    amount_cents: amount,
    received_cents: intent.status === 'succeeded' ? intent.amount_received || amount : amount - remaining,
    remaining_cents: remaining,
  };
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/**
 * Stripe behind the CardProvider interface: Customers (created once per
 * customer, id kept on our row), PaymentIntents for one-off packages,
 * Subscriptions (trial_period_days, default_incomplete so the browser confirms
 * the first payment, or a SetupIntent during a trial), Checkout Sessions and
 * saved PaymentMethods. Every create call carries an idempotency key derived
 * from our ids, so a retried request never charges twice.
 */
export function createStripeProvider(stripe: Stripe): CardProvider {
  async function ensureCustomer(c: ProviderCustomer): Promise<string> {
    if (c.stripe_customer_id) return c.stripe_customer_id;
    const created = await stripe.customers.create(
      { email: c.email, name: `${c.name} ${c.last_name}`.trim(), metadata: { customer_id: String(c.customer_id) } },
      { idempotencyKey: `customer-${c.customer_id}` },
    );
    return created.id;
  }

  /** The Stripe coupon of a discount code, created once (duration once for first_invoice_only codes). */
  async function ensureCoupon(d: SubscriptionRequest['discount']): Promise<{ couponId: string | undefined; createdCoupon: string | undefined }> {
    if (!d) return { couponId: undefined, createdCoupon: undefined };
    if (d.stripe_coupon_id) return { couponId: d.stripe_coupon_id, createdCoupon: undefined };
    const coupon = await stripe.coupons.create(
      {
        name: d.code,
        duration: d.first_invoice_only ? 'once' : 'forever',
        ...(d.is_percent ? { percent_off: toCents(d.amount) / 100 } : { amount_off: toCents(d.amount), currency: 'mxn' }),
        metadata: { discount_id: String(d.discount_id) },
      },
      { idempotencyKey: `discount-${d.discount_id}-coupon` },
    );
    return { couponId: coupon.id, createdCoupon: coupon.id };
  }

  return {
    name: 'stripe',
    createPayment: (req) =>
      guarded(async () => {
        const customerId = await ensureCustomer(req.customer);
        const intent = await stripe.paymentIntents.create(
          {
            amount: req.amountCents,
            currency: 'mxn',
            customer: customerId,
            description: req.description,
            automatic_payment_methods: { enabled: true, allow_redirects: 'never' as const },
            metadata: { purchase_id: String(req.purchaseId) },
            ...(req.saveCard ? { setup_future_usage: 'off_session' as const } : {}),
            ...(req.paymentMethod ? { payment_method: req.paymentMethod, confirm: true } : {}),
          },
          { idempotencyKey: req.idempotencyKey },
        );
        if (!intent.client_secret) throw new DomainError('payment/provider-error');
        return { paymentId: intent.id, clientSecret: intent.client_secret, status: intent.status as PaymentStatus, providerCustomerId: customerId };
      }),

    confirmPayment: (paymentId, paymentMethod, idempotencyKey, installments) =>
      guarded(async () => {
        const intent = await stripe.paymentIntents.confirm(
          paymentId,
          {
            payment_method: paymentMethod,
            ...(installments ? { payment_method_options: { card: { installments: { plan: { type: 'fixed_count' as const, interval: 'month' as const, count: installments } } } } } : {}),
          },
          { idempotencyKey },
        );
        return intent.status as PaymentStatus;
      }),

    createInstallmentPayment: (req) =>
      guarded(async () => {
        const customerId = await ensureCustomer(req.customer);
        // Attached and not confirmed: Stripe answers the plans the card's bank offers for this amount (decision 082).
        const intent = await stripe.paymentIntents.create(
          {
            amount: req.amountCents,
            currency: 'mxn',
            customer: customerId,
            description: req.description,
            payment_method: req.paymentMethod,
            allowed_payment_method_types: ['card'],
            payment_method_options: { card: { installments: { enabled: true } } },
            metadata: { purchase_id: String(req.purchaseId) },
          },
          { idempotencyKey: req.idempotencyKey },
        );
        if (!intent.client_secret) throw new DomainError('payment/provider-error');
        const plans = intent.payment_method_options?.card?.installments?.available_plans ?? [];
        return {
          paymentId: intent.id,
          clientSecret: intent.client_secret,
          status: intent.status as PaymentStatus,
          providerCustomerId: customerId,
          availablePlans: plans.filter((p) => p.type === 'fixed_count' && p.interval === 'month' && p.count).map((p) => p.count as number),
        };
      }),

    createVoucher: (req) =>
      guarded(async () => {
        const customerId = await ensureCustomer(req.customer);
        // Confirmed on the server: the voucher (OXXO) or the customer's CLABE (SPEI) comes back as next_action,
        // so the order page shows them without Stripe.js (decision 080).
        const intent = await stripe.paymentIntents.create(
          {
            amount: req.amountCents,
            currency: 'mxn',
            customer: customerId,
            description: req.description,
            metadata: req.metadata,
            confirm: true,
            ...(req.channel === 'oxxo'
              ? {
                  allowed_payment_method_types: ['oxxo'],
                  payment_method_data: { type: 'oxxo' as const, billing_details: { name: `${req.customer.name} ${req.customer.last_name}`.trim(), email: req.customer.email } },
                  payment_method_options: { oxxo: { expires_after_days: req.expiresAfterDays } },
                }
              : {
                  allowed_payment_method_types: ['customer_balance'],
                  payment_method_data: { type: 'customer_balance' as const },
                  payment_method_options: { customer_balance: { funding_type: 'bank_transfer' as const, bank_transfer: { type: 'mx_bank_transfer' as const } } },
                }),
          },
          { idempotencyKey: req.idempotencyKey },
        );
        return { paymentId: intent.id, providerCustomerId: customerId, instructions: voucherInstructionsOf(intent, req.channel) };
      }),

    paymentState: (paymentId) =>
      guarded(async () => {
        const intent = await stripe.paymentIntents.retrieve(paymentId);
        const channel = intent.payment_method_types.includes('oxxo') ? 'oxxo' : intent.payment_method_types.includes('customer_balance') ? 'spei' : null;
        return {
          status: intent.status as PaymentStatus,
          amountReceivedCents: intent.amount_received,
          instructions: channel ? voucherInstructionsOf(intent, channel) : null,
          installments: intent.payment_method_options?.card?.installments?.plan?.count ?? null,
        };
      }),

    cancelPayment: (paymentId) =>
      guarded(async () => {
        await stripe.paymentIntents.cancel(paymentId);
      }),

    paymentStatus: (paymentId) =>
      guarded(async () => {
        const intent = await stripe.paymentIntents.retrieve(paymentId);
        return intent.status as PaymentStatus;
      }),

    async paymentIdOf(clientSecret) {
      const m = /^(pi_[A-Za-z0-9]+)_secret_/.exec(clientSecret);
      if (!m?.[1]) return null;
      const intent = await guarded(() => stripe.paymentIntents.retrieve(m[1] as string));
      return intent.client_secret === clientSecret ? intent.id : null;
    },

    refundPayment: (paymentId, idempotencyKey, opts) =>
      guarded(async () => {
        const refund = await stripe.refunds.create(
          opts
            ? { payment_intent: paymentId, ...(opts.amountCents ? { amount: opts.amountCents } : {}), reason: 'requested_by_customer', metadata: { reason: 'admin-refund', note: (opts.reason ?? '').slice(0, 500) } }
            : { payment_intent: paymentId, metadata: { reason: 'purchase-cap' } },
          { idempotencyKey },
        );
        return { refundId: refund.id };
      }),

    createSubscription: (req) =>
      guarded(async () => {
        const customerId = await ensureCustomer(req.customer);
        let priceId = req.pkg.stripe_price_id ?? undefined;
        let createdPrice: string | undefined;
        if (!priceId) {
          const price = await stripe.prices.create(
            {
              currency: 'mxn',
              unit_amount: req.amountCents,
              recurring: { interval: req.interval, interval_count: req.intervalCount },
              product_data: { name: req.pkg.title, metadata: { class_package_id: String(req.pkg.class_package_id) } },
            },
            { idempotencyKey: `package-${req.pkg.class_package_id}-price-${req.amountCents}-${req.interval}-${req.intervalCount}` },
          );
          priceId = price.id;
          createdPrice = price.id;
        }
        const { couponId, createdCoupon } = await ensureCoupon(req.discount);
        const sub = await stripe.subscriptions.create(
          {
            customer: customerId,
            items: [{ price: priceId }],
            metadata: { purchase_id: String(req.purchaseId) },
            ...(req.trialDays > 0 ? { trial_period_days: req.trialDays } : {}),
            ...(couponId ? { discounts: [{ coupon: couponId }] } : {}),
            ...(req.paymentMethod
              ? { default_payment_method: req.paymentMethod, payment_behavior: 'error_if_incomplete' as const }
              : { payment_behavior: 'default_incomplete' as const, payment_settings: { save_default_payment_method: 'on_subscription' as const } }),
            expand: ['latest_invoice.confirmation_secret', 'pending_setup_intent'],
          },
          { idempotencyKey: req.idempotencyKey },
        );
        const invoice = typeof sub.latest_invoice === 'object' ? sub.latest_invoice : null;
        const setup = typeof sub.pending_setup_intent === 'object' ? sub.pending_setup_intent : null;
        const clientSecret = invoice?.confirmation_secret?.client_secret ?? setup?.client_secret ?? null;
        const paymentId = clientSecret ? (clientSecret.split('_secret_')[0] ?? null) : null;
        return {
          subscriptionId: sub.id,
          status: sub.status,
          clientSecret,
          paymentId,
          providerCustomerId: customerId,
          stripePriceId: createdPrice,
          stripeCouponId: createdCoupon,
        };
      }),

    createSession: (req) =>
      guarded(async () => {
        const customerId = await ensureCustomer(req.customer);
        const metadata = { purchase_id: String(req.purchaseId) };
        // One-off sessions already carry the discounted amount; subscriptions carry the full price and the coupon.
        const { couponId, createdCoupon } = req.subscription ? await ensureCoupon(req.discount) : { couponId: undefined, createdCoupon: undefined };
        const session = await stripe.checkout.sessions.create(
          {
            mode: req.subscription ? 'subscription' : 'payment',
            customer: customerId,
            client_reference_id: String(req.purchaseId),
            metadata,
            success_url: req.successUrl,
            cancel_url: req.cancelUrl,
            line_items: [
              {
                quantity: 1,
                price_data: {
                  currency: 'mxn',
                  unit_amount: req.amountCents,
                  product_data: { name: req.title },
                  ...(req.subscription ? { recurring: { interval: req.subscription.interval, interval_count: req.subscription.intervalCount } } : {}),
                },
              },
            ],
            ...(req.subscription
              ? { subscription_data: { metadata, ...(req.subscription.trialDays > 0 ? { trial_period_days: req.subscription.trialDays } : {}) } }
              : { payment_intent_data: { metadata } }),
            ...(couponId ? { discounts: [{ coupon: couponId }] } : {}),
          },
          { idempotencyKey: req.idempotencyKey },
        );
        if (!session.url) throw new DomainError('payment/provider-error');
        return { sessionId: session.id, url: session.url, providerCustomerId: customerId, stripeCouponId: createdCoupon };
      }),

    cancelSubscription: (subscriptionId, opts) =>
      guarded(async () => {
        if (opts.now) await stripe.subscriptions.cancel(subscriptionId);
        else await stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true });
      }),

    startCardSetup: (customer, idempotencyKey) =>
      guarded(async () => {
        const customerId = await ensureCustomer(customer);
        const intent = await stripe.setupIntents.create(
          { customer: customerId, usage: 'off_session', metadata: { customer_id: String(customer.customer_id) } },
          { idempotencyKey },
        );
        if (!intent.client_secret) throw new DomainError('payment/provider-error');
        return { clientSecret: intent.client_secret, providerCustomerId: customerId };
      }),

    saveCard: (customer, token) =>
      guarded(async () => {
        const customerId = await ensureCustomer(customer);
        // A card confirmed through a SetupIntent is already the customer's; attaching it again is not needed.
        const current = await stripe.paymentMethods.retrieve(token);
        const owner = idOf(current.customer);
        if (owner && owner !== customerId) throw new DomainError('payment-source/not-found');
        const pm = owner === customerId ? current : await stripe.paymentMethods.attach(token, { customer: customerId });
        return {
          source_id: pm.id,
          card_type: pm.card?.brand ?? 'other',
          last_digits: pm.card?.last4 ?? '',
          exp_month: pm.card?.exp_month ?? null,
          exp_year: pm.card?.exp_year ?? null,
          providerCustomerId: customerId,
        };
      }),

    removeCard: (sourceId) =>
      guarded(async () => {
        await stripe.paymentMethods.detach(sourceId);
      }),
  };
}

export { idOf as stripeIdOf };
