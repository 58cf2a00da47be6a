import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';

/**
 * A tiny Stripe-speaking HTTP server on loopback for tests: the real
 * stripe-node client talks to it (host/port/protocol options). It keeps
 * objects in memory, answers the calls the Stripe provider makes, declines
 * Stripe's test PaymentMethods with their decline codes, and replays the
 * stored answer for a repeated Idempotency-Key as Stripe does.
 */
export interface StripeFake {
  host: string;
  port: number;
  /** Every request: method, path, form fields and idempotency key. */
  requests: { method: string; path: string; form: Record<string, string>; idempotencyKey: string | undefined }[];
  objects: Map<string, Record<string, unknown>>;
  /** Paths that answer 500 (an outage), to test provider failures. */
  failing: Set<string>;
  /** Where events go when the fake sends them (a server's /api/webhooks/stripe), signed as Stripe signs them. */
  webhookUrl: string | null;
  /** The account GET /v1/account answers (the studio's, as its secret key sees it); change it to test the owner's check. */
  account: Record<string, unknown>;
  /** Secret keys Stripe refuses with 401, as a revoked or mistyped key is. */
  refusedKeys: Set<string>;
  /** OXXO: the customer paid the voucher at the store (payment_intent.succeeded). */
  payVoucher(paymentIntentId: string): StripeEventLike;
  /** OXXO: the voucher expired unpaid (payment_intent.payment_failed, the intent back to requires_payment_method). */
  expireVoucher(paymentIntentId: string): StripeEventLike;
  /**
   * SPEI: a transfer of `amountCents` reached the customer's CLABE. Stripe's automatic reconciliation applies it to
   * the customer's open bank-transfer intents, oldest first; a part of one leaves it partially funded, anything over
   * stays in the customer's cash balance. Answers the events Stripe sends, in order.
   */
  fundBankTransfer(customerId: string, amountCents: number): StripeEventLike[];
  /** Signs and POSTs an event to webhookUrl; answers the server's status. */
  send(event: StripeEventLike): Promise<number>;
  close(): Promise<void>;
}

export interface StripeEventLike {
  id: string;
  object: 'event';
  type: string;
  api_version: string;
  created: number;
  livemode: false;
  data: { object: Record<string, unknown> };
}

const declines: Record<string, string> = {
  pm_card_visa_chargeDeclinedInsufficientFunds: 'insufficient_funds',
  pm_card_chargeDeclined: 'generic_decline',
  pm_card_chargeDeclinedExpiredCard: 'expired_card',
  pm_card_chargeDeclinedIncorrectCvc: 'incorrect_cvc',
  pm_card_chargeDeclinedStolenCard: 'stolen_card',
};

const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

/** Stripe's default minimum of each meses sin intereses plan, in centavos; its Mexican test card's bank offers all four. */
const installmentMinimums: Record<number, number> = { 3: 30_000, 6: 60_000, 9: 90_000, 12: 120_000 };
const installmentCards = new Set(['pm_card_mx']);

/** form fields under a bracketed prefix, e.g. payment_method_types[0]. */
function listOf(form: Record<string, string>, name: string): string[] {
  return Object.entries(form)
    .filter(([k]) => k.startsWith(`${name}[`))
    .map(([, v]) => v);
}

