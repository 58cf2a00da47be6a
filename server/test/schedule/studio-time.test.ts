import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { formatDate, formatDateTime, studioDayjs } from '@estudio/core';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { renewSubscription } from '../../src/services/billing/renewals.ts';
import { buy, emailsOf, messagesOf, minutes, renewalDeps, saveCard } from '../support/billing-fixtures.ts';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * Points 10 and 11 (decision 030), through the admin's REST calls
 * and the customer's pages' answers. Runs on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL.
 */
let server: TestServer;
let admin: string;
demoStudio(['admin'], (s) => ({ server, tokens: { admin } } = s));

const putConfig = (config: { key: string; value: string }[]) => call(server.app, 'PUT', '/api/appconfig', { token: admin, body: { config } });
async function served(): Promise<Record<string, string>> {
  const res = await call(server.app, 'GET', '/api/appconfig');
  return Object.fromEntries((res.body.config as { key: string; value: string }[]).map((e) => [e.key, e.value]));
}
const customerId = async (email: string) => (await server.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, email)))[0]!.id;

describe('the studio time zone follows timezone_offset and timezone (point 10)', () => {
  it('refuses bad values with 400 in Spanish and keeps what was saved', async () => {
    for (const value of ['13', '-15', '5.5', '+6', 'seis', '']) {
      const res = await putConfig([{ key: 'timezone_offset', value }]);
      expect(res.status, value).toBe(400);
      expect(res.body.field).toBe('timezone_offset');
      expect(res.body.message).toContain('«Diferencia horaria (horas)» no es válido');
      expect(res.body.message).not.toContain('timezone');
    }
    expect((await putConfig([{ key: 'timezone', value: 'America/Ciudad_Gotica' }])).body.message).toBe(
      'El valor de «Zona horaria» no es válido: debe ser una zona horaria válida, por ejemplo America/Mexico_City.',
    );
    const kolkata = await putConfig([{ key: 'timezone', value: 'Asia/Kolkata' }]);
    expect(kolkata.status).toBe(400);
    expect(kolkata.body.message).toContain('horas completas');
    const disagree = await putConfig([{ key: 'timezone', value: 'America/Cancun' }, { key: 'timezone_offset', value: '6' }]);
    expect(disagree.status).toBe(400);
    expect(disagree.body.message).toBe('La «Diferencia horaria (horas)» no coincide con la zona horaria America/Cancun, que es de 5 horas. Escribe 5 o cambia solo uno de los dos.');
    expect(await served()).toMatchObject({ timezone: 'America/Mexico_City', timezone_offset: '6' });
  });

  it("setting timezone_offset moves the times a customer is told; setting a zone writes its offset", async () => {
    const cliente = await customerId('cliente@estudio.demo');
    const [booked] = await server.db
      .select({ id: single_class.single_class_id, at: single_class.class_date })
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .where(and(eq(class_reservation.customer_id, cliente), isNull(class_reservation.deletedAt), gt(single_class.class_date, new Date())))
      .orderBy(asc(single_class.class_date))
      .limit(1);
    expect(booked, 'the demo customer has an upcoming class').toBeDefined();

    // 7 hours behind UTC: the zone is cleared, so the offset decides (an hour earlier than Mexico City).
    expect((await putConfig([{ key: 'timezone_offset', value: '7' }])).status).toBe(200);
    expect(await served()).toMatchObject({ timezone: '', timezone_offset: '7' });
    const cancelled = await call(server.app, 'POST', `/api/single_class/${booked!.id}/cancel`, { token: admin, body: {} });
    expect(cancelled.status, cancelled.raw).toBe(200);
    const told = (await messagesOf(server.db, cliente, 'class-cancelled')).at(-1)!;
    const inMexicoCity = formatDateTime(booked!.at, 'America/Mexico_City');
    const sevenBehind = formatDateTime(booked!.at, 'Etc/GMT+7');
    expect(sevenBehind).not.toBe(inMexicoCity);
    expect(told.body).toContain(sevenBehind);
    expect(told.body).not.toContain(inMexicoCity);

    // The public schedule groups classes by the studio's day in that zone (and the reports read it without failing).
    const week = studioDayjs(booked!.at, 'Etc/GMT+7').format('YYYY-MM-DD');
    expect((await call(server.app, 'GET', `/api/single_class?start_date=${week}&end_date=${week}`)).status).toBe(200);
    expect((await call(server.app, 'GET', `/api/reports/sales?start_date=${week}&end_date=${week}`, { token: admin })).status).toBe(200);

    // An IANA zone again (daylight saving included): its standard offset is written with it.
    expect((await putConfig([{ key: 'timezone', value: 'America/Tijuana' }])).status).toBe(200);
    expect(await served()).toMatchObject({ timezone: 'America/Tijuana', timezone_offset: '8' });
    // Saving the zone's own offset again leaves the zone alone.
    expect((await putConfig([{ key: 'timezone_offset', value: '8' }])).status).toBe(200);
    expect(await served()).toMatchObject({ timezone: 'America/Tijuana', timezone_offset: '8' });
    expect((await putConfig([{ key: 'timezone', value: 'America/Mexico_City' }])).status).toBe(200);
    expect(await served()).toMatchObject({ timezone: 'America/Mexico_City', timezone_offset: '6' });
  });
});

