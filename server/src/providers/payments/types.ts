/**
 * The card payment provider behind checkout: Stripe, or the embedded sandbox
 * that answers like Stripe's test cards. Amounts are integer centavos (MXN).
 * Declines throw PaymentDeclinedError (402 with the decline code); other
 * provider failures throw DomainError('payment/provider-error').
 */

export interface ProviderCustomer {
  customer_id: number;
  email: string;
  name: string;
  last_name: string;
  stripe_customer_id: string | null;
}

export interface ChargeRequest {
  purchaseId: number;
  amountCents: number;
  description: string;
  customer: ProviderCustomer;
  /** A PaymentMethod (token or saved card): charge now instead of answering a client secret. */
  paymentMethod?: string | undefined;
  /** Keep the card for later (Stripe setup_future_usage). */
  saveCard?: boolean | undefined;
  idempotencyKey: string;
}

export type PaymentStatus = 'succeeded' | 'requires_payment_method' | 'requires_confirmation' | 'requires_action' | 'processing' | 'canceled';

export interface PaymentResult {
  paymentId: string;
  clientSecret: string;
  status: PaymentStatus;
  /** The provider customer id created on the way (stored on our customer). */
  providerCustomerId?: string | undefined;
}

export interface SubscriptionRequest {
  purchaseId: number;
  customer: ProviderCustomer;
  pkg: { class_package_id: number; title: string; stripe_price_id: string | null };
  /** Recurring amount, before any discount. */
  amountCents: number;
  interval: 'day' | 'week' | 'month' | 'year';
  intervalCount: number;
  trialDays: number;
  discount?: { discount_id: number; code: string; amount: string; is_percent: boolean; first_invoice_only: boolean; stripe_coupon_id: string | null } | undefined;
  paymentMethod?: string | undefined;
  idempotencyKey: string;
}

export interface SubscriptionResult {
  subscriptionId: string;
  /** Stripe's subscription status ('active', 'trialing', 'incomplete', …). */
  status: string;
  /** PaymentIntent secret of the first invoice, or SetupIntent secret ('seti_…') for a trial. */
  clientSecret: string | null;
  /** The id the browser confirms: PaymentIntent or SetupIntent of the subscription. */
  paymentId: string | null;
  providerCustomerId?: string | undefined;
  /** Created on the way (stored on the package / discount so they are created once). */
  stripePriceId?: string | undefined;
  stripeCouponId?: string | undefined;
}

export interface SessionRequest {
  purchaseId: number;
  customer: ProviderCustomer;
  title: string;
  amountCents: number;
  subscription?: { interval: SubscriptionRequest['interval']; intervalCount: number; trialDays: number } | undefined;
  /** Applied as a coupon to subscriptions (one-off amounts are already discounted). */
  discount?: SubscriptionRequest['discount'];
  successUrl: string;
  cancelUrl: string;
  idempotencyKey: string;
}

export interface SavedCard {
  source_id: string;
  card_type: string;
  last_digits: string;
  exp_month: number | null;
  exp_year: number | null;
  providerCustomerId?: string | undefined;
}

/** What Stripe says the customer must do to pay an OXXO voucher or a SPEI transfer, and what arrived so far. */
export interface VoucherInstructions {
  channel: 'oxxo' | 'spei';
  reference: string | null;
  expires_at: string | null;
  hosted_url: string | null;
  clabe: string | null;
  bank_name: string | null;
  amount_cents: number;
  received_cents: number;
  remaining_cents: number;
}

export interface VoucherRequest {
  purchaseId: number;
  amountCents: number;
  description: string;
  customer: ProviderCustomer;
  channel: 'oxxo' | 'spei';
  /** OXXO: calendar days until the voucher expires (Stripe: 1 to 7, at 23:59 Mexico City). */
  expiresAfterDays: number;
  /** What the payment is for: 'purchase' (metadata purchase_id) or a renewal (metadata renewal_payment_id). */
  metadata: Record<string, string>;
  idempotencyKey: string;
}

