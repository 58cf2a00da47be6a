// Mexico's money, measured (decisions 080-085):
// 1. the global invoice of a month with 10,000 sales nobody invoiced: the documents made
//    (issueGlobalInvoices) and stamped through the facturapi SDK against its loopback fake
//    (sendDueCfdis): time and calls to the PAC;
// 2. the checkout to the order page beside the card checkout, through /api on a real server
//    with stripe-node against the loopback Stripe fake: requests and time of a card purchase,
//    an OXXO voucher, a SPEI transfer and meses sin intereses (ask the plans, then confirm).
//
//   npx tsx bench/mexico-money.ts
//
// Uses TEST_DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres) for a
// fresh seeded database, dropped at the end. Knobs: BENCH_SALES (10000), BENCH_CHECKOUTS (40 of each kind).
import { eq, sql } from 'drizzle-orm';
import { createDb } from '@estudio/db';
import { createTestDb } from '@estudio/db/testing';
import { cfdi } from '@estudio/db/schema/cfdi';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { pac_settings } from '@estudio/db/schema/cfdi';
import { buildServer } from '../server/src/app.ts';
import { issueGlobalInvoices } from '../server/src/services/cfdi/global-invoice.ts';
import { sendDueCfdis } from '../server/src/services/cfdi/send-cfdi.ts';
import { testConfig } from '../server/test/support/helpers.ts';
import { startFacturapiFake } from '../server/test/support/facturapi-fake/server.ts';
import { stripeEnv } from '../server/test/support/stripe-fake/helpers.ts';
import { startStripeFake } from '../server/test/support/stripe-fake/server.ts';

process.env.TEST_DATABASE_URL ||= 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const salesCount = Number(process.env.BENCH_SALES ?? 10_000);
const checkouts = Number(process.env.BENCH_CHECKOUTS ?? 40);

const ms = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

const testDb = await createTestDb();
const pool = await createDb(testDb.url, { max: 20 });
const db = pool.db;
const pac = await startFacturapiFake();
const stripe = await startStripeFake();
const config = testConfig({ ...stripeEnv(stripe), FACTURAPI_API_BASE: pac.baseUrl, CLOCK: 'off' });

