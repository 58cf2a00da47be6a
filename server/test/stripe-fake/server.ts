import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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
  close(): Promise<void>;
}

const declines: Record<string, string> = {
  pm_card_visa_chargeDeclinedInsufficientFunds: 'insufficient_funds',
  pm_card_chargeDeclined: 'generic_decline',
  pm_card_chargeDeclinedExpiredCard: 'expired_card',
  pm_card_chargeDeclinedIncorrectCvc: 'incorrect_cvc',
  pm_card_chargeDeclinedStolenCard: 'stolen_card',
};

const newId = (prefix: string) => `${prefix}_${randomBytes(8).toString('hex')}`;

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

  function route(method: string, path: string, form: Record<string, string>): { status: number; body: unknown } {
    const parts = path.split('/').filter(Boolean); // ['v1', 'payment_intents', id, 'confirm']
    const [, kind, id, action] = parts;
    if (method === 'POST' && kind === 'customers' && !id) {
      const c = { id: newId('cus'), object: 'customer', email: form.email ?? null, name: form.name ?? null, metadata: metadataOf(form) };
      objects.set(c.id, c);
      return { status: 200, body: c };
    }
    if (kind === 'payment_intents') {
      if (method === 'POST' && !id) {
        const pid = newId('pi');
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
        };
        objects.set(pid, intent);
        if (form.confirm === 'true' && form.payment_method) return pay(intent, form.payment_method);
        return { status: 200, body: intent };
      }
      const intent = id ? objects.get(id) : undefined;
      if (!intent || !id) return notFound(id ?? '');
      if (method === 'GET') return { status: 200, body: intent };
      if (method === 'POST' && action === 'confirm') return pay(intent, form.payment_method ?? '');
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
  return {
    host: '127.0.0.1',
    port,
    requests,
    objects,
    failing,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
