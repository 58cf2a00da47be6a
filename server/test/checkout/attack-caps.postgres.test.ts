import { and, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discount, discount_use } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { startRacingServer, type RacingServer } from '../support/helpers.ts';
import { createBookers } from '../support/reservations-fixtures.ts';

/**
 * Breaks 1, 2 and 5 as the attacker ran them: real parallel
 * requests and batched tRPC calls against the real server on PostgreSQL
 * (a 20-connection pool). Each test counts what was paid from the database
 * afterwards; the caps must hold whatever the interleaving.
 */
const url = process.env.TEST_DATABASE_URL;
const cardMethod = 1;
const cashMethod = 2;

describe.skipIf(!url)('attack: purchase caps under concurrency (PostgreSQL)', () => {
  let race: RacingServer;
  beforeAll(async () => {
    race = await startRacingServer();
  }, 120_000);
  afterAll(async () => {
    await race?.close();
  });

  const newPackage = async (title: string, values: Partial<typeof class_package.$inferInsert> = {}) => {
    const [row] = await race.db
      .insert(class_package)
      .values({ title, price: '500.00', class_amount: 1, expiration_days: 30, is_special_event: true, ...values })
      .returning({ id: class_package.class_package_id });
    return row!.id;
  };
  const paid = async (packageId: number) =>
    race.db.select().from(purchase).where(and(eq(purchase.class_package_id, packageId), inArray(purchase.status, ['active', 'completed'])));
  const creditsOf = async (packageId: number) => {
    const ids = (await paid(packageId)).map((p) => p.purchase_id);
    return ids.length ? race.db.select().from(available_classes).where(inArray(available_classes.purchase_id, ids)) : [];
  };
  /** One HTTP request carrying `inputs.length` calls of `procedure` (tRPC's batch link). */
  const batch = async (token: string, procedure: string, inputs: unknown[]) => {
    const path = inputs.map(() => procedure).join(',');
    const body = Object.fromEntries(inputs.map((input, i) => [String(i), input]));
    const res = await fetch(`${race.base}/trpc/${path}?batch=1`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as { result?: unknown; error?: { data?: { domainCode?: string } } }[] };
  };

  it('the free trial (1 per customer): one batched request of 20 checkout.create gives one credit', async () => {
    const trial = await newPackage('Ataque: clase muestra', { price: '0.00', limit_per_customer: 1, is_trial: true });
    const [attacker] = await createBookers(race.db, race.secret, 1, { prefix: 'ataque-lote-muestra', credits: 0 });
    await batch(attacker!.token, 'checkout.create', Array.from({ length: 20 }, () => ({ class_package_id: trial })));
    expect(await paid(trial)).toHaveLength(1);
    expect(await creditsOf(trial)).toHaveLength(1);
  });

  it('the free trial: 9 customers × 20 parallel REST checkouts give 9 credits', async () => {
    const trial = await newPackage('Ataque: muestra en paralelo', { price: '0.00', limit_per_customer: 1, is_trial: true });
    const attackers = await createBookers(race.db, race.secret, 9, { prefix: 'ataque-muestra-rest', credits: 0 });
    const results = await Promise.all(
      attackers.flatMap((a) => Array.from({ length: 20 }, () => race.post('/api/checkout', a.token, { class_package_id: trial }))),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(9);
    for (const r of results.filter((x) => x.status !== 200)) expect([409, 503]).toContain(r.status);
    expect(await creditsOf(trial)).toHaveLength(9);
  });

  it('cancel and buy again at once: 20 cancellations of a taken trial racing 20 new checkouts never pay for a second one', async () => {
    const trial = await newPackage('Ataque: muestra cancelada', { price: '0.00', limit_per_customer: 1, is_trial: true });
    const [attacker] = await createBookers(race.db, race.secret, 1, { prefix: 'ataque-cancela-muestra', credits: 0 });
    const token = attacker!.token;
    const first = await race.post<{ purchase_id: number }>('/api/checkout', token, { class_package_id: trial });
    expect(first.status).toBe(200);
    const results = await Promise.all([
      ...Array.from({ length: 20 }, () => race.post(`/api/purchases/cancel/${first.body.purchase_id}`, token, { reason: 'Ya no la quiero' })),
      ...Array.from({ length: 20 }, () => race.post('/api/checkout', token, { class_package_id: trial })),
    ]);
    expect(results.filter((r) => r.status >= 500 && r.status !== 503)).toEqual([]);
    // Paid once, ever: the cancelled trial keeps its use, whichever request ran first.
    const everPaid = await race.db.select().from(purchase).where(and(eq(purchase.class_package_id, trial), isNotNull(purchase.paidAt)));
    expect(everPaid.map((p) => p.purchase_id)).toEqual([first.body.purchase_id]);
    const live = await race.db
      .select()
      .from(available_classes)
      .where(and(inArray(available_classes.purchase_id, everPaid.map((p) => p.purchase_id)), isNull(available_classes.deletedAt)));
    expect(live.length).toBeLessThanOrEqual(1);
  });

  it('an event for 30 people: 40 customers × 4 parallel card checkouts sell exactly 30', async () => {
    const event = await newPackage('Ataque: evento de 30', { people_limit: 30 });
    const buyers = await createBookers(race.db, race.secret, 40, { prefix: 'ataque-evento', credits: 0 });
    const results = await Promise.all(
      buyers.flatMap((b) =>
        Array.from({ length: 4 }, () => race.post('/api/checkout/attempt', b.token, { class_package_id: event, payment_method: cardMethod, payment_method_token: 'pm_card_visa' })),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(30);
    expect(await paid(event)).toHaveLength(30);
  });

  it('a code once per customer: one customer’s 20 parallel checkouts with it, and 20 confirmations of earlier attempts, use it once', async () => {
    const pkg = await newPackage('Ataque: código de una vez');
    await race.db.insert(discount).values({ code: 'ATAQUEUNAVEZ', amount: '50', is_percent: true, max_uses_per_customer: 1 });
    const [attacker] = await createBookers(race.db, race.secret, 1, { prefix: 'ataque-codigo', credits: 0 });
    const token = attacker!.token;
    // Twenty two-step attempts first (each supersedes the one before), then every one confirmed at once while twenty more are paid directly.
    const attempts = [];
    for (let i = 0; i < 20; i++) attempts.push(await race.post<{ clientSecret: string }>('/api/checkout/attempt', token, { class_package_id: pkg, payment_method: cardMethod, discountCode: 'ATAQUEUNAVEZ' }));
    await Promise.all([
      ...attempts.map((a) => race.post('/api/checkout/confirm', token, { clientSecret: a.body.clientSecret, payment_method_token: 'pm_card_visa' })),
      ...Array.from({ length: 20 }, () =>
        race.post('/api/checkout/attempt', token, { class_package_id: pkg, payment_method: cardMethod, discountCode: 'ATAQUEUNAVEZ', payment_method_token: 'pm_card_visa' }),
      ),
    ]);
    const sold = await paid(pkg);
    expect(sold).toHaveLength(1);
    expect(sold[0]?.total_payment).toBe('250.00');
    const [code] = await race.db.select().from(discount).where(eq(discount.code, 'ATAQUEUNAVEZ'));
    const uses = await race.db.select().from(discount_use).where(eq(discount_use.discount_id, code!.discount_id));
    expect(uses.map((u) => u.purchase_id)).toEqual([sold[0]!.purchase_id]);
    expect(code?.uses).toBe(1);
  });

  it('a package 1 per customer: 10 attempts confirmed in parallel by their owner pay once; the rest fail and are not left pending', async () => {
    const pkg = await newPackage('Ataque: uno por persona', { limit_per_customer: 1 });
    const [attacker] = await createBookers(race.db, race.secret, 1, { prefix: 'ataque-confirmar', credits: 0 });
    const attempts = [];
    for (let i = 0; i < 10; i++) attempts.push(await race.post<{ clientSecret: string }>('/api/checkout/attempt', attacker!.token, { class_package_id: pkg, payment_method: cardMethod }));
    const results = await Promise.all(
      attempts.map((a) => race.post('/api/checkout/confirm', attacker!.token, { clientSecret: a.body.clientSecret, payment_method_token: 'pm_card_visa' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(await paid(pkg)).toHaveLength(1);
    expect(await creditsOf(pkg)).toHaveLength(1);
  });

  it('an event for 5: 20 throwaway accounts placing cash checkouts at once hold 5 places; a paying customer gets one once the holds lapse', async () => {
    const event = await newPackage('Ataque: apartados en efectivo', { price: '300.00', people_limit: 5 });
    const throwaways = await createBookers(race.db, race.secret, 20, { prefix: 'ataque-efectivo', credits: 0 });
    const held = await Promise.all(throwaways.map((t) => race.post('/api/checkout', t.token, { class_package_id: event, payment_method: cashMethod })));
    expect(held.filter((r) => r.status === 200)).toHaveLength(5);
    const [payer] = await createBookers(race.db, race.secret, 1, { prefix: 'ataque-efectivo-paga', credits: 0 });
    const buy = () => race.post('/api/checkout/attempt', payer!.token, { class_package_id: event, payment_method: cardMethod, payment_method_token: 'pm_card_visa' });
    expect((await buy()).status).toBe(412);
    await race.db
      .update(purchase)
      .set({ createdAt: new Date(Date.now() - 25 * 3600_000) })
      .where(and(eq(purchase.class_package_id, event), eq(purchase.provider, 'cash')));
    expect((await buy()).status).toBe(200);
  });
});
