import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '../src/testing.ts';
import { class_reservation } from '../src/schema/index.ts';

/** Every reservation carries a random access code from the database (migration 0008). */
describe('reservation access codes', () => {
  let t: TestDb;
  beforeAll(async () => {
    t = await createTestDb();
  });
  afterAll(() => t.close());

  it('every seeded reservation has a distinct 10-character code of the unambiguous alphabet', async () => {
    const rows = await t.db.select({ code: class_reservation.access_code }).from(class_reservation);
    expect(rows.length).toBeGreaterThan(50);
    for (const { code } of rows) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(new Set(rows.map((r) => r.code)).size).toBe(rows.length);
  });

  it('the function draws codes without repeats and with every character of the alphabet', async () => {
    const result = (await t.db.execute(sql`select reservation_access_code() as code from generate_series(1, 2000)`)) as unknown as
      | { rows: { code: string }[] }
      | { code: string }[];
    const codes = (Array.isArray(result) ? result : result.rows).map((r) => r.code);
    expect(new Set(codes).size).toBe(2000);
    const seen = new Set(codes.join(''));
    expect([...seen].sort().join('')).toBe('0123456789ABCDEFGHJKMNPQRSTVWXYZ');
  });
});
