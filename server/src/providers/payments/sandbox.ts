import { createHmac, randomBytes } from 'node:crypto';
import { DomainError, PaymentDeclinedError, sandboxInstallmentPlans, sandboxOutcome } from '@estudio/core';
import type { CardProvider, PaymentStatus } from './types.ts';

/**
 * The embedded default (no STRIPE_SECRET_KEY): intents named after the
 * purchase ('sandbox_pi_<purchase>'), client secrets signed with the server
 * secret so they cannot be forged, and Stripe's test-card answers: the token
 * decides (pm_card_visa pays, pm_card_visa_chargeDeclinedInsufficientFunds
 * declines with insufficient_funds, …). No money moves and nothing leaves
 * the server.
 */
export function createSandboxProvider(secret: string): CardProvider {
  const sign = (paymentId: string) => createHmac('sha256', secret).update(paymentId).digest('base64url').slice(0, 24);
  const secretOf = (paymentId: string) => `${paymentId}_secret_${sign(paymentId)}`;
  // A saved card is '<test token>.<random>' (unique per card, as Stripe's ids are); it pays like its token.
  // The demo seed's saved cards ('pm_demo_visa_4242') pay like a visa.
  const pay = (token: string): PaymentStatus => {
    const base = token.split('.')[0] ?? token;
    const outcome = sandboxOutcome(base.startsWith('pm_demo_') ? 'pm_card_visa' : base);
    if (!outcome.ok) throw new PaymentDeclinedError(outcome.decline_code);
    return 'succeeded';
  };
  return {
    name: 'sandbox',
    async createPayment(req) {
      const paymentId = `sandbox_pi_${req.purchaseId}`;
      const status = req.paymentMethod ? pay(req.paymentMethod) : 'requires_payment_method';
      return { paymentId, clientSecret: secretOf(paymentId), status };
    },
    async confirmPayment(_paymentId, paymentMethod, _key, installments) {
      // A plan the card's bank does not offer is refused as Stripe refuses it (decision 082).
      if (installments && !sandboxInstallmentPlans(paymentMethod).includes(installments)) throw new DomainError('checkout/installments-plan');
      return pay(paymentMethod);
    },
    async createInstallmentPayment(req) {
      const paymentId = `sandbox_pi_${req.purchaseId}`;
      return { paymentId, clientSecret: secretOf(paymentId), status: 'requires_confirmation', availablePlans: sandboxInstallmentPlans(req.paymentMethod) };
    },
    async paymentStatus() {
      // Sandbox payments are only confirmed through confirmPayment, with a token.
      return 'requires_payment_method';
    },
    async paymentIdOf(clientSecret) {
      const m = /^(sandbox_pi_\d+)_secret_([\w-]+)$/.exec(clientSecret);
      if (!m?.[1] || m[2] !== sign(m[1])) return null;
      return m[1];
    },
    async refundPayment(paymentId, idempotencyKey) {
      // No money moved in the sandbox: nothing to give back. The id is stable per key, as Stripe's answer to a repeated key.
      return { refundId: `sandbox_re_${createHmac('sha256', secret).update(`${paymentId}:${idempotencyKey}`).digest('hex').slice(0, 16)}` };
    },
    async createSubscription(req) {
      const paymentId = `sandbox_pi_${req.purchaseId}`;
      const subscriptionId = `sandbox_sub_${req.purchaseId}`;
      if (req.paymentMethod) {
        pay(req.paymentMethod);
        return { subscriptionId, status: req.trialDays > 0 ? 'trialing' : 'active', clientSecret: null, paymentId };
      }
      return { subscriptionId, status: 'incomplete', clientSecret: secretOf(paymentId), paymentId };
    },
    async cancelSubscription() {
      // Nothing is scheduled here: the clock renews only subscriptions still active (decision 024).
    },
    async chargeSubscription(req) {
      // The saved card's token decides, as at checkout: pm_card_visa pays, a declining token declines.
      pay(req.paymentMethod);
      return { paymentId: `sandbox_pi_${req.idempotencyKey}` };
    },
    async saveCard(_customer, token, hint) {
      // The sandbox keeps the browser's test token as the card's id; a declining token saves fine and declines when used, as with Stripe.
      if (!token.startsWith('pm_card_')) throw new PaymentDeclinedError('incorrect_number');
      // A test token carries no expiry, and the expiry never leaves the browser (no card data reaches the server, decision 090):
      // a sandbox card has none, as the spec's saved cards; Stripe's cards carry the one Stripe read.
      return { source_id: `${token}.${randomBytes(6).toString('hex')}`, card_type: hint.card_type, last_digits: hint.last_digits, exp_month: null, exp_year: null };
    },
    async removeCard() {},
  };
}
