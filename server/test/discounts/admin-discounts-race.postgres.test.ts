import { count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discount } from '@estudio/db/schema/discounts';
import { startRacingServer, type RacingServer } from '../support/helpers.ts';

/**
 * Admin discount writes racing each other and the checkout on PostgreSQL (the
 * real server over a 20-connection pool). PGlite has one connection and cannot
 * race: TEST_DATABASE_URL only.
 */
const url = process.env.TEST_DATABASE_URL;

describe.skipIf(!url)('admin discount races on PostgreSQL', () => {
  let race: RacingServer;
  let admin: string;
  beforeAll(async () => {
    race = await startRacingServer();
    const res = await fetch(`${race.base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@estudio.demo', password: 'Demo1234!' }),
    });
    admin = ((await res.json()) as { idToken: string }).idToken;
  }, 120_000);
  afterAll(async () => {
    await race?.close();
  });

  const send = async (method: 'POST' | 'PUT', path: string, token: string, body: unknown) => {
    const res = await fetch(`${race.base}${path}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as { code?: string } };
  };

  it('ten admins save the same code in different case at once: one is saved, the others get 409', async () => {
    const spellings = ['carrera', 'CARRERA', 'Carrera', 'cArrera', 'caRrera', 'carRera', 'carrEra', 'carreRa', 'carrerA', 'CARrera'];
    const results = await Promise.all(spellings.map((code) => send('POST', '/api/discounts', admin, { code, amount: '50' })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409 && r.body.code === 'discount/code-taken')).toHaveLength(9);
    expect((await race.db.select({ n: count() }).from(discount).where(eq(discount.code, 'CARRERA')))[0]?.n).toBe(1);
  });

  it('a limit saved while a checkout holds the code counts the use that checkout is taking', async () => {
    const [d] = await race.db.insert(discount).values({ code: 'LIMITE', amount: '100.00', is_percent: false, uses: 4 }).returning();
    // A checkout in flight: it has taken the fifth use and not committed yet.
    let taken!: () => void;
    const useTaken = new Promise<void>((resolve) => (taken = resolve));
    const checkout = race.db.transaction(async (tx) => {
      await tx
        .update(discount)
        .set({ uses: sql`${discount.uses} + 1` })
        .where(eq(discount.discount_id, d!.discount_id));
      taken();
      await new Promise((resolve) => setTimeout(resolve, 400));
    });
    await useTaken;
    // Read without the row lock, 4 uses would pass and the save would then break the uses <= max_uses check (a 500).
    const lowered = send('PUT', '/api/discounts', admin, { discount_id: d!.discount_id, max_uses: 4 });
    await checkout;
    expect(await lowered).toEqual({ status: 400, body: expect.objectContaining({ code: 'discount/max-uses-below-uses' }) });
    const [after] = await race.db.select().from(discount).where(eq(discount.discount_id, d!.discount_id));
    expect(after).toMatchObject({ uses: 5, max_uses: null });
    expect((await send('PUT', '/api/discounts', admin, { discount_id: d!.discount_id, max_uses: 5 })).status).toBe(200);
  });
});
