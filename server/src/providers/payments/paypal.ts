import { DomainError } from '@estudio/core';

/**
 * PayPal REST (v2 orders for one-off packages, v1 billing subscriptions for
 * recurring ones) with fetch against PAYPAL_API_BASE. The browser approves
 * with PayPal's button; the server creates orders (PayPal-Request-Id makes a
 * retried create idempotent), captures them, and reads subscriptions to
 * check they are active and belong to the plan before granting.
 */
export interface PayPalClient {
  createOrder(req: { purchaseId: number; amount: string; description: string; requestId: string }): Promise<{ id: string; status: string }>;
  /** `amount` is what PayPal says was captured (null when its answer has none). */
  captureOrder(orderId: string, requestId: string): Promise<{ id: string; status: string; customId: string | null; amount: { value: string; currency: string } | null }>;
  getSubscription(subscriptionId: string): Promise<{ id: string; status: string; plan_id: string; custom_id: string | null }>;
  cancelSubscription(subscriptionId: string, reason: string): Promise<void>;
}

export function createPayPalClient(opts: { base: string; clientId: string; secret: string; fetch?: typeof fetch }): PayPalClient {
  const doFetch = opts.fetch ?? fetch;
  const base = opts.base.replace(/\/$/, '');
  let token: { value: string; expiresAt: number } | null = null;

  async function accessToken(): Promise<string> {
    if (token && token.expiresAt > Date.now() + 30_000) return token.value;
    const res = await doFetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${opts.clientId}:${opts.secret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    if (!res.ok) throw Object.assign(new DomainError('payment/provider-error'), { cause: new Error(`PayPal token ${res.status}`) });
    const body = (await res.json()) as { access_token: string; expires_in: number };
    token = { value: body.access_token, expiresAt: Date.now() + body.expires_in * 1000 };
    return token.value;
  }

  async function api<T>(method: string, path: string, body?: unknown, requestId?: string): Promise<T> {
    const res = await doFetch(`${base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${await accessToken()}`,
        'content-type': 'application/json',
        ...(requestId ? { 'paypal-request-id': requestId } : {}),
      },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    if (res.status === 422 || res.status === 404) throw new DomainError('payment/not-approved');
    if (!res.ok) throw Object.assign(new DomainError('payment/provider-error'), { cause: new Error(`PayPal ${method} ${path} ${res.status}: ${(await res.text()).slice(0, 500)}`) });
    const text = await res.text();
    return (text ? JSON.parse(text) : {}) as T;
  }

  return {
    async createOrder(req) {
      const order = await api<{ id: string; status: string }>(
        'POST',
        '/v2/checkout/orders',
        {
          intent: 'CAPTURE',
          purchase_units: [
            { reference_id: String(req.purchaseId), custom_id: String(req.purchaseId), description: req.description.slice(0, 127), amount: { currency_code: 'MXN', value: req.amount } },
          ],
        },
        req.requestId,
      );
      return { id: order.id, status: order.status };
    },
    async captureOrder(orderId, requestId) {
      const order = await api<{
        id: string;
        status: string;
        purchase_units?: { payments?: { captures?: { custom_id?: string; amount?: { value: string; currency_code: string } }[] } }[];
      }>(
        'POST',
        `/v2/checkout/orders/${encodeURIComponent(orderId)}/capture`,
        {},
        requestId,
      );
      const capture = order.purchase_units?.[0]?.payments?.captures?.[0];
      return {
        id: order.id,
        status: order.status,
        customId: capture?.custom_id ?? null,
        amount: capture?.amount ? { value: capture.amount.value, currency: capture.amount.currency_code } : null,
      };
    },
    async getSubscription(subscriptionId) {
      const sub = await api<{ id: string; status: string; plan_id: string; custom_id?: string }>('GET', `/v1/billing/subscriptions/${encodeURIComponent(subscriptionId)}`);
      return { id: sub.id, status: sub.status, plan_id: sub.plan_id, custom_id: sub.custom_id ?? null };
    },
    async cancelSubscription(subscriptionId, reason) {
      await api('POST', `/v1/billing/subscriptions/${encodeURIComponent(subscriptionId)}/cancel`, { reason: reason.slice(0, 127) });
    },
  };
}
