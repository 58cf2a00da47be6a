import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { cfdi, cfdi_global_charge, cfdi_global_product_sale } from '@estudio/db/schema/cfdi';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method } from '@estudio/db/schema/payments';
import { product, product_sale } from '@estudio/db/schema/products';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import { issueGlobalInvoices } from '../../src/services/cfdi/global-invoice.ts';
import { sendDueCfdis } from '../../src/services/cfdi/send-cfdi.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { answerCancellation, startFacturapiFake, type FacturapiFake } from '../support/facturapi-fake/server.ts';

/**
 * Decision 084-086: CFDI 4.0 through the official facturapi SDK pointed at a
 * loopback server speaking facturapi's API. A customer's tax profile, her
 * "Solicitar factura" (kept pending while the studio has no PAC key), the
 * stamp with its PDF and XML, the desk's issue, cancellations and credit notes
 * on refunds, and the global invoice of the sales nobody invoiced.
 */
let pac: FacturapiFake;
let server: TestServer;
let mariana: { token: string; id: number };
let admin: string;
let recepcion: string;
const pkg: Record<string, number> = {};

const profile = { rfc: 'gode561231gr8', legal_name: 'Emilio González Díaz', tax_regime: '612', cfdi_use: 'G03', postcode: '06700' };

beforeAll(async () => {
  pac = await startFacturapiFake();
  server = await startTestServer({ FACTURAPI_API_BASE: pac.baseUrl });
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
  mariana = { token: (await login(server.app, 'cliente@estudio.demo')).idToken, id: (await server.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo')))[0]!.customer_id };
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  recepcion = (await login(server.app, 'recepcion@estudio.demo')).idToken;
}, 120_000);
afterAll(async () => {
  await server?.close();
  await pac?.close();
});

const sender = (now = new Date()) => sendDueCfdis({ db: server.db, config: server.config, messages: messageContextOf(server.config) }, now);
const buyCard = async (title: string, token = mariana.token) => {
  const res = await call(server.app, 'POST', '/api/checkout/attempt', { token, body: { class_package_id: pkg[title], payment_method: 1, payment_method_token: 'pm_card_visa' } });
  expect(res.status).toBe(200);
  return res.body.purchase_id as number;
};
const ask = (purchaseId: number, token = mariana.token) => call(server.app, 'POST', `/api/purchases/${purchaseId}/cfdi`, { token });
const docOf = async (id: number) => (await server.db.select().from(cfdi).where(eq(cfdi.cfdi_id, id)))[0]!;
const setPac = () => call(server.app, 'PUT', '/api/cfdi/pac', { token: admin, body: { facturapi_key: pac.key, webhook_secret: pac.webhookSecret } });

describe('tax profile (Mi Información)', () => {
  it('refuses each wrong field in Spanish, naming it, and keeps what was saved', async () => {
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ rfc: 'GODE561231GR9' }, 'rfc', /último carácter no corresponde/],
      [{ rfc: 'GODE56' }, 'rfc', /13 caracteres/],
      [{ tax_regime: '601' }, 'tax_regime', /persona física/],
      [{ tax_regime: '605', cfdi_use: 'G03' }, 'cfdi_use', /no está permitido con tu régimen/],
      [{ postcode: '067' }, 'postcode', /5 números/],
    ];
    for (const [change, field, message] of cases) {
      const res = await call(server.app, 'PUT', '/api/customer/tax_profile', { token: mariana.token, body: { ...profile, ...change } });
      expect(res.status, field).toBe(400);
      expect(res.body.field).toBe(field);
      expect(res.body.message).toMatch(message);
    }
    expect((await call(server.app, 'GET', '/api/customer/tax_profile', { token: mariana.token })).body).toEqual({ tax_profile: null });
    const saved = await call(server.app, 'PUT', '/api/customer/tax_profile', { token: mariana.token, body: profile });
    expect(saved.status).toBe(200);
    expect(saved.body.tax_profile).toMatchObject({ rfc: 'GODE561231GR8', legal_name: 'EMILIO GONZÁLEZ DÍAZ', persona: 'fisica' });
    // Unknown fields are refused, not dropped.
    expect((await call(server.app, 'PUT', '/api/customer/tax_profile', { token: mariana.token, body: { ...profile, curp: 'X' } })).status).toBe(400);
  });
});