try {
  // ---------- 1. The global invoice of a month ----------
  const [mariana] = await db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
  const [pkg] = await db.select().from(class_package).where(eq(class_package.title, '1 Clase'));
  const lastMonth = new Date();
  lastMonth.setUTCDate(1);
  lastMonth.setUTCMonth(lastMonth.getUTCMonth() - 1);
  const t0 = process.hrtime.bigint();
  // 10,000 paid sales spread over the month: 70% card, 20% cash, 10% OXXO (purchase and its charge).
  await db.execute(sql`
    with made as (
      insert into purchase (customer_id, class_package_id, title, amount, total_payment, class_amount, status, provider, payment_channel, paid_at, created_at)
      select ${mariana!.customer_id}, ${pkg!.class_package_id}, '1 Clase', 180, 180, 1, 'completed',
             case when g % 10 < 7 then 'stripe' when g % 10 < 9 then 'cash' else 'stripe' end,
             case when g % 10 = 9 then 'oxxo' else null end,
             ${lastMonth.toISOString()}::timestamptz + (g * interval '1 minute') * 4,
             ${lastMonth.toISOString()}::timestamptz + (g * interval '1 minute') * 4
      from generate_series(1, ${salesCount}) g
      returning purchase_id, paid_at
    )
    insert into invoice (purchase_id, customer_id, total_payment, status, paid_at)
    select purchase_id, ${mariana!.customer_id}, 180, 'completed', paid_at from made`);
  console.log(`sales seeded: ${salesCount} in ${ms(t0).toFixed(0)} ms`);
  await db.insert(pac_settings).values({ pac_settings_id: 1, facturapi_key: pac.key }).onConflictDoUpdate({ target: pac_settings.pac_settings_id, set: { facturapi_key: pac.key } });

  const t1 = process.hrtime.bigint();
  const documents = await issueGlobalInvoices(db, new Date());
  const made = ms(t1);
  const before = pac.requests.length;
  const t2 = process.hrtime.bigint();
  let stamped = 0;
  for (let n = await sendDueCfdis({ db, config, messages: null }, new Date(), 50); n > 0; n = await sendDueCfdis({ db, config, messages: null }, new Date(), 50)) stamped += n;
  const sent = ms(t2);
  const calls = pac.requests.slice(before);
  const globals = await db.select({ n: sql<number>`count(*)::int`, lines: sql<number>`(select count(*)::int from cfdi_global_charge)` }).from(cfdi).where(eq(cfdi.kind, 'global'));
  console.log('\nGlobal invoice of a month');
  console.log(`  sales of the month           ${salesCount}`);
  console.log(`  documents (≤5,000 lines each, one per payment form)  ${documents} made, ${stamped} stamped, ${globals[0]?.lines} lines`);
  console.log(`  made (lock + store lines)    ${made.toFixed(0)} ms`);
  console.log(`  stamped (PAC + PDF + XML)    ${sent.toFixed(0)} ms`);
  console.log(`  calls to the PAC             ${calls.length} (${calls.filter((c) => c.method === 'POST').length} create, ${calls.filter((c) => c.path.endsWith('/pdf')).length} PDF, ${calls.filter((c) => c.path.endsWith('/xml')).length} XML)`);
  console.log(`  calls per sale               ${(calls.length / salesCount).toFixed(4)}`);

  // ---------- 2. Checkout to the order page ----------
  const app = await buildServer({ config, db });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  let requests = 0;
  const api = async (method: string, path: string, token?: string, body?: unknown) => {
    requests += 1;
    const res = await fetch(`${base}${path}`, { method, headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const token = ((await api('POST', '/api/auth/login', undefined, { email: 'cliente@estudio.demo', password: 'Demo1234!' })) as { idToken: string }).idToken;
  const ids = Object.fromEntries((await db.select().from(class_package)).map((p) => [p.title, p.class_package_id]));
  type Flow = () => Promise<void>;
  const order = async (id: unknown) => void (await api('GET', `/api/purchases/${String(id)}`, token));
  const flows: Record<string, Flow> = {
    'card (one charge)': async () => {
      const a = await api('POST', '/api/checkout/attempt', token, { class_package_id: ids['10 Clases'], payment_method: 1, payment_method_token: 'pm_card_visa' });
      await order(a.purchase_id);
    },
    'OXXO voucher': async () => {
      const a = await api('POST', '/api/checkout/voucher', token, { class_package_id: ids['10 Clases'], channel: 'oxxo' });
      await order(a.purchase_id);
    },
    'SPEI transfer': async () => {
      const a = await api('POST', '/api/checkout/voucher', token, { class_package_id: ids['10 Clases'], channel: 'spei' });
      await order(a.purchase_id);
    },
    'meses sin intereses (6)': async () => {
      const a = await api('POST', '/api/checkout/attempt', token, { class_package_id: ids['10 Clases'], payment_method: 1, payment_method_token: 'pm_card_mx', ask_installments: true });
      const c = await api('POST', '/api/checkout/confirm', token, { clientSecret: a.clientSecret, payment_method_token: 'pm_card_mx', installments: 6 });
      await order(c.purchase_id);
    },
  };
  console.log('\nCheckout to the order page (through /api, Stripe fake on loopback)');
  const results: Record<string, { ms: number; requests: number; stripe: number }> = {};
  for (const round of [0, 1]) {
    for (const [name, flow] of Object.entries(flows)) {
      const times: number[] = [];
      let reqs = 0;
      let stripeCalls = 0;
      for (let i = 0; i < (round === 0 ? 3 : checkouts); i++) {
        const r0 = requests;
        const s0 = stripe.requests.length;
        const t = process.hrtime.bigint();
        await flow();
        times.push(ms(t));
        reqs = requests - r0;
        stripeCalls = stripe.requests.length - s0;
      }
      if (round === 1) results[name] = { ms: median(times), requests: reqs, stripe: stripeCalls };
    }
  }
  const card = results['card (one charge)']!;
  console.log(`  ${'flow'.padEnd(26)} ${'requests'.padStart(8)} ${'Stripe calls'.padStart(13)} ${'median ms'.padStart(10)} ${'× card'.padStart(7)}`);
  for (const [name, r] of Object.entries(results)) {
    console.log(`  ${name.padEnd(26)} ${String(r.requests).padStart(8)} ${String(r.stripe).padStart(13)} ${r.ms.toFixed(1).padStart(10)} ${(r.ms / card.ms).toFixed(2).padStart(7)}`);
  }
  await app.close();
} finally {
  await pool.close();
  await testDb.close();
  await pac.close();
  await stripe.close();
}