const signer = new Stripe('sk_test_estudio_fake');
const fakeWebhookSecret = 'whsec_estudio_prueba';

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function metadataOf(form: Record<string, string>, prefix = 'metadata'): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) {
    const m = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[(\\w+)\\]$`).exec(k);
    if (m?.[1]) out[m[1]] = v;
  }
  return out;
}

export async function startStripeFake(): Promise<StripeFake> {
  const objects = new Map<string, Record<string, unknown>>();
  const requests: StripeFake['requests'] = [];
  const replies = new Map<string, { status: number; body: unknown }>();
  const failing = new Set<string>();
  let port = 0;

  const cardError = (declineCode: string) => ({
    status: 402,
    body: { error: { type: 'card_error', code: 'card_declined', decline_code: declineCode, message: 'Your card was declined.' } },
  });
  const notFound = (id: string) => ({ status: 404, body: { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: '${id}'` } } });

  function pay(intent: Record<string, unknown>, paymentMethod: string) {
    const decline = declines[paymentMethod];
    intent.payment_method = paymentMethod;
    if (decline) {
      intent.status = 'requires_payment_method';
      intent.last_payment_error = { type: 'card_error', code: 'card_declined', decline_code: decline };
      return cardError(decline);
    }
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    return { status: 200, body: intent };
  }

  /** An OXXO voucher: a reference and its expiry, at 23:59 Mexico City (UTC-6) N days on, as Stripe sets it. */
  function oxxoVoucher(intent: Record<string, unknown>, days: number) {
    const amount = Number(intent.amount);
    if (amount < 1000 || amount > 1_000_000) {
      return { status: 400, body: { error: { type: 'invalid_request_error', code: 'amount_too_large', message: 'OXXO payments must be between 10.00 MXN and 10,000.00 MXN.' } } };
    }
    const expires = new Date();
    expires.setUTCHours(expires.getUTCHours() - 6);
    expires.setUTCDate(expires.getUTCDate() + days);
    expires.setUTCHours(23 + 6, 59, 59, 0);
    const number = String(Date.now()).slice(-10) + String(Math.floor(Math.random() * 1e8)).padStart(8, '0');
    intent.status = 'requires_action';
    intent.payment_method = newId('pm');
    intent.next_action = {
      type: 'oxxo_display_details',
      oxxo_display_details: { expires_after: Math.floor(expires.getTime() / 1000), hosted_voucher_url: `https://payments.stripe.test/oxxo/voucher/${intent.id as string}`, number },
    };
    return { status: 200, body: intent };
  }

  /** The customer's own CLABE (one per customer, kept) and the transfer's reference. */
  function bankTransfer(intent: Record<string, unknown>) {
    const customerId = intent.customer as string | null;
    if (!customerId) return { status: 400, body: { error: { type: 'invalid_request_error', message: 'A customer is required for customer_balance payments.' } } };
    const customer = objects.get(customerId) ?? { id: customerId };
    if (!customer.clabe) {
      const first17 = `124180${String(Math.floor(Math.random() * 1e11)).padStart(11, '0')}`;
      const weights = [3, 7, 1];
      const sum = [...first17].reduce((n, d, i) => n + ((Number(d) * (weights[i % 3] as number)) % 10), 0);
      customer.clabe = `${first17}${(10 - (sum % 10)) % 10}`;
      customer.cash_balance = 0;
      objects.set(customerId, customer);
    }
    intent.status = 'requires_action';
    intent.payment_method = newId('pm');
    intent.amount_remaining = intent.amount;
    intent.next_action = bankInstructions(intent, customer.clabe as string);
    return { status: 200, body: intent };
  }

  function bankInstructions(intent: Record<string, unknown>, clabe: string) {
    return {
      type: 'display_bank_transfer_instructions',
      display_bank_transfer_instructions: {
        amount_remaining: intent.amount_remaining,
        currency: 'mxn',
        financial_addresses: [{ type: 'spei', supported_networks: ['spei'], spei: { bank_code: '124', bank_name: 'Banco Citi México', clabe } }],
        hosted_instructions_url: `https://payments.stripe.test/bank_transfers/${intent.id as string}`,
        reference: (intent.reference as string | undefined) ?? (intent.reference = String(Math.floor(Math.random() * 1e7)).padStart(7, '0')),
        type: 'mx_bank_transfer',
      },
    };
  }

  /** The plans the card's bank offers for the amount (Stripe's available_plans). */
  function installmentPlans(intent: Record<string, unknown>, paymentMethod: string) {
    const amount = Number(intent.amount);
    const plans = installmentCards.has(paymentMethod.split('.')[0] ?? paymentMethod)
      ? Object.entries(installmentMinimums)
          .filter(([, min]) => amount >= min)
          .map(([count]) => ({ count: Number(count), interval: 'month', type: 'fixed_count' }))
      : [];
    intent.payment_method = paymentMethod;
    intent.status = 'requires_confirmation';
    intent.payment_method_options = { card: { installments: { enabled: true, available_plans: plans, plan: null } } };
    return { status: 200, body: intent };
  }

  let eventCounter = 0;
  const event = (type: string, object: Record<string, unknown>): StripeEventLike => ({
    id: `evt_fake_${Date.now()}_${++eventCounter}`,
    object: 'event',
    type,
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: structuredClone(object) },
  });

  function route(method: string, path: string, form: Record<string, string>): { status: number; body: unknown } {
    const parts = path.split('/').filter(Boolean); // ['v1', 'payment_intents', id, 'confirm']
    const [, kind, id, action] = parts;
    if (method === 'GET' && kind === 'account' && !id) return { status: 200, body: fake.account };
    if (method === 'POST' && kind === 'customers' && !id) {
      const c = { id: newId('cus'), object: 'customer', email: form.email ?? null, name: form.name ?? null, metadata: metadataOf(form) };
      objects.set(c.id, c);
      return { status: 200, body: c };
    }
    if (kind === 'payment_intents') {
      if (method === 'POST' && !id) {
        const pid = newId('pi');
        const types = [...listOf(form, 'allowed_payment_method_types'), ...listOf(form, 'payment_method_types')];
        const intent: Record<string, unknown> = {
          id: pid,
          object: 'payment_intent',
          amount: Number(form.amount),
          amount_received: 0,
          currency: form.currency,
          customer: form.customer ?? null,
          description: form.description ?? null,
          metadata: metadataOf(form),
          client_secret: `${pid}_secret_${randomBytes(8).toString('hex')}`,
          status: 'requires_payment_method',
          setup_future_usage: form.setup_future_usage ?? null,
          payment_method_types: types.length ? types : ['card'],
          payment_method_options: {},
          next_action: null,
          created: Math.floor(Date.now() / 1000),
        };
        objects.set(pid, intent);
        if (types.includes('oxxo') && form.confirm === 'true') return oxxoVoucher(intent, Number(form['payment_method_options[oxxo][expires_after_days]'] ?? 3));
        if (types.includes('customer_balance') && form.confirm === 'true') return bankTransfer(intent);
        if (form['payment_method_options[card][installments][enabled]'] === 'true' && form.payment_method) return installmentPlans(intent, form.payment_method);
        if (form.confirm === 'true' && form.payment_method) return pay(intent, form.payment_method);
        return { status: 200, body: intent };
      }
      const intent = id ? objects.get(id) : undefined;
      if (!intent || !id) return notFound(id ?? '');
      if (method === 'GET') return { status: 200, body: intent };
      if (method === 'POST' && action === 'confirm') {
        const count = form['payment_method_options[card][installments][plan][count]'];
        if (count) {
          // Stripe refuses a plan that is not among the intent's available plans.
          const card = (intent.payment_method_options as { card?: { installments?: { available_plans?: { count: number }[]; plan?: unknown } } }).card;
          if (!card?.installments?.available_plans?.some((p) => p.count === Number(count))) {
            return { status: 400, body: { error: { type: 'invalid_request_error', code: 'parameter_invalid', param: 'payment_method_options[card][installments][plan]', message: 'The selected installment plan is not available.' } } };
          }
          card.installments.plan = { type: 'fixed_count', interval: 'month', count: Number(count) };
        }
        return pay(intent, form.payment_method ?? (intent.payment_method as string) ?? '');
      }
      if (method === 'POST' && action === 'cancel') {
        if (intent.status === 'succeeded') return { status: 400, body: { error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'This PaymentIntent has already succeeded.' } } };
        intent.status = 'canceled';
        intent.next_action = null;
        return { status: 200, body: intent };
      }
    }
    if (method === 'POST' && kind === 'prices' && !id) {
      const recurring = form['recurring[interval]'] ? { interval: form['recurring[interval]'], interval_count: Number(form['recurring[interval_count]'] ?? 1) } : null;
      const price = { id: newId('price'), object: 'price', active: true, product: form.product ?? null, currency: form.currency, unit_amount: Number(form.unit_amount), recurring, metadata: metadataOf(form) };
      objects.set(price.id, price);
      return { status: 200, body: price };
    }
    // Products, and archiving or renaming products and prices (the admin's package catalogue).
    if (method === 'POST' && kind === 'products' && !id) {
      const product = { id: newId('prod'), object: 'product', active: true, name: form.name, description: form.description ?? null, metadata: metadataOf(form) };
      objects.set(product.id, product);
      return { status: 200, body: product };
    }
    if (method === 'POST' && (kind === 'products' || kind === 'prices') && id && !action) {
      const object = objects.get(id);
      if (!object) return notFound(id);
      if (form.active !== undefined) object.active = form.active === 'true';
      if (form.name !== undefined) object.name = form.name;
      if (form.description !== undefined) object.description = form.description || null;
      return { status: 200, body: object };
    }
    if (method === 'POST' && kind === 'refunds' && !id) {
      const intent = objects.get(form.payment_intent ?? '');
      if (!intent) return notFound(form.payment_intent ?? '');
      if (intent.status !== 'succeeded') return { status: 400, body: { error: { type: 'invalid_request_error', code: 'charge_not_refundable', message: 'This PaymentIntent has no successful charge to refund.' } } };
      const already = Number(intent.amount_refunded ?? 0);
      const amount = form.amount ? Number(form.amount) : Number(intent.amount) - already;
      if (amount <= 0 || already + amount > Number(intent.amount)) {
        return { status: 400, body: { error: { type: 'invalid_request_error', code: 'amount_too_large', message: 'Refund amount is greater than unrefunded amount on charge.' } } };
      }
      const refund = { id: newId('re'), object: 'refund', payment_intent: intent.id, amount, reason: form.reason ?? null, status: 'succeeded', metadata: metadataOf(form) };
      objects.set(refund.id, refund);
      intent.amount_refunded = already + amount;
      return { status: 200, body: refund };
    }
    if (method === 'POST' && kind === 'coupons' && !id) {
      const coupon = { id: newId('coupon'), object: 'coupon', duration: form.duration, percent_off: form.percent_off ? Number(form.percent_off) : null, amount_off: form.amount_off ? Number(form.amount_off) : null };
      objects.set(coupon.id, coupon);
      return { status: 200, body: coupon };
    }
    if (kind === 'subscriptions') {
      if (method === 'POST' && !id) {
        const subId = newId('sub');
        const trial = Number(form.trial_period_days ?? 0);
        const pm = form.default_payment_method;
        if (pm && declines[pm] && trial === 0) return cardError(declines[pm]);
        const invId = newId('in');
        const invPi = newId('pi');
        const setId = newId('seti');
        const status = pm ? (trial > 0 ? 'trialing' : 'active') : trial > 0 ? 'trialing' : 'incomplete';
        const sub = {
          id: subId,
          object: 'subscription',
          customer: form.customer,
          status,
          metadata: metadataOf(form),
          cancel_at_period_end: false,
          latest_invoice: {
            id: invId,
            object: 'invoice',
            confirmation_secret: trial > 0 || pm ? null : { client_secret: `${invPi}_secret_${randomBytes(6).toString('hex')}`, type: 'payment_intent' },
          },
          pending_setup_intent: trial > 0 && !pm ? { id: setId, object: 'setup_intent', client_secret: `${setId}_secret_${randomBytes(6).toString('hex')}` } : null,
        };
        objects.set(subId, sub);
        return { status: 200, body: sub };
      }
      const sub = id ? objects.get(id) : undefined;
      if (!sub || !id) return notFound(id ?? '');
      if (method === 'POST') {
        if (form.cancel_at_period_end === 'true') sub.cancel_at_period_end = true;
        return { status: 200, body: sub };
      }
      if (method === 'DELETE') {
        sub.status = 'canceled';
        return { status: 200, body: sub };
      }
    }
    if (method === 'POST' && kind === 'checkout' && id === 'sessions') {
      const session = {
        id: newId('cs_test'),
        object: 'checkout.session',
        mode: form.mode,
        url: `https://checkout.stripe.test/pay/${randomBytes(6).toString('hex')}`,
        metadata: metadataOf(form),
        client_reference_id: form.client_reference_id,
        success_url: form.success_url,
      };
      objects.set(session.id, session);
      return { status: 200, body: session };
    }
    if (method === 'POST' && kind === 'setup_intents' && !id) {
      const sid = newId('seti');
      const intent = { id: sid, object: 'setup_intent', customer: form.customer ?? null, usage: form.usage ?? null, status: 'requires_payment_method', client_secret: `${sid}_secret_${randomBytes(6).toString('hex')}`, metadata: metadataOf(form) };
      objects.set(sid, intent);
      return { status: 200, body: intent };
    }
    if (method === 'GET' && kind === 'payment_methods' && id && !action) {
      // Stripe's test PaymentMethods (pm_card_visa, …) exist unattached until a customer takes them.
      const known = objects.get(id);
      if (known) return { status: 200, body: known };
      if (!id.startsWith('pm_card_')) return notFound(id);
      const brand = id.includes('mastercard') ? 'mastercard' : 'visa';
      return { status: 200, body: { id, object: 'payment_method', customer: null, card: { brand, last4: brand === 'visa' ? '4242' : '4444', exp_month: 12, exp_year: 2034 } } };
    }
    if (method === 'POST' && kind === 'payment_methods' && id && (action === 'attach' || action === 'detach')) {
      const brand = id.includes('mastercard') ? 'mastercard' : 'visa';
      const pm = { id: action === 'attach' ? newId('pm') : id, object: 'payment_method', customer: action === 'attach' ? form.customer : null, card: { brand, last4: brand === 'visa' ? '4242' : '4444', exp_month: 12, exp_year: 2034 } };
      objects.set(pm.id, pm);
      return { status: 200, body: pm };
    }
    return { status: 404, body: { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path})` } } };
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const raw = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const form = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : raw));
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      requests.push({ method: req.method ?? 'GET', path: url.pathname, form, idempotencyKey });
      const key = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      if (fake.refusedKeys.has(key)) {
        res.writeHead(401, { 'content-type': 'application/json', 'request-id': newId('req') });
        res.end(JSON.stringify({ error: { type: 'invalid_request_error', message: 'Invalid API Key provided: sk_test_****' } }));
        return;
      }
      const replayKey = idempotencyKey ? `${req.method} ${url.pathname} ${idempotencyKey}` : null;
      const outage = failing.has(url.pathname) ? { status: 500, body: { error: { type: 'api_error', message: 'Stripe no responde.' } } } : null;
      const reply = outage ?? ((replayKey && replies.get(replayKey)) || route(req.method ?? 'GET', url.pathname, form));
      if (replayKey && !outage && !replies.has(replayKey)) replies.set(replayKey, reply);
      res.writeHead(reply.status, { 'content-type': 'application/json', 'request-id': newId('req') });
      res.end(JSON.stringify(reply.body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  const fake: StripeFake = {
    host: '127.0.0.1',
    port,
    requests,
    objects,
    failing,
    webhookUrl: null,
    account: { id: 'acct_estudio', object: 'account', country: 'MX', default_currency: 'mxn', charges_enabled: true, settings: { dashboard: { display_name: 'Estudio Demo' } }, business_profile: { name: 'Estudio Demo' } },
    refusedKeys: new Set<string>(),
    payVoucher(id) {
      const intent = objects.get(id);
      if (!intent) throw new Error(`no intent ${id}`);
      intent.status = 'succeeded';
      intent.amount_received = intent.amount;
      intent.next_action = null;
      return event('payment_intent.succeeded', intent);
    },
    expireVoucher(id) {
      const intent = objects.get(id);
      if (!intent) throw new Error(`no intent ${id}`);
      intent.status = 'requires_payment_method';
      intent.next_action = null;
      intent.last_payment_error = { type: 'invalid_request_error', code: 'payment_intent_payment_attempt_expired', message: 'The OXXO voucher expired.' };
      return event('payment_intent.payment_failed', intent);
    },
    fundBankTransfer(customerId, amountCents) {
      const customer = objects.get(customerId);
      if (!customer?.clabe) throw new Error(`customer ${customerId} has no CLABE`);
      const events: StripeEventLike[] = [];
      let left = amountCents;
      const open = [...objects.values()]
        .filter((o) => o.object === 'payment_intent' && o.customer === customerId && o.status === 'requires_action' && (o.payment_method_types as string[]).includes('customer_balance'))
        .sort((a, b) => Number(a.created) - Number(b.created));
      for (const intent of open) {
        if (left <= 0) break;
        const remaining = Number(intent.amount_remaining ?? intent.amount);
        const applied = Math.min(left, remaining);
        left -= applied;
        intent.amount_remaining = remaining - applied;
        if (intent.amount_remaining === 0) {
          intent.status = 'succeeded';
          intent.amount_received = intent.amount;
          intent.next_action = null;
          events.push(event('payment_intent.succeeded', intent));
        } else {
          intent.next_action = bankInstructions(intent, customer.clabe as string);
          events.push(event('payment_intent.partially_funded', intent));
        }
      }
      if (left > 0) {
        customer.cash_balance = Number(customer.cash_balance ?? 0) + left;
        events.push(event('cash_balance.funds_available', { object: 'cash_balance', customer: customerId, available: { mxn: customer.cash_balance }, livemode: false }));
      }
      return events;
    },
    async send(ev) {
      if (!fake.webhookUrl) throw new Error('webhookUrl is not set');
      const payload = JSON.stringify(ev);
      const header = signer.webhooks.generateTestHeaderString({ payload, secret: fakeWebhookSecret });
      const res = await fetch(fake.webhookUrl, { method: 'POST', body: payload, headers: { 'content-type': 'application/json', 'stripe-signature': header } });
      return res.status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}
