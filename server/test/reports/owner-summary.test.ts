import { localDate, studioDayRange } from '@estudio/core';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { class_type } from '@estudio/db/schema/catalogue';
import { outbox_message } from '@estudio/db/schema/outbox';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method } from '@estudio/db/schema/payments';
import { purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { ownerSummaryJob, ownerSummaryOf } from '../../src/services/clock/owner-summary.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { anyLocationId, createBookers, withSettings } from '../support/reservations-fixtures.ts';
import { type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/*
 * The owner's daily summary: the studio's day before `now` and the
 * day after, on a day 400 days ahead of the real (or moved) clock, so the
 * seed's own classes and sales are not in it and every number is this test's.
 */

const tz = 'America/Mexico_City';
let server: TestServer;
const silent = { info: () => {}, warn: () => {}, error: () => {} };
const today = localDate(new Date(Date.now() + 400 * 86_400_000), tz);
const shift = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** An instant at hh:mm of a studio date. */
const at = (date: string, hh: number, mm = 0) => new Date(studioDayRange(date, date, tz).from.getTime() + (hh * 60 + mm) * 60_000);
const yesterday = shift(today, -1);
const tomorrow = shift(today, 1);
/** 07:00 of `today`: when the job runs with the default hour. */
const now = at(today, 7);

demoStudio([], (s) => ({ server } = s));
beforeAll(async () => {
  const db = server.db;
  const [type] = await db.select({ id: class_type.class_type_id }).from(class_type).where(eq(class_type.name, 'Barre'));
  const location = await anyLocationId(db);
  const cls = async (date: Date, capacity: number, cancelledAt: Date | null = null) => {
    const [row] = await db
      .insert(single_class)
      .values({ class_date: date, duration_minutes: 50, capacity, location_id: location, class_type_id: type?.id ?? 0, cancelledAt })
      .returning({ id: single_class.single_class_id });
    return row?.id ?? 0;
  };
  const people = await createBookers(db, server.config.AUTH_SECRET, 4, { prefix: `resumen-${Date.now()}` });
  const ids = people.map((p) => p.customer_id);
  const [a, b, c, d] = ids as [number, number, number, number];

  // Yesterday: two classes, four live bookings (three checked in, one no-show) and one cancelled booking.
  const morning = await cls(at(yesterday, 9), 10);
  const evening = await cls(at(yesterday, 18), 5);
  await db.insert(class_reservation).values([
    { single_class_id: morning, customer_id: a, attend: true },
    { single_class_id: morning, customer_id: b, attend: true },
    { single_class_id: morning, customer_id: c, attend: false },
    { single_class_id: morning, customer_id: d, deletedAt: at(yesterday, 7) },
    { single_class_id: evening, customer_id: d, attend: true },
  ]);
  // A class cancelled yesterday by the studio (it was for today at noon).
  await cls(at(today, 12), 8, at(yesterday, 10, 30));
  // Tomorrow: 07:00 with four bookings, one bringing a guest (5 of 10 places), and 19:00 empty (0 of 4).
  const early = await cls(at(tomorrow, 7), 10);
  await cls(at(tomorrow, 19), 4);
  await db.insert(class_reservation).values([
    { single_class_id: early, customer_id: a },
    { single_class_id: early, customer_id: b, guest: 'Invitada' },
    { single_class_id: early, customer_id: c },
    { single_class_id: early, customer_id: d },
  ]);
  // Yesterday's sales: two by card (500 + 250), one in cash (100); a pending one and a gift are not sales.
  const methods = await db.select().from(payment_method);
  const card = methods.find((m) => m.name === 'Tarjeta')?.payment_method_id ?? null;
  const cash = methods.find((m) => m.name === 'Efectivo')?.payment_method_id ?? null;
  const [pkg] = await db.select({ id: class_package.class_package_id }).from(class_package).limit(1);
  const sale = (total: string, payment_method_id: number | null, status: 'completed' | 'active' | 'pending', is_gift = false) => ({
    customer_id: a,
    class_package_id: pkg?.id ?? 0,
    payment_method_id,
    title: 'Paquete de prueba',
    amount: total,
    total_payment: total,
    class_amount: 5,
    status,
    is_gift,
    createdAt: at(yesterday, 11),
    // A sale is money received: paid when it was bought, except the pending order.
    paidAt: status === 'pending' ? null : at(yesterday, 11),
  });
  await db
    .insert(purchase)
    .values([sale('500.00', card, 'completed'), sale('250.00', card, 'active'), sale('100.00', cash, 'completed'), sale('900.00', card, 'pending'), sale('0.00', null, 'completed', true)]);
}, 120_000);

const ctx = () => ({ db: server.db, config: server.config, messages: messageContextOf(server.config), log: silent });
const summaries = () => server.db.select().from(outbox_message).where(eq(outbox_message.kind, 'owner-daily-summary')).orderBy(outbox_message.outbox_message_id);

describe("the owner's daily summary", () => {
  it("counts yesterday's attendance, no-shows, sales by payment method, cancelled classes and tomorrow's fill rate", async () => {
    const s = await ownerSummaryOf(server.db, now);
    expect(s.today).toBe(today);
    expect(s.attendance).toEqual({ classes: 2, booked: 4, checkedIn: 3, noShows: 1 });
    expect(s.sales).toEqual({
      count: 3,
      total: '$850.00',
      byMethod: [
        { method: 'Tarjeta', count: 2, total: '$750.00' },
        { method: 'Efectivo', count: 1, total: '$100.00' },
      ],
    });
    expect(s.cancelledClasses).toEqual([{ className: 'Barre', time: `${today} 12:00` }]);
    expect(s.tomorrowClasses).toEqual([
      { className: 'Barre', time: '07:00', booked: 5, capacity: 10 },
      { className: 'Barre', time: '19:00', booked: 0, capacity: 4 },
    ]);
    expect(s.tomorrowTotal).toEqual({ booked: 5, capacity: 14 });
  });

  it('the job e-mails it once per studio day to owner_summary_email, as a table; off or without an address it sends nothing', async () => {
    expect(ownerSummaryJob.name).toBe('owner-summary');
    const schedule = ownerSummaryJob.schedule;
    expect('daily' in schedule && schedule.daily({ owner_summary_hour: '6' })).toEqual({ hour: 6, minute: 0 });

    await withSettings(server.db, { owner_summary_enabled: 'false', owner_summary_email: 'duena@estudio.test' }, async () => {
      expect(await ownerSummaryJob.run(ctx(), now)).toBe(0);
    });
    await withSettings(server.db, { owner_summary_email: '', email: '' }, async () => {
      expect(await ownerSummaryJob.run(ctx(), now)).toBe(0);
    });
    expect(await summaries()).toHaveLength(0);

    await withSettings(server.db, { owner_summary_email: 'duena@estudio.test' }, async () => {
      expect(await ownerSummaryJob.run(ctx(), now)).toBe(1);
      // A run repeated the same day (a restart) sends nothing new.
      expect(await ownerSummaryJob.run(ctx(), at(today, 7, 30))).toBe(0);
    });
    const [mail, ...more] = await summaries();
    expect(more).toHaveLength(0);
    expect(mail).toMatchObject({ channel: 'email', recipient: 'duena@estudio.test', dedupe_key: `owner-summary:${today}:email`, customer_id: null });
    expect(mail?.subject).toMatch(/^Resumen de .+: \S+ \d+ \S+ \d{4}$/);
    expect(mail?.body).toContain('Asistencias / reservaciones: 3 de 4 (75\u00a0%)');
    expect(mail?.body).toContain('Inasistencias: 1');
    expect(mail?.body).toContain('Ventas de ayer: 3 · $850.00');
    expect(mail?.body).toContain('Ventas · Tarjeta: 2 · $750.00');
    expect(mail?.body).toContain(`Clases canceladas ayer: ${today} 12:00 Barre`);
    expect(mail?.body).toContain('Mañana 07:00 Barre: 5 de 10 (50\u00a0%)');
    expect(mail?.body).toContain('Ocupación de mañana: 5 de 14 (36\u00a0%)');
    expect(mail?.html).toContain('<table role="presentation"');
    expect(mail?.html).toContain('3 de 4 (75\u00a0%)');
    expect(mail?.body).not.toContain('/mensajes/baja');
  });

  it("without owner_summary_email it goes to the studio's e-mail, and the next day is another summary", async () => {
    await withSettings(server.db, { owner_summary_email: '', email: 'hola@estudio.test' }, async () => {
      expect(await ownerSummaryJob.run(ctx(), at(tomorrow, 7))).toBe(1);
    });
    const rows = await server.db.select().from(outbox_message).where(and(eq(outbox_message.kind, 'owner-daily-summary'), eq(outbox_message.recipient, 'hola@estudio.test')));
    expect(rows.map((r) => r.dedupe_key)).toEqual([`owner-summary:${tomorrow}:email`]);
  });
});