describe('one next charge date on every screen (point 11)', () => {
  it("the demo's online membership (a 7-day trial, charged a month after it began) shows the date it was paid through", async () => {
    const who = await login(server.app, 'ilimitado@estudio.demo');
    const mine = await call(server.app, 'GET', '/api/purchases', { token: who.idToken });
    const online = (mine.body.purchases as { purchase_id: number; title: string; next_charge_date: string | null }[]).find((p) => p.title === 'Online Mensual')!;
    const [lastCharge] = await server.db
      .select({ until: invoice.period_end })
      .from(invoice)
      .where(and(eq(invoice.purchase_id, online.purchase_id), eq(invoice.status, 'completed')))
      .orderBy(asc(invoice.createdAt))
      .then((rows) => rows.slice(-1));
    // The provider's next charge: the end of the period the last invoice paid, not the trial's end plus months.
    expect(online.next_charge_date).toBe(lastCharge!.until!.toISOString());
    const charges = await call(server.app, 'GET', '/api/invoices', { token: who.idToken });
    const ofOnline = (charges.body.invoices as { purchase: { purchase_id: number; next_charge_date: string | null } }[]).filter((i) => i.purchase.purchase_id === online.purchase_id);
    expect(ofOnline.length).toBeGreaterThan(0);
    for (const i of ofOnline) expect(i.purchase.next_charge_date).toBe(online.next_charge_date);
  });

  it("charge days are the studio's (Tokyo's 1st, Mexico City's 31st → the month's last day), and the renewal receipt says the date Mis Compras shows", async () => {
    // The demo's new customer, who has bought nothing yet.
    const who = await customerId('nuevo@estudio.demo');
    const card = await saveCard(server.db, who, 'pm_card_visa', '4242');
    const [monthly] = await server.db.select({ id: class_package.class_package_id }).from(class_package).where(eq(class_package.title, 'Ilimitado Mensual'));
    const bought = await buy(server.db, server.config, who, monthly!.id, { sourceId: card });
    const token = (await login(server.app, 'nuevo@estudio.demo')).idToken;
    const lastYear = new Date().getUTCFullYear() - 1;
    /** Backdates the purchase, never renewed (no paid-through date): the rule alone decides. */
    const nextChargeIfCreated = async (createdAt: Date, tz: string) => {
      await server.db.update(purchase).set({ createdAt, expiration_date: null }).where(eq(purchase.purchase_id, bought.purchase_id));
      const listed = (await call(server.app, 'GET', '/api/purchases', { token })).body.purchases.find((p: { purchase_id: number }) => p.purchase_id === bought.purchase_id);
      const next = studioDayjs(listed.next_charge_date, tz);
      expect(next.valueOf()).toBeGreaterThan(Date.now());
      expect(next.valueOf() - Date.now()).toBeLessThanOrEqual(31 * 86_400_000);
      return next;
    };
    // A studio in Tokyo: 05:00 on the 1st there is still the previous month in UTC, whose day must not be the one kept.
    expect((await putConfig([{ key: 'timezone', value: 'Asia/Tokyo' }])).status).toBe(200);
    const tokyo = await nextChargeIfCreated(new Date(`${lastYear}-01-01T05:00:00+09:00`), 'Asia/Tokyo');
    expect([tokyo.date(), tokyo.format('HH:mm')]).toEqual([1, '05:00']);
    expect((await putConfig([{ key: 'timezone', value: 'America/Mexico_City' }])).status).toBe(200);
    // 31 January 20:00 in Mexico City: the last day of each shorter month.
    const next = await nextChargeIfCreated(new Date(`${lastYear}-01-31T20:00:00-06:00`), 'America/Mexico_City');
    expect(next.format('HH:mm')).toBe('20:00');
    expect(next.date()).toBe(next.daysInMonth());

    // Renewed when due: the receipt's 'Siguiente cargo' is the date Mis Compras then shows.
    await server.db.update(purchase).set({ expiration_date: minutes(new Date(), -5) }).where(eq(purchase.purchase_id, bought.purchase_id));
    expect(await renewSubscription(renewalDeps(server.db, server.config), bought.purchase_id, new Date())).toBe('renewed');
    const after = (await call(server.app, 'GET', '/api/purchases', { token })).body.purchases.find((p: { purchase_id: number }) => p.purchase_id === bought.purchase_id);
    const receipt = (await emailsOf(server.db, who, 'subscription-renewed')).at(-1)!;
    expect(receipt.body).toContain(formatDate(after.next_charge_date, 'America/Mexico_City'));
    expect(studioDayjs(after.next_charge_date, 'America/Mexico_City').format('HH:mm')).toBe('20:00');
  });
});
