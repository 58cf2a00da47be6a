import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discount, discount_use } from '@estudio/db/schema/discounts';
import { class_package } from '@estudio/db/schema/packages';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { startRacingServer, type RacingServer } from '../support/helpers.ts';
import { createBookers } from '../support/reservations-fixtures.ts';

/**
 * Concurrency of checkout on PostgreSQL: the real server on a loopback port,
 * a 20-connection pool and every purchase fired at once (sandbox card paid at
 * once). PGlite has one connection and cannot race: TEST_DATABASE_URL only.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('checkout races on PostgreSQL', () => {
  let race: RacingServer;
  beforeAll(async () => {
    race = await startRacingServer();
  }, 120_000);
  afterAll(async () => {
    await race?.close();
  });

  const buy = (token: string, body: Record<string, unknown>) => race.post<{ code?: string; purchase_id?: number }>('/api/checkout/attempt', token, { payment_method: 1, payment_method_token: 'pm_card_visa', ...body });

  const newPackage = async (title: string, people_limit: number | null) => {
    const [row] = await race.db
      .insert(class_package)
      .values({ title, price: '500.00', class_amount: 1, expiration_days: 30, people_limit, is_special_event: true })
      .returning({ id: class_package.class_package_id });
    return row!.id;
  };

  it('the last unit of a package with a people limit, 50 buyers at once: sold once', async () => {
    const id = await newPackage('Carrera: último lugar', 1);
    const buyers = await createBookers(race.db, race.secret, 50, { prefix: 'carrera-paquete', credits: 0 });
    const results = await Promise.all(buyers.map((b) => buy(b.token, { class_package_id: id })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 412 && r.body.code === 'package/people-limit')).toHaveLength(49);
    const sold = await race.db.select().from(purchase).where(eq(purchase.class_package_id, id));
    expect(sold.map((p) => p.status)).toEqual(['completed']);
    const credits = await race.db.select().from(available_classes).where(inArray(available_classes.purchase_id, sold.map((p) => p.purchase_id)));
    expect(credits).toHaveLength(1);
  });

  it('a discount with one use left, 50 buyers at once: used once', async () => {
    const id = await newPackage('Carrera: descuento', null);
    const [d] = await race.db.insert(discount).values({ code: 'CARRERA1', amount: '100.00', is_percent: false, max_uses: 10, uses: 9 }).returning();
    const buyers = await createBookers(race.db, race.secret, 50, { prefix: 'carrera-descuento', credits: 0 });
    const results = await Promise.all(buyers.map((b) => buy(b.token, { class_package_id: id, discountCode: 'CARRERA1' })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 412 && r.body.code === 'discount/exhausted')).toHaveLength(49);
    const [after] = await race.db.select().from(discount).where(eq(discount.discount_id, d!.discount_id));
    expect(after?.uses).toBe(10);
    expect(await race.db.select().from(discount_use).where(eq(discount_use.discount_id, d!.discount_id))).toHaveLength(1);
    const discounted = await race.db.select().from(purchase).where(eq(purchase.class_package_id, id));
    expect(discounted.map((p) => p.total_payment)).toEqual(['400.00']);
  });
});
