import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { localDate } from '@estudio/core';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId, newClass } from '../support/reservations-fixtures.ts';

let server: TestServer;
let nuevo: string;
let cliente: string;
demoStudio(['nuevo', 'cliente'], (s) => ({ server, tokens: { nuevo, cliente } } = s));

const day = 24 * 60;

describe('GET /api/class_reservations/progress', () => {
  it('counts the classes she kept and that were held, not the cancelled, the missed or those ahead', async () => {
    const before = await call(server.app, 'GET', '/api/class_reservations/progress', { token: nuevo });
    expect(before.status).toBe(200);
    expect(before.body.progress).toMatchObject({ total: 0, week_streak: 0, milestones: [], next_milestone: { classes: 1, missing: 1 } });

    const nuevoId = await customerId(server.db, 'nuevo@estudio.demo');
    const book = async (minutesAhead: number, row: Partial<typeof class_reservation.$inferInsert> = {}) => {
      const id = await newClass(server.db, { minutesAhead, capacity: 10 });
      await server.db.insert(class_reservation).values({ single_class_id: id, customer_id: nuevoId, ...row });
      return id;
    };
    // Kept, one a week for three weeks (one attended at the desk).
    const kept = [await book(-1 * day, { attend: true, attendedAt: new Date() }), await book(-8 * day), await book(-15 * day)];
    // Not taken: cancelled by her, a class the studio cancelled, a no-show, one ahead.
    await book(-2 * day, { deletedAt: new Date(), credit_returned: true });
    const cancelledClass = await book(-3 * day);
    await server.db.update(single_class).set({ cancelledAt: new Date() }).where(eq(single_class.single_class_id, cancelledClass));
    await book(-4 * day, { noShowAt: new Date() });
    await book(2 * day);

    const answer = await call(server.app, 'GET', '/api/class_reservations/progress', { token: nuevo });
    expect(answer.status).toBe(200);
    const progress = answer.body.progress as { total: number; by_month: { month: string; classes: number }[]; week_streak: number; milestones: { classes: number; reached_on: string }[]; next_milestone: unknown };
    expect(progress.total).toBe(kept.length);
    expect(progress.by_month).toHaveLength(12);
    expect(progress.by_month.reduce((sum, m) => sum + m.classes, 0)).toBe(3);
    expect(progress.by_month.at(-1)!.month).toBe(localDate(new Date(), 'America/Mexico_City').slice(0, 7));
    expect(progress.week_streak).toBe(3);
    expect(progress.milestones).toEqual([{ classes: 1, reached_on: localDate(new Date(Date.now() - 15 * day * 60_000), 'America/Mexico_City') }]);
    expect(progress.next_milestone).toEqual({ classes: 10, missing: 7 });

    // Her own only: another customer's count is hers, and a visitor has none.
    const other = await call(server.app, 'GET', '/api/class_reservations/progress', { token: cliente });
    expect(other.status).toBe(200);
    expect(other.body.progress.total).not.toBe(undefined);
    expect((await call(server.app, 'GET', '/api/class_reservations/progress')).status).toBe(401);
  });
});
