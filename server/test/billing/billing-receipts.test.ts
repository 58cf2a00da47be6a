import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { class_package } from '@estudio/db/schema/packages';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import { customer } from '@estudio/db/schema/customer';
import { checkoutAttempt, checkoutCreate } from '../../src/services/checkout/checkout.ts';
import { giveAccess } from '../../src/services/desk/give-access.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { markCashPurchasePaid } from '../../src/services/desk/mark-purchase-paid.ts';
import { type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import type { Db } from '../../src/db.ts';
import { buy, dailySubscription, emailsOf, messagesOf, newCustomer, saveCard } from '../support/billing-fixtures.ts';

/** The demo admin: gives the access in these stories (a gift needs its giver, decision 037). */
async function adminOf(db: Db): Promise<number> {
  const [row] = await db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, 'admin@estudio.demo'));
  if (!row) throw new Error('no admin');
  return row.id;
}

/**
 * Receipts (decision 024): queued in the transaction that makes a
 * purchase paid (markPurchasePaid), whichever way it was paid; a purchase
 * that cost nothing gets a confirmation instead.
 */
let server: TestServer;
const pkg: Record<string, number> = {};

demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
}, 120_000);

const invoiceOf = async (purchaseId: number) => (await server.db.select().from(invoice).where(eq(invoice.purchase_id, purchaseId)))[0]!;

describe('purchase receipts', () => {
  it('a card purchase: one receipt with the order, package, amount, method, date, classes and expiry, linking to the order page', async () => {
    const who = await newCustomer(server.db, 'Valeria');
    const card = await saveCard(server.db, who, 'pm_card_visa', '4242');
    const bought = await buy(server.db, server.config, who, pkg['5 Clases']!, { sourceId: card });
    const bill = await invoiceOf(bought.purchase_id);
    const [mail, ...more] = await emailsOf(server.db, who, 'purchase-receipt');
    expect(more).toHaveLength(0);
    expect(mail!.subject).toBe(`Recibo de tu compra: Orden #00${bought.purchase_id}`);
    expect(mail!.dedupe_key).toBe(`receipt:invoice-${bill.invoice_id}:email`);
    expect(mail!.recipient).toMatch(/@prueba\.test$/);
    const text = mail!.body;
    expect(text).toContain('Hola, Valeria:');
    expect(text).toContain('Paquete: 5 Clases');
    expect(text).toMatch(/Total pagado: \$[\d,]+\.\d\d MXN/);
    expect(text).toContain('Método de pago: Tarjeta Visa terminación 4242');
    expect(text).toContain('Clases: 5 clases');
    expect(text).toContain('Vencen el:');
    expect(text).not.toContain('Siguiente cargo');
    expect(text).toContain(`Ver mi orden: http://estudio.test/gracias/${bought.purchase_id}`);
    expect(mail!.html).toContain(`href="http://estudio.test/gracias/${bought.purchase_id}"`);
    // A receipt is a document: e-mail only, no WhatsApp (decision 024); transactional: no stop link.
    expect((await messagesOf(server.db, who, 'purchase-receipt')).map((m) => m.channel)).toEqual(['email']);
    expect(text).not.toContain('/mensajes/baja');
  });

  it('a subscription: the first receipt says when the next charge is', async () => {
    const who = await newCustomer(server.db);
    const sub = await dailySubscription(server.db);
    await buy(server.db, server.config, who, sub, { token: 'pm_card_visa' });
    const [mail] = await emailsOf(server.db, who, 'purchase-receipt');
    expect(mail!.body).toContain('Siguiente cargo:');
    expect(mail!.body).not.toMatch(/Vencen? el:/);
    expect(mail!.body).toContain('Método de pago: Tarjeta');
    expect(mail!.body).toContain('Tu suscripción se renueva sola');
  });

  it('a declined card: no receipt', async () => {
    const who = await newCustomer(server.db);
    await expect(
      checkoutAttempt({ db: server.db, config: server.config, customerId: who }, { class_package_id: pkg['1 Clase']!, payment_method: 1, payment_method_token: 'pm_card_chargeDeclined' }),
    ).rejects.toMatchObject({ code: 'payment/card-declined' });
    expect(await messagesOf(server.db, who)).toHaveLength(0);
  });

  it("a free offer ('Obtener Oferta'): a confirmation without amounts", async () => {
    const who = await newCustomer(server.db, 'Tomás');
    const res = await checkoutCreate({ db: server.db, config: server.config, customerId: who }, { class_package_id: pkg['Clase de prueba']! });
    const [mail] = await emailsOf(server.db, who, 'purchase-receipt');
    expect(mail!.subject).toBe('Tu paquete «Clase de prueba» está listo');
    expect(mail!.body).toContain('No tuvo costo');
    expect(mail!.body).not.toContain('Total pagado');
    expect(mail!.body).toContain(`Orden #00${res.purchase_id}`);
  });

  it('a gift from the desk (Dar acceso): a confirmation that says the studio gave it; paid at the desk with a bill: a receipt', async () => {
    const who = await newCustomer(server.db, 'Renata');
    const gift = await giveAccess(server.db, { customer_id: await adminOf(server.db) }, { customer_id: who, class_package_id: pkg['5 Clases']!, package_days: 30, is_gift: true, payment_method_id: null, bill: false, reason: 'Cumpleaños', terminal: null }, messageContextOf(server.config));
    const [mail] = await emailsOf(server.db, who, 'purchase-receipt');
    expect(mail!.dedupe_key).toBe(`receipt:purchase-${gift.purchase_id}:email`);
    expect(mail!.body).toContain('El estudio te regaló «5 Clases»');
    expect(mail!.body).not.toContain('Total pagado');
    const paid = await giveAccess(server.db, { customer_id: await adminOf(server.db) }, { customer_id: who, class_package_id: pkg['1 Clase']!, package_days: null, is_gift: false, payment_method_id: 2, bill: true, reason: null, terminal: null }, messageContextOf(server.config));
    const receipts = await emailsOf(server.db, who, 'purchase-receipt');
    expect(receipts).toHaveLength(2);
    expect(receipts[1]!.body).toContain(`Orden #00${paid.purchase_id}`);
    expect(receipts[1]!.body).toMatch(/Total pagado: \$[\d,]+\.\d\d MXN/);
  });

  it('cash paid at the desk: the receipt is queued when staff mark it paid, not before', async () => {
    const who = await newCustomer(server.db, 'Elena');
    // 'Efectivo' at checkout: pending until the desk collects it.
    const cash = await checkoutCreate({ db: server.db, config: server.config, customerId: who }, { class_package_id: pkg['1 Clase']! });
    const [pending] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, cash.purchase_id));
    expect(pending).toMatchObject({ provider: 'cash', status: 'pending' });
    expect(await emailsOf(server.db, who, 'purchase-receipt')).toHaveLength(0);
    await markCashPurchasePaid(server.db, { customer_id: await adminOf(server.db) }, { purchase_id: cash.purchase_id, paid_with: 'cash' }, messageContextOf(server.config));
    const [mail] = await emailsOf(server.db, who, 'purchase-receipt');
    expect(mail!.body).toContain('Método de pago: Efectivo');
    await expect(markCashPurchasePaid(server.db, { customer_id: await adminOf(server.db) }, { purchase_id: cash.purchase_id, paid_with: 'cash' }, messageContextOf(server.config))).rejects.toMatchObject({ code: 'purchase/not-pending' });
    expect(await emailsOf(server.db, who, 'purchase-receipt')).toHaveLength(1);
  });
});