/** A payment as the provider sees it now (the clock asks when a voucher's hold ends). */
export interface PaymentState {
  status: PaymentStatus;
  amountReceivedCents: number;
  instructions: VoucherInstructions | null;
  /** The meses sin intereses plan the payment was confirmed with (the browser confirms it with Stripe.js). */
  installments: number | null;
}

export interface CardProvider {
  readonly name: 'sandbox' | 'stripe';
  /** One-off payment: a PaymentIntent, confirmed now when a payment method is given. */
  createPayment(req: ChargeRequest): Promise<PaymentResult>;
  /**
   * Confirms an existing payment with a payment method (sandbox: the browser's test token), with a meses sin intereses
   * plan when one was chosen (decision 082).
   */
  confirmPayment(paymentId: string, paymentMethod: string, idempotencyKey: string, installments?: number | null): Promise<PaymentStatus>;
  /**
   * A one-off payment with the card attached and not confirmed, asking which meses sin intereses plans the card's bank
   * offers for it (Stripe's available_plans: fixed_count, monthly). The browser chooses, then confirmPayment.
   */
  createInstallmentPayment(req: ChargeRequest & { paymentMethod: string }): Promise<PaymentResult & { availablePlans: number[] }>;
  /** An OXXO voucher or a SPEI transfer to the customer's own CLABE (Stripe only; decision 080). */
  createVoucher?(req: VoucherRequest): Promise<{ paymentId: string; providerCustomerId: string; instructions: VoucherInstructions }>;
  /** The provider's view of a payment now (a voucher's hold ending with no webhook yet). */
  paymentState?(paymentId: string): Promise<PaymentState>;
  /** Cancels a payment nobody will finish (a transfer whose hold ended: funds already sent stay in the customer's balance). */
  cancelPayment?(paymentId: string): Promise<void>;
  /** The provider's current status of a payment (after the browser confirmed it). */
  paymentStatus(paymentId: string): Promise<PaymentStatus>;
  /** The payment id inside a client secret, when the secret is genuine for it. */
  paymentIdOf(clientSecret: string): Promise<string | null>;
  /**
   * Gives back a successful one-off payment: in full (a purchase refused by a cap after its card was charged), or
   * `amountCents` of it (an admin's refund, decision 034). Answers the provider's refund id.
   */
  refundPayment(paymentId: string, idempotencyKey: string, opts?: { amountCents?: number; reason?: string }): Promise<{ refundId: string }>;
  createSubscription(req: SubscriptionRequest): Promise<SubscriptionResult>;
  /** Checkout Session (redirect); sandbox has none. */
  createSession?(req: SessionRequest): Promise<{ sessionId: string; url: string; providerCustomerId?: string | undefined; stripeCouponId?: string | undefined }>;
  cancelSubscription(subscriptionId: string, opts: { now: boolean }): Promise<void>;
  /**
   * Charges one renewal of a subscription that the server renews itself (the
   * sandbox's, from the clock; Stripe renews and retries its own). Declines
   * throw PaymentDeclinedError with the decline code.
   */
  chargeSubscription?(req: { subscriptionId: string; paymentMethod: string; amountCents: number; idempotencyKey: string }): Promise<{ paymentId: string }>;
  /**
   * Starts saving a card outside a purchase (Métodos de Pago, '+ Agregar'): a Stripe SetupIntent whose secret the
   * browser confirms with the card (3-D Secure included), then saveCard keeps the PaymentMethod. The sandbox has none:
   * its form sends the test token to saveCard directly.
   */
  startCardSetup?(customer: ProviderCustomer, idempotencyKey: string): Promise<{ clientSecret: string; providerCustomerId: string }>;
  saveCard(customer: ProviderCustomer, token: string, hint: { card_type: string; last_digits: string }): Promise<SavedCard>;
  removeCard(sourceId: string): Promise<void>;
}