describe('Solicitar factura', () => {
  it('waits as pending with no PAC, goes out once the owner writes the key; PDF and XML on the purchase and by e-mail; asking twice answers the same', async () => {
    const id = await buyCard('5 Clases');
    const before = (await call(server.app, 'GET', `/api/purchases/${id}`, { token: mariana.token })).body.purchase.cfdi;
    expect(before).toMatchObject({ state: 'none', can_request: true });
    expect(before.request_until).toBeTruthy();
    const asked = await ask(id);
    expect(asked.status).toBe(200);
    expect(asked.body.cfdi).toMatchObject({ status: 'pending', waiting_for_pac: true, receiver: { rfc: 'GODE561231GR8' }, total: '800.00' });
    expect((await ask(id)).body.cfdi.cfdi_id).toBe(asked.body.cfdi.cfdi_id);
    expect(await sender()).toBe(0);
    expect(pac.requests).toHaveLength(0);
    expect((await call(server.app, 'GET', `/api/purchases/${id}`, { token: mariana.token })).body.purchase.cfdi).toMatchObject({ state: 'pending', waiting_for_pac: true });

    const written = await setPac();
    expect(written.body).toMatchObject({ facturapi_key_set: true, webhook_secret_set: true, pending: 1 });
    // The key is never read back.
    expect(JSON.stringify(written.body)).not.toContain(pac.key);
    expect(await sender()).toBe(1);
    const doc = await docOf(asked.body.cfdi.cfdi_id);
    expect(doc.status).toBe('stamped');
    expect(doc.uuid).toMatch(/^[0-9A-F-]{36}$/);
    const sent = pac.invoices.get(doc.provider_id!)!;
    expect(sent).toMatchObject({ use: 'G03', payment_form: '04', customer: { tax_id: 'GODE561231GR8', tax_system: '612', address: { zip: '06700' } } });
    const pdf = await call(server.app, 'GET', `/api/cfdi/${doc.cfdi_id}/file?format=pdf`, { token: mariana.token });
    expect(Buffer.from(pdf.body.base64, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    const xml = await call(server.app, 'GET', `/api/cfdi/${doc.cfdi_id}/file?format=xml`, { token: mariana.token });
    expect(Buffer.from(xml.body.base64, 'base64').toString()).toContain(doc.uuid!);
    const other = (await login(server.app, 'ilimitado@estudio.demo')).idToken;
    expect((await call(server.app, 'GET', `/api/cfdi/${doc.cfdi_id}/file?format=pdf`, { token: other })).status).toBe(404);
    const [mail] = await server.db.select().from(outbox_message).where(eq(outbox_message.dedupe_key, `cfdi:${doc.cfdi_id}:email`));
    expect(mail?.attachments?.map((a) => a.filename)).toEqual([`F${doc.folio}.pdf`, `F${doc.folio}.xml`]);
    expect((await call(server.app, 'GET', `/api/purchases/${id}`, { token: mariana.token })).body.purchase.cfdi).toMatchObject({ state: 'stamped', can_request: false });
  });

  it('refuses what cannot be invoiced, in Spanish', async () => {
    const cash = await call(server.app, 'POST', '/api/checkout', { token: mariana.token, body: { class_package_id: pkg['1 Clase'] } });
    expect((await ask(cash.body.purchase_id)).body).toMatchObject({ code: 'invoice/not-paid' });
    const id = await buyCard('1 Clase');
    await server.db.update(invoice).set({ paidAt: new Date('2020-01-15T18:00:00Z') }).where(eq(invoice.purchase_id, id));
    const late = await ask(id);
    expect(late.status).toBe(409);
    expect(late.body.message).toMatch(/terminó el 31 ene 2020/);
    const nuevo = (await login(server.app, 'nuevo@estudio.demo')).idToken;
    const theirs = await buyCard('1 Clase', nuevo);
    expect((await ask(theirs, nuevo)).body.code).toBe('tax-profile/missing');
    expect((await ask(theirs)).status).toBe(404);
  });

  it('a PAC refusal is kept with its reason; staff send it again after it is fixed', async () => {
    pac.unknownRfcs.add('GODE561231GR8');
    const id = await buyCard('1 Clase');
    const asked = await ask(id);
    await sender();
    const failed = await docOf(asked.body.cfdi.cfdi_id);
    expect(failed.status).toBe('failed');
    expect(failed.failure_reason).toContain('Lista de Contribuyentes Obligados');
    expect((await call(server.app, 'GET', `/api/purchases/${id}`, { token: mariana.token })).body.purchase.cfdi).toMatchObject({ state: 'failed', can_request: true });
    pac.unknownRfcs.clear();
    expect((await call(server.app, 'POST', `/api/cfdi/${failed.cfdi_id}/retry`, { token: recepcion })).body.cfdi.status).toBe('pending');
    await sender();
    expect((await docOf(failed.cfdi_id)).status).toBe('stamped');
  });

  it('staff issue one at the desk with a profile typed at the counter, audited', async () => {
    const id = await buyCard('1 Clase');
    const res = await call(server.app, 'POST', '/api/cfdi/desk', {
      token: recepcion,
      body: { purchase_id: id, tax_profile: { rfc: 'EKU9003173C9', legal_name: 'Escuela Kemper Urgate', tax_regime: '601', cfdi_use: 'G03', postcode: '26015' } },
    });
    expect(res.status).toBe(200);
    expect(res.body.cfdi.receiver).toEqual({ rfc: 'EKU9003173C9', legal_name: 'ESCUELA KEMPER URGATE' });
    const audited = await server.db.select().from(audit_log).where(and(eq(audit_log.action, 'cfdi.request'), eq(audit_log.entity_id, String(mariana.id))));
    expect(audited.length).toBeGreaterThan(0);
    expect((await call(server.app, 'POST', '/api/cfdi/desk', { token: mariana.token, body: { purchase_id: id } })).status).toBe(403);
  });
});

describe('refunds and revocations correct the invoice', () => {
  it('a full refund cancels it with motive 03 (waiting for the receiver over $1,000, then her acceptance by webhook)', async () => {
    await setPac();
    const id = await buyCard('10 Clases');
    const asked = await ask(id);
    await sender();
    const refund = await call(server.app, 'POST', `/api/purchases/${id}/refund`, { token: admin, body: { reason: 'Se mudó de ciudad' } });
    expect(refund.status).toBe(200);
    expect((await docOf(asked.body.cfdi.cfdi_id)).status).toBe('cancelling');
    await sender();
    const waiting = await docOf(asked.body.cfdi.cfdi_id);
    expect(waiting).toMatchObject({ status: 'cancelling', cancel_motive: '03', cancellation_status: 'pending' });
    // The receiver accepts in the SAT's buzón; facturapi tells the studio by a signed webhook.
    answerCancellation(pac, waiting.provider_id!, true);
    pac.webhookUrl = `${await server.app.listen({ port: 0, host: '127.0.0.1' })}/api/webhooks/facturapi`;
    expect(await pac.sendEvent('invoice.cancellation_status_updated', waiting.provider_id!)).toBe(200);
    expect((await docOf(waiting.cfdi_id)).status).toBe('cancelled');
    const forged = await fetch(pac.webhookUrl, { method: 'POST', body: '{"type":"invoice.status_updated","data":{"type":"invoice","object":{}}}', headers: { 'content-type': 'application/json', 'facturapi-signature': 'ab'.repeat(32) } });
    expect(forged.status).toBe(400);
  });

  it('a partial refund writes a credit note related to the invoice', async () => {
    const id = await buyCard('5 Clases');
    const asked = await ask(id);
    await sender();
    expect((await call(server.app, 'POST', `/api/purchases/${id}/refund`, { token: admin, body: { reason: 'Descuento acordado', amount: '200.00' } })).status).toBe(200);
    const [note] = await server.db.select().from(cfdi).where(and(eq(cfdi.purchase_id, id), eq(cfdi.kind, 'credit_note')));
    expect(note).toMatchObject({ total: '200.00', related_cfdi_id: asked.body.cfdi.cfdi_id, status: 'pending' });
    await sender();
    const stamped = await docOf(note!.cfdi_id);
    expect(stamped.status).toBe('stamped');
    const sent = pac.invoices.get(stamped.provider_id!)!;
    expect(sent).toMatchObject({ type: 'E', use: 'G02', related_documents: [{ relationship: '01', documents: [(await docOf(asked.body.cfdi.cfdi_id)).uuid] }] });
    expect((await docOf(asked.body.cfdi.cfdi_id)).status).toBe('stamped');
  });
});

describe('the global invoice', () => {
  it('puts every sale of last month nobody invoiced on one document per payment form, to XAXX010101000, and they can no longer be asked for', async () => {
    await setPac();
    // The 10th of last month at noon on the studio's clock (Mexico City, UTC−6): on 31 December at 23:30
    // it is already January in UTC, and last month is still November.
    const studioNow = new Date(Date.now() - 6 * 3_600_000);
    const lastMonth = new Date(Date.UTC(studioNow.getUTCFullYear(), studioNow.getUTCMonth() - 1, 10, 18));
    const card = [await buyCard('1 Clase'), await buyCard('5 Clases')];
    const cash = await call(server.app, 'POST', '/api/checkout', { token: mariana.token, body: { class_package_id: pkg['1 Clase'] } });
    await call(server.app, 'PUT', `/api/purchases/${cash.body.purchase_id}/paid`, { token: recepcion });
    const personal = await buyCard('1 Clase');
    await call(server.app, 'PUT', '/api/customer/tax_profile', { token: mariana.token, body: profile });
    expect((await ask(personal)).status).toBe(200);
    const gift = await call(server.app, 'POST', '/api/customer/giveAccess', { token: admin, body: { customer_id: mariana.id, class_package_id: pkg['1 Clase'], is_gift: true, reason: 'Cortesía del estudio' } });
    const all = [...card, cash.body.purchase_id as number, personal, gift.body.purchase_id as number];
    for (const id of all) await server.db.update(invoice).set({ paidAt: lastMonth }).where(eq(invoice.purchase_id, id));
    const charges = await server.db.select().from(invoice);
    const chargeOf = (purchaseId: number) => charges.find((c) => c.purchase_id === purchaseId && c.status === 'completed')?.invoice_id;
    // Before the month's window closed, none of this month's sales goes (the seed's older ones may).
    await issueGlobalInvoices(server.db, new Date(lastMonth.getTime() + 86_400_000));
    const early = new Set((await server.db.select().from(cfdi_global_charge)).map((l) => l.charge_id));
    for (const id of all) expect(early.has(chargeOf(id)!)).toBe(false);
    const made = await issueGlobalInvoices(server.db, new Date());
    expect(made).toBeGreaterThanOrEqual(2);
    expect(await issueGlobalInvoices(server.db, new Date())).toBe(0);
    const monthKey = `month:${new Date(lastMonth).toISOString().slice(0, 7)}-01/`;
    const globals = (await server.db.select().from(cfdi).where(eq(cfdi.kind, 'global'))).filter((g) => g.period_key?.startsWith(monthKey));
    const lines = await server.db.select().from(cfdi_global_charge);
    const onGlobal = new Set(lines.map((l) => l.charge_id));
    for (const id of [...card, cash.body.purchase_id as number]) expect(onGlobal.has(chargeOf(id)!)).toBe(true);
    expect(onGlobal.has(chargeOf(personal)!)).toBe(false);
    expect(onGlobal.has(chargeOf(gift.body.purchase_id)!)).toBe(false);
    expect(new Set(globals.map((g) => g.payment_form))).toEqual(new Set(['04', '01']));
    await sender();
    const stamped = (await server.db.select().from(cfdi).where(eq(cfdi.kind, 'global'))).filter((g) => g.period_key?.startsWith(monthKey));
    for (const g of stamped) {
      expect(g.status).toBe('stamped');
      expect(pac.invoices.get(g.provider_id!)).toMatchObject({ use: 'S01', customer: { tax_id: 'XAXX010101000', legal_name: 'PUBLICO EN GENERAL' }, global: { periodicity: 'month' } });
    }
    const late = await call(server.app, 'POST', `/api/purchases/${card[0]}/cfdi`, { token: mariana.token });
    expect(late.status).toBe(409);
    expect((await call(server.app, 'GET', `/api/purchases/${card[0]}`, { token: mariana.token })).body.purchase.cfdi.state).toBe('global');
    const [one] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, card[0]!));
    expect(one?.status).toBe('completed');
  });

  it('puts the products sold at the counter on it too, each line once; a split payment goes with its larger part', async () => {
    await setPac();
    const studioNow = new Date(Date.now() - 6 * 3_600_000);
    const lastMonth = new Date(Date.UTC(studioNow.getUTCFullYear(), studioNow.getUTCMonth() - 1, 12, 18));
    const methods = await server.db.select().from(payment_method);
    const cashId = methods.find((m) => m.provider === 'cash')!.payment_method_id;
    const cardId = methods.find((m) => m.provider === 'card')!.payment_method_id;
    const [water] = await server.db.insert(product).values({ name: 'Agua para la factura global', price: '25.00', stock: null }).returning();
    const [towel] = await server.db.insert(product).values({ name: 'Toalla para la factura global', price: '100.00', stock: null }).returning();
    const slip = { last4: '4242', authorization: 'GLB123' };
    const sell = async (body: Record<string, unknown>) => {
      const res = await call(server.app, 'POST', '/api/sales', { token: recepcion, body: { customer_id: mariana.id, ...body } });
      expect(res.status, res.raw).toBe(200);
      return res.body.lines.map((l: { product_sale_id: number | null }) => l.product_sale_id) as number[];
    };
    // Two waters in cash; a towel mostly by card ($30 cash, $70 card); another mostly in cash ($80 cash, $20 card).
    const [inCash] = await sell({ products: [{ product_id: water!.product_id, quantity: 2 }], payment_method_id: cashId });
    const [mostlyCard] = await sell({ products: [{ product_id: towel!.product_id, quantity: 1 }], payment_method_id: cardId, terminal: slip, cash_part: '30' });
    const [mostlyCash] = await sell({ products: [{ product_id: towel!.product_id, quantity: 1 }], payment_method_id: cardId, terminal: slip, cash_part: '80' });
    const ids = [inCash!, mostlyCard!, mostlyCash!];
    for (const id of ids) await server.db.update(product_sale).set({ paidAt: lastMonth }).where(eq(product_sale.product_sale_id, id));

    expect(await issueGlobalInvoices(server.db, new Date())).toBeGreaterThanOrEqual(2);
    expect(await issueGlobalInvoices(server.db, new Date())).toBe(0);
    const lines = await server.db.select().from(cfdi_global_product_sale);
    const lineOf = (id: number) => lines.find((l) => l.product_sale_id === id)!;
    expect(ids.map((id) => lineOf(id).amount)).toEqual(['50.00', '100.00', '100.00']);
    const formOf = async (id: number) => (await server.db.select().from(cfdi).where(eq(cfdi.cfdi_id, lineOf(id).cfdi_id)))[0]!.payment_form;
    expect([await formOf(inCash!), await formOf(mostlyCard!), await formOf(mostlyCash!)]).toEqual(['01', '04', '01']);
    // This month's sales wait for their period to end.
    const [today] = await sell({ products: [{ product_id: water!.product_id, quantity: 1 }], payment_method_id: cashId });
    await issueGlobalInvoices(server.db, new Date());
    expect((await server.db.select().from(cfdi_global_product_sale)).some((l) => l.product_sale_id === today)).toBe(false);

    await sender();
    const [doc] = await server.db.select().from(cfdi).where(eq(cfdi.cfdi_id, lineOf(inCash!).cfdi_id));
    expect(doc?.status).toBe('stamped');
    // What the studio sent the PAC for that document: the water's line by its sale's number.
    const sent = pac.requests.find((r) => r.method === 'POST' && (r.body as { external_id?: string } | null)?.external_id === `cfdi-${doc!.cfdi_id}`);
    const items = (sent?.body as { items: { product: { sku: string; price: number; description: string } }[] }).items;
    expect(items.find((i) => i.product.sku === `P${inCash}`)?.product).toMatchObject({ price: 50, description: 'Venta' });

    // A water brought back after the global invoice was stamped: a credit note to the public, related to that invoice.
    const back = await call(server.app, 'POST', `/api/sales/products/${inCash}/return`, { token: recepcion, body: { quantity: 1, restock: true, reason: 'Venía abierta' } });
    expect(back.status, back.raw).toBe(200);
    const [note] = await server.db.select().from(cfdi).where(and(eq(cfdi.kind, 'credit_note'), eq(cfdi.related_cfdi_id, doc!.cfdi_id)));
    expect(note).toMatchObject({ total: '25.00', payment_form: '01', status: 'pending', customer_id: null, purchase_id: null, charge_id: null });
    expect(note!.receiver).toMatchObject({ rfc: doc!.receiver.rfc });
    await sender();
    const stamped = await docOf(note!.cfdi_id);
    expect(stamped.status).toBe('stamped');
    expect(pac.invoices.get(stamped.provider_id!)).toMatchObject({ type: 'E', use: 'S01', related_documents: [{ relationship: '01', documents: [(await docOf(doc!.cfdi_id)).uuid] }] });
    // A sale not yet on a global invoice needs none: its period's invoice leaves out what came back.
    const notes = async () => (await server.db.select().from(cfdi).where(eq(cfdi.kind, 'credit_note'))).length;
    const before = await notes();
    expect((await call(server.app, 'POST', `/api/sales/products/${today}/return`, { token: recepcion, body: { quantity: 1, restock: true, reason: 'No la quiso' } })).status).toBe(200);
    expect(await notes()).toBe(before);
  });
});
