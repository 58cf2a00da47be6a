import { icsInvitation } from '@estudio/core';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { app_config } from '@estudio/db/schema/app-config';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDeliveryWorker } from '../../src/services/messages/delivery-worker.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { oneClickStopUrlOf } from '../../src/services/messages/preferences.ts';
import { preferencesOf, queueCustomerMessage, queueEmail, stopUrlOf } from '../../src/services/messages/queue-message.ts';
import { drainThenClose, freePort, silentLog, startLoopbackSmtp, workerConfig } from '../support/messages-fixtures.ts';

/**
 * E-mail leaves the outbox through nodemailer to a real SMTP server on
 * loopback (smtp-server), which keeps what arrived: the test reads it back.
 */
let t: TestDb;
let customerId: number;
let customerEmail: string;

beforeAll(async () => {
  t = await createTestDb();
  await t.db
    .insert(app_config)
    .values([
      { key: 'business_name', value: 'Estudio Luna' },
      { key: 'primary', value: '#2b8a3e' },
      { key: 'email', value: 'hola@estudioluna.mx' },
    ])
    .onConflictDoUpdate({ target: app_config.key, set: { value: (await import('drizzle-orm')).sql`excluded.value` } });
  const [someone] = await t.db.select({ id: customer.customer_id, email: customer.email }).from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
  if (!someone) throw new Error('seed without cliente@estudio.demo');
  customerId = someone.id;
  customerEmail = someone.email;
});
afterAll(() => t.close());

const start = new Date(Date.now() + 3 * 86_400_000);

