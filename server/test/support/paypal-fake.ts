import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { app_config } from '@estudio/db/schema/app-config';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method } from '@estudio/db/schema/payments';
import type { TestServer } from './helpers.ts';

export interface PayPalCall {
  method: string;
  path: string;
  body: Record<string, unknown>;
  requestId: string | undefined;
  auth: string | undefined;
}

export interface PayPalOrder {
  status: string;
  custom_id: string;
  value: string;
  /** What the capture reports, when a test wants it to differ from the order's amount. */
  captured?: { value: string; currency_code: string };
}

export interface PayPalFake {
  base: string;
  /** Every request after the token, in order; tests may empty it. */
  calls: PayPalCall[];
  orders: Map<string, PayPalOrder>;
  subscriptions: Map<string, { status: string; plan_id: string; custom_id?: string }>;
  /** The server environment that points the product at this fake. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * PayPal REST on loopback, as much as the product calls: OAuth token, order
 * create and capture (the capture reports the order's amount in MXN unless a
 * test sets `captured`), subscription read and cancel. Orders start CREATED;
 * a test approves one by setting its status, as the buyer would in PayPal.
 */
export function startPayPalFake(): Promise<PayPalFake> {
  const calls: PayPalCall[] = [];
  const orders: PayPalFake['orders'] = new Map();
  const subscriptions: PayPalFake['subscriptions'] = new Map();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const body = text && req.headers['content-type']?.includes('json') ? (JSON.parse(text) as Record<string, unknown>) : {};
      calls.push({ method: req.method ?? 'GET', path, body, requestId: req.headers['paypal-request-id'] as string | undefined, auth: req.headers.authorization });
      const send = (status: number, payload: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
      if (path === '/v1/oauth2/token') return send(200, { access_token: 'A21-token', expires_in: 3600 });
      if (req.headers.authorization !== 'Bearer A21-token') return send(401, { error: 'invalid_token' });
      if (req.method === 'POST' && path === '/v2/checkout/orders') {
        const unit = (body.purchase_units as { custom_id: string; amount: { value: string } }[])[0]!;
        const id = `ORDER${orders.size + 1}`;
        orders.set(id, { status: 'CREATED', custom_id: unit.custom_id, value: unit.amount.value });
        return send(201, { id, status: 'CREATED' });
      }
      const capture = /^\/v2\/checkout\/orders\/(\w+)\/capture$/.exec(path);
      if (req.method === 'POST' && capture?.[1]) {
        const order = orders.get(capture[1]);
        if (!order || order.status !== 'APPROVED') return send(422, { name: 'UNPROCESSABLE_ENTITY' });
        order.status = 'COMPLETED';
        const amount = order.captured ?? { value: order.value, currency_code: 'MXN' };
        return send(201, { id: capture[1], status: 'COMPLETED', purchase_units: [{ payments: { captures: [{ custom_id: order.custom_id, amount }] } }] });
      }
      const sub = /^\/v1\/billing\/subscriptions\/([\w-]+)(\/cancel)?$/.exec(path);
      if (sub?.[1]) {
        const s = subscriptions.get(sub[1]);
        if (!s) return send(404, { name: 'RESOURCE_NOT_FOUND' });
        if (sub[2]) {
          s.status = 'CANCELLED';
          return res.writeHead(204).end();
        }
        return send(200, { id: sub[1], ...s });
      }
      return send(404, { name: 'NOT_FOUND' });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      resolve({
        base,
        calls,
        orders,
        subscriptions,
        env: { PAYPAL_CLIENT_ID: 'cliente-paypal', PAYPAL_SECRET: 'secreto-paypal', PAYPAL_API_BASE: base },
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    }),
  );
}

/** Turns PayPal on in the studio (config and payment method) and gives 'Online Mensual' the fake's plan 'P-ONLINE'. */
export async function enablePayPalCheckout(server: TestServer, pkg: Record<string, number>): Promise<void> {
  await server.db.insert(app_config).values({ key: 'paypal_enabled', value: 'true' }).onConflictDoUpdate({ target: app_config.key, set: { value: 'true' } });
  await server.db.update(payment_method).set({ available: true }).where(eq(payment_method.provider, 'paypal'));
  await server.db.update(class_package).set({ paypal_plan_id: 'P-ONLINE' }).where(eq(class_package.class_package_id, pkg['Online Mensual']!));
}
