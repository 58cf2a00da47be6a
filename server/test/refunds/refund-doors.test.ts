import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, invoice, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * The refund's two rules through the door the owner's console uses (/trpc),
 * beside refunds.test.ts's REST: at most the unused share, to the centavo
 * (one centavo more is refused, exactly the share is given), and the front
 * desk refused, whether it asks for the refund or only for the quote, with
 * nothing changed by the refusal.
 */
let server: TestServer;
let admin: string;
let recepcion: string;
let mariana: number;
const pkg: Record<string, number> = {};

demoStudio(['admin', 'recepcion'], (s) => ({ server, tokens: { admin, recepcion } } = s));
beforeAll(async () => {
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
  const [row] = await server.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
  mariana = row!.customer_id;
}, 120_000);

/** A tRPC mutation's answer: its data, or its refusal's status and domain code. */
async function trpc(path: string, token: string, input: unknown, kind: 'mutation' | 'query' = 'mutation') {
  const res =
    kind === 'mutation'
      ? await call(server.app, 'POST', `/trpc/${path}`, { token, body: input })
      : await call(server.app, 'GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { token });
  const error = res.body.error as { message: string; data: { httpStatus: number; domainCode: string } } | undefined;
  return { status: res.status, data: (res.body.result as { data?: Record<string, unknown> } | undefined)?.data, code: error?.data.domainCode, message: error?.message };
}

/** Sold at the desk for cash, as the owner does: '5 Clases', $800. */
async function sellFiveClasses(): Promise<number> {
  const res = await call(server.app, 'POST', '/api/customer/giveAccess', { token: admin, body: { customer_id: mariana, class_package_id: pkg['5 Clases'], payment_method_id: 2, bill: true } });
  expect(res.status).toBe(200);
  return res.body.purchase_id as number;
}

/** Two of its five classes booked (the credit row pays them). */
async function useTwoClasses(purchaseId: number) {
  await server.db.update(available_classes).set({ available_classes: 3 }).where(eq(available_classes.purchase_id, purchaseId));
  const [credit] = await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, purchaseId));
  const two = await server.db.select().from(single_class).limit(2);
  await server.db.insert(class_reservation).values(two.map((c) => ({ single_class_id: c.single_class_id, customer_id: mariana, available_class_id: credit!.available_class_id })));
}

const refundsOf = (purchaseId: number) => server.db.select().from(invoice).where(and(eq(invoice.purchase_id, purchaseId), eq(invoice.status, 'refunded')));

describe('the refund bound, over /trpc', () => {
  it('two of five classes used: $480.01 is refused in Spanish and changes nothing; $480.00 is refunded', async () => {
    const id = await sellFiveClasses();
    await useTwoClasses(id);
    const quote = await trpc('purchases.refundQuote', admin, { id }, 'query');
    expect(quote.data).toMatchObject({ paid: '800.00', used: 2, refundable: '480.00' });

    const over = await trpc('purchases.refund', admin, { id, reason: 'Se cambia de ciudad', amount: '480.01' });
    expect({ status: over.status, code: over.code }).toEqual({ status: 409, code: 'refund/over-limit' });
    expect(over.message).toBe('Ya se usaron 2 clases de esta compra: puedes reembolsar hasta $480.00.');
    expect(await refundsOf(id)).toEqual([]);
    expect((await server.db.select().from(purchase).where(eq(purchase.purchase_id, id)))[0]?.status).not.toBe('revoked');

    const exact = await trpc('purchases.refund', admin, { id, reason: 'Se cambia de ciudad', amount: 480 });
    expect(exact.status).toBe(200);
    expect(exact.data?.refund).toMatchObject({ purchase_id: id, amount: '480.00', method: 'cash' });
    expect((await refundsOf(id)).map((r) => r.total_payment)).toEqual(['480.00']);
  });

  it('nothing used: the whole price is the bound, a centavo more is refused', async () => {
    const id = await sellFiveClasses();
    const over = await trpc('purchases.refund', admin, { id, reason: 'Pagó dos veces', amount: '800.01' });
    expect({ status: over.status, code: over.code }).toEqual({ status: 409, code: 'refund/over-limit' });
    const whole = await trpc('purchases.refund', admin, { id, reason: 'Pagó dos veces' });
    expect(whole.data?.refund).toMatchObject({ amount: '800.00' });
  });
});

describe('reception refused a refund, over /trpc', () => {
  it('neither the quote nor the refund; the purchase, its credits and the audit log stay as they were, and the owner can still refund it', async () => {
    const id = await sellFiveClasses();
    const before = {
      purchase: await server.db.select().from(purchase).where(eq(purchase.purchase_id, id)),
      credits: await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, id)),
    };

    const quote = await trpc('purchases.refundQuote', recepcion, { id }, 'query');
    expect({ status: quote.status, code: quote.code }).toEqual({ status: 403, code: 'forbidden' });
    const refused = await trpc('purchases.refund', recepcion, { id, reason: 'Lo pidió en recepción' });
    expect({ status: refused.status, code: refused.code }).toEqual({ status: 403, code: 'forbidden' });
    expect(refused.message).toBe('No tienes permiso para realizar esta acción.');

    expect(await server.db.select().from(purchase).where(eq(purchase.purchase_id, id))).toEqual(before.purchase);
    expect(await server.db.select().from(available_classes).where(eq(available_classes.purchase_id, id))).toEqual(before.credits);
    expect(await refundsOf(id)).toEqual([]);
    expect(await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'purchase'), eq(audit_log.entity_id, String(id)), eq(audit_log.action, 'refund')))).toEqual([]);

    const byOwner = await trpc('purchases.refund', admin, { id, reason: 'Lo pidió en recepción' });
    expect(byOwner.status).toBe(200);
  });
});