describe('SMTP delivery', () => {
  it('sends a booking confirmation with text, HTML in the studio colours, the .ics and a stable Message-ID (without AUTH)', async () => {
    const smtp = await startLoopbackSmtp();
    const config = workerConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_SECURE: 'false' });
    const ctx = messageContextOf(config);
    const dedupeKey = `prueba-smtp:${Date.now()}`;
    const ics = icsInvitation('Estudio Luna', { uid: 'reserva-1@estudio', start, end: new Date(start.getTime() + 3_600_000), summary: 'Yoga' });
    await queueCustomerMessage(t.db, ctx, {
      customerId,
      channels: ['email'],
      dedupeKey,
      parts: {
        kind: 'booking-confirmation',
        subject: 'Tu clase de Yoga está reservada',
        greetingName: 'Ana',
        paragraphs: ['Te esperamos.'],
        details: [['Clase', 'Yoga']],
        attachments: [{ filename: 'clase.ics', contentType: 'text/calendar', content: ics }],
      },
    });
    await drainThenClose(t.db, config, smtp);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    // The studio's name and contact e-mail (nodemailer drops the quotes a plain name does not need).
    expect(mail.from).toBe('Estudio Luna <hola@estudioluna.mx>');
    expect(mail.to).toBe(customerEmail);
    expect(mail.envelopeTo).toEqual([customerEmail]);
    expect(mail.subject).toBe('Tu clase de Yoga está reservada');
    expect(mail.text).toContain('Hola, Ana:');
    expect(mail.text).toContain('Clase: Yoga');
    expect(mail.html).toContain('#2b8a3e');
    expect(mail.html).toContain('Estudio Luna');
    const invite = mail.parts.find((p) => p.filename === 'clase.ics');
    expect(invite?.contentType).toMatch(/^text\/calendar/);
    expect(invite?.contentType).toMatch(/method=PUBLISH/i);
    expect(invite?.body).toContain('BEGIN:VEVENT');
    expect(invite?.body).toContain('SUMMARY:Yoga');
    // Transactional: no stop link.
    expect(mail.headers.has('list-unsubscribe')).toBe(false);

    const [row] = await t.db.select().from(outbox_message).where(eq(outbox_message.dedupe_key, `${dedupeKey}:email`));
    expect(row?.status).toBe('sent');
    expect(row?.attempts).toBe(1);
    expect(row?.sentAt).toBeInstanceOf(Date);
    expect(row?.claimed_until).toBeNull();
    expect(row?.provider_message_id).toBe(mail.messageId);
    expect(mail.messageId).toBe(`<mensaje-${row!.outbox_message_id}.${row!.createdAt.getTime()}@estudio.test>`);
  });

  it('logs in with AUTH, and an optional message carries List-Unsubscribe with the stop link (one click)', async () => {
    const smtp = await startLoopbackSmtp({ auth: { user: 'estudio', pass: 'secreta-123' } });
    const config = workerConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_USER: 'estudio', SMTP_PASSWORD: 'secreta-123', SMTP_FROM: 'Recepción <recepcion@estudioluna.mx>' });
    const ctx = messageContextOf(config);
    await queueCustomerMessage(t.db, ctx, {
      customerId,
      channels: ['email'],
      dedupeKey: `prueba-auth:${Date.now()}`,
      parts: { kind: 'class-reminder', subject: 'Tu clase es en 2 horas', paragraphs: ['Nos vemos pronto.'] },
    });
    await drainThenClose(t.db, config, smtp);
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.user).toBe('estudio');
    expect(mail.from).toBe('Recepción <recepcion@estudioluna.mx>');
    const token = (await preferencesOf(t.db, customerId)).stop_token;
    const stop = stopUrlOf(ctx, token);
    expect(mail.headers.get('list-unsubscribe')).toBe(`<${oneClickStopUrlOf(ctx, token)}>`);
    expect(mail.headers.get('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain(stop);
  });

  it('a wrong SMTP password keeps the message waiting with a reason for the admin, without using up its attempts', async () => {
    const smtp = await startLoopbackSmtp({ auth: { user: 'estudio', pass: 'secreta-123' } });
    const config = workerConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_USER: 'estudio', SMTP_PASSWORD: 'otra' });
    const ctx = messageContextOf(config);
    await queueEmail(t.db, ctx, { to: 'contrasena.mala@correo.mx', parts: { kind: 'general', subject: 'Hola', paragraphs: ['Prueba'] } });
    await drainThenClose(t.db, config, smtp);
    const [row] = await t.db.select().from(outbox_message).where(eq(outbox_message.recipient, 'contrasena.mala@correo.mx'));
    expect(row?.status).toBe('pending');
    expect(row?.attempts).toBe(0);
    expect(row?.last_error).toMatch(/usuario o la contraseña SMTP/);
    expect(row!.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 60_000);
    expect(smtp.received).toHaveLength(0);
  });

  it('a refused recipient (550) fails with the reason, and the next message still goes', async () => {
    const smtp = await startLoopbackSmtp({ refuse: (a) => a === 'no.existe@correo.mx' });
    const config = workerConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) });
    const ctx = messageContextOf(config);
    await queueEmail(t.db, ctx, { to: 'no.existe@correo.mx', parts: { kind: 'general', subject: 'Uno', paragraphs: ['Primero'] } });
    await queueEmail(t.db, ctx, { to: 'si.existe@correo.mx', parts: { kind: 'general', subject: 'Dos', paragraphs: ['Segundo'] } });
    await drainThenClose(t.db, config, smtp);
    const rows = await t.db.select().from(outbox_message).where(inArray(outbox_message.recipient, ['no.existe@correo.mx', 'si.existe@correo.mx']));
    const refused = rows.find((r) => r.recipient === 'no.existe@correo.mx');
    const accepted = rows.find((r) => r.recipient === 'si.existe@correo.mx');
    expect(refused?.status).toBe('failed');
    expect(refused?.last_error).toMatch(/^El servidor de correo rechazó al destinatario: 550 /);
    expect(refused?.last_error).toContain('Mailbox does not exist');
    expect(accepted?.last_error ?? null).toBeNull();
    expect(accepted?.status).toBe('sent');
    expect(smtp.received.map((m) => m.to)).toEqual(['si.existe@correo.mx']);
  });

  it('a server that is down leaves the message pending with a later attempt (the rest of the batch untried); they go once the server is up', async () => {
    const port = await freePort();
    const config = workerConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port) });
    const ctx = messageContextOf(config);
    const to = ['espera.1@correo.mx', 'espera.2@correo.mx', 'espera.3@correo.mx'];
    for (const address of to) await queueEmail(t.db, ctx, { to: address, parts: { kind: 'general', subject: 'Espera', paragraphs: ['Paciencia'] } });
    const rows = () => t.db.select().from(outbox_message).where(inArray(outbox_message.recipient, to)).orderBy(outbox_message.outbox_message_id);
    const first = startDeliveryWorker({ db: t.db, config, log: silentLog });
    const before = Date.now();
    try {
      await first.drain();
      const [tried, ...untried] = await rows();
      expect(tried?.status).toBe('pending');
      expect(tried?.attempts).toBe(1);
      expect(tried?.last_error).toMatch(/No se pudo conectar con el servidor de correo/);
      expect(tried?.claimed_until).toBeNull();
      // 30 s ± 20 % after the first attempt.
      expect(tried!.next_attempt_at.getTime()).toBeGreaterThanOrEqual(before + 24_000);
      // The first message of the batch found the server down: the others were given back untried, still due.
      for (const row of untried) {
        expect(row.attempts).toBe(0);
        expect(row.claimed_until).toBeNull();
        expect(row.last_error).toBeNull();
        expect(row.next_attempt_at.getTime()).toBeLessThanOrEqual(Date.now());
      }
      // This process holds the channel back for a while: a drain now sends nothing and counts nothing.
      expect(await first.drain()).toBe(0);
      expect((await rows()).map((r) => r.attempts)).toEqual([1, 0, 0]);
    } finally {
      await first.stop();
    }

    const smtp = await startLoopbackSmtp({ port });
    // Later (the backoff has passed), a sender finds the server up.
    await t.db.update(outbox_message).set({ next_attempt_at: new Date(Date.now() - 1000) }).where(inArray(outbox_message.recipient, to));
    const later = startDeliveryWorker({ db: t.db, config, log: silentLog });
    try {
      await later.drain();
      expect(smtp.received.map((m) => m.to).sort()).toEqual(to);
    } finally {
      await later.stop();
      await smtp.close();
    }
    const sent = await rows();
    expect(sent.map((r) => [r.status, r.attempts])).toEqual([
      ['sent', 2],
      ['sent', 1],
      ['sent', 1],
    ]);
  });
});

describe('smtpFailure in words', () => {
  it('names a refused port, an unknown host and a cut connection without the system codes', async () => {
    const { smtpFailure } = await import('../../src/providers/messages/smtp.ts');
    const socket = (message: string) => Object.assign(new Error(message), { code: 'ESOCKET' });
    expect(smtpFailure(socket('connect ECONNREFUSED 127.0.0.1:2525')).reason).toMatch(/^No se pudo conectar con el servidor de correo: nadie respondió en esa dirección y puerto\./);
    expect(smtpFailure(Object.assign(new Error('getaddrinfo ENOTFOUND smtp.nohay.mx'), { code: 'EDNS' })).reason).toContain('no se encontró un servidor con ese nombre');
    expect(smtpFailure(socket('Client network socket disconnected before secure TLS connection was established')).reason).toContain('la conexión se cortó');
    for (const e of [socket('connect ECONNREFUSED 127.0.0.1:2525'), socket('read ECONNRESET')]) expect(smtpFailure(e).reason).not.toMatch(/E[A-Z]{4,}/);
    expect(smtpFailure(socket('connect ECONNREFUSED 127.0.0.1:2525')).permanent).toBe(false);
  });
});
