import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { app_config } from '@estudio/db/schema/app-config';
import { available_classes } from '@estudio/db/schema/purchases';
import { noticeExpiringCredits } from '../../src/services/billing/expiring-credits.ts';
import { creditsExpiringJob } from '../../src/services/clock/credits-expiring.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { buy, dailySubscription, days, emailsOf, messagesOf, newCustomer, saveCard } from '../support/billing-fixtures.ts';

/**
 * Expiring credits (decision 024): a daily job tells a customer
 * about unused classes that expire within credits_expiring_notice_days,
 * once per credit row and expiry date. `now` is passed in; fixtures are
 * relative to the real (or fake) clock.
 */
let server: TestServer;
const now = new Date();

demoStudio([], (s) => ({ server } = s));

/** Expiring credits are an optional message: the customers here said yes to them (decision 120). */
const saidYes = { optionalMessages: true };
const deps = () => ({ db: server.db, messages: messageContextOf(server.config) });
const credit = async (customerId: number, classes: number, expiresAt: Date | null) =>
  (await server.db.insert(available_classes).values({ customer_id: customerId, available_classes: classes, expiration_date: expiresAt }).returning())[0]!;
const setDays = (value: string) => server.db.insert(app_config).values({ key: 'credits_expiring_notice_days', value }).onConflictDoUpdate({ target: app_config.key, set: { value } });

describe('credits about to expire', () => {
  it('one notice per credit row and expiry date, for unused classes expiring within the notice days', async () => {
    const who = await newCustomer(server.db, 'Carla', saidYes);
    const soon = await credit(who, 5, days(now, 3));
    await credit(who, 2, days(now, 10));
    await credit(who, 3, days(now, -1));
    await credit(who, 0, days(now, 2));
    await credit(who, 4, null);

    await noticeExpiringCredits(deps(), now);
    const mails = await emailsOf(server.db, who, 'credits-expiring');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.dedupe_key).toBe(`credits-expiring:${soon.available_class_id}:${soon.expiration_date!.toISOString()}:email`);
    expect(mails[0]!.subject).toMatch(/^Tus clases vencen el \d\d \w+ \d{4}$/);
    expect(mails[0]!.body).toContain('Te quedan 5 clases que vencen el');
    expect(mails[0]!.body).toContain('Reservar una clase: http://estudio.test/calendario');
    // Optional: it carries the stop link, and goes by WhatsApp with its template too.
    expect(mails[0]!.body).toContain('http://estudio.test/mensajes/baja?token=');
    const whatsapp = (await messagesOf(server.db, who, 'credits-expiring')).filter((m) => m.channel === 'whatsapp');
    expect(whatsapp[0]?.whatsapp_template).toMatchObject({ name: 'estudio_creditos_por_vencer', parameters: ['Carla', '5 clases', expect.any(String), 'http://estudio.test/calendario'] });

    // The next day's run sends nothing new; four days later the row expiring at day 10 enters the window.
    await noticeExpiringCredits(deps(), days(now, 1));
    expect(await emailsOf(server.db, who, 'credits-expiring')).toHaveLength(1);
    await creditsExpiringJob.run({ db: server.db, config: server.config, messages: messageContextOf(server.config), log: console }, days(now, 4));
    expect(await emailsOf(server.db, who, 'credits-expiring')).toHaveLength(2);

    // An expiry moved by an admin is a new date: told again.
    await server.db.update(available_classes).set({ expiration_date: days(now, 5) }).where(eq(available_classes.available_class_id, soon.available_class_id));
    await noticeExpiringCredits(deps(), days(now, 1));
    expect(await emailsOf(server.db, who, 'credits-expiring')).toHaveLength(3);
  });

  it('an unlimited pass about to end is told in the singular', async () => {
    const who = await newCustomer(server.db, 'Inés', saidYes);
    await credit(who, -1, days(now, 6));
    await noticeExpiringCredits(deps(), now);
    const [mail] = await emailsOf(server.db, who, 'credits-expiring');
    expect(mail!.subject).toMatch(/^Tu acceso vence el /);
    expect(mail!.body).toContain('Tu acceso ilimitado vence el');
    expect(mail!.body).toContain('Aparta tu lugar antes de que venza.');
    expect(mail!.body).toContain('Vence el:');
  });

  it('the notice days come from the setting, 0 turns it off', async () => {
    const who = await newCustomer(server.db, 'Lucía', saidYes);
    await credit(who, 1, days(now, 2));
    try {
      await setDays('0');
      expect(await noticeExpiringCredits(deps(), now)).toBe(0);
      await setDays('1');
      await noticeExpiringCredits(deps(), now);
      expect(await emailsOf(server.db, who, 'credits-expiring')).toHaveLength(0);
      await setDays('2');
      await noticeExpiringCredits(deps(), now);
      const [mail] = await emailsOf(server.db, who, 'credits-expiring');
      expect(mail!.body).toContain('Te queda 1 clase que vence el');
    } finally {
      await setDays('7');
    }
  });

  it('credits of an active subscription renew by themselves: no notice', async () => {
    const who = await newCustomer(server.db, 'Lucía', saidYes);
    const sub = await dailySubscription(server.db);
    await buy(server.db, server.config, who, sub, { sourceId: await saveCard(server.db, who, 'pm_card_visa', '4242') });
    await noticeExpiringCredits(deps(), now);
    expect(await emailsOf(server.db, who, 'credits-expiring')).toHaveLength(0);
  });

  it('a customer who never said yes to optional messages gets none', async () => {
    const who = await newCustomer(server.db);
    await credit(who, 3, days(now, 2));
    await noticeExpiringCredits(deps(), now);
    expect(await messagesOf(server.db, who, 'credits-expiring')).toHaveLength(0);
  });

  it('a customer who turned e-mail off for optional messages gets none', async () => {
    const { message_preference } = await import('@estudio/db/schema/outbox');
    const who = await newCustomer(server.db);
    await server.db.insert(message_preference).values({ customer_id: who, stop_token: `t-${who}`, calendar_token: `c-${who}`, email_enabled: false, whatsapp_enabled: false });
    await credit(who, 3, days(now, 2));
    await noticeExpiringCredits(deps(), now);
    expect(await messagesOf(server.db, who, 'credits-expiring')).toHaveLength(0);
  });
});
