import { outbox_message } from '@estudio/db/schema/outbox';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryFailure } from '../../src/providers/messages/types.ts';
import { backoffMs, claimDue, maxAttempts, recordOutcome, startDeliveryWorker } from '../../src/services/messages/delivery-worker.ts';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { drainThenClose, silentLog, startLoopbackSmtp, workerConfig } from '../support/messages-fixtures.ts';

/**
 * The worker's rules on the real database (both drivers): what is due, who
 * holds a claim, how outcomes are recorded, backoff and the maximum.
 */
let server: TestServer;
let admin: string;

beforeAll(async () => {
  server = await startTestServer({ MESSAGES_WORKER: 'off' });
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
});
afterAll(() => server.close());

async function insert(recipient: string, values: Partial<typeof outbox_message.$inferInsert> = {}) {
  const [row] = await server.db
    .insert(outbox_message)
    .values({ channel: 'email', recipient, subject: 'Prueba', body: 'Hola', ...values })
    .returning();
  return row!;
}
const read = async (id: number) => (await server.db.select().from(outbox_message).where(eq(outbox_message.outbox_message_id, id)))[0]!;

describe('delivery worker rules', () => {
  it('backoff doubles from 30 s, is capped at one hour, and is jittered ±20 %', () => {
    expect(backoffMs(1, () => 0.5)).toBe(30_000);
    expect(backoffMs(2, () => 0.5)).toBe(60_000);
    expect(backoffMs(4, () => 0.5)).toBe(240_000);
    expect(backoffMs(20, () => 0.5)).toBe(3_600_000);
    expect(backoffMs(1, () => 0)).toBe(24_000);
    expect(backoffMs(1, () => 1)).toBe(36_000);
  });

  it('a row is due to a claim that reads the same millisecond it was queued in', async () => {
    // The worker's clock has milliseconds; now() has microseconds. A drain started in the millisecond a message was
    // queued left it for the next poll (seen on PostgreSQL: 'the next message still goes' found it pending).
    const row = await insert('mismo.milisegundo@claim.mx');
    const [stored] = await server.db
      .select({ micro: sql<string>`extract(microseconds from ${outbox_message.next_attempt_at})::text` })
      .from(outbox_message)
      .where(eq(outbox_message.outbox_message_id, row.outbox_message_id));
    const micro = Number(stored?.micro);
    expect(micro % 1000).toBe(0);
    const { rows } = await claimDue(server.db, ['email'], new Date(row.next_attempt_at.getTime()), 30_000, 1000);
    expect(rows.map((r) => r.outbox_message_id)).toContain(row.outbox_message_id);
  });

  it('claims only due, pending, unleased rows of the channels asked for, once', async () => {
    const now = new Date();
    const due = await insert('due@claim.mx');
    const later = await insert('later@claim.mx', { next_attempt_at: new Date(now.getTime() + 60_000) });
    const leased = await insert('leased@claim.mx', { claimed_until: new Date(now.getTime() + 60_000) });
    const lapsed = await insert('lapsed@claim.mx', { claimed_until: new Date(now.getTime() - 1_000), attempts: 1 });
    const sent = await insert('sent@claim.mx', { status: 'sent' });
    const whatsapp = await insert('5512345678', { channel: 'whatsapp' });
    const ids = [due, later, leased, lapsed, sent, whatsapp].map((r) => r.outbox_message_id);

    // A moment after the inserts (their next_attempt_at is the database's now()).
    const at = new Date(now.getTime() + 1_000);
    const first = await claimDue(server.db, ['email'], at, 30_000, 1000);
    const mine = first.rows.filter((r) => ids.includes(r.outbox_message_id)).map((r) => r.recipient);
    expect(mine.sort()).toEqual(['due@claim.mx', 'lapsed@claim.mx']);
    expect(first.rows.find((r) => r.recipient === 'lapsed@claim.mx')?.attempts).toBe(2);
    expect(first.rows.every((r) => r.claimed_until?.getTime() === at.getTime() + 30_000)).toBe(true);
    // A second sender at the same moment gets none of them.
    const second = await claimDue(server.db, ['email'], at, 30_000, 1000);
    expect(second.rows.filter((r) => ids.includes(r.outbox_message_id))).toEqual([]);
    // WhatsApp rows are not taken by a sender that has no WhatsApp.
    expect((await read(whatsapp.outbox_message_id)).claimed_until).toBeNull();
    await server.db.delete(outbox_message).where(inArray(outbox_message.outbox_message_id, ids));
  });

  it('a sender whose lease lapsed cannot overwrite the newer claim (fencing)', async () => {
    const row = await insert('fenced@claim.mx');
    const t0 = new Date();
    const slow = await claimDue(server.db, ['email'], t0, 1_000, 1000);
    const slowRow = slow.rows.find((r) => r.outbox_message_id === row.outbox_message_id)!;
    // The slow sender's lease lapses; another claims the row and sends it.
    const t1 = new Date(t0.getTime() + 2_000);
    const fast = await claimDue(server.db, ['email'], t1, 30_000, 1000);
    const fastRow = fast.rows.find((r) => r.outbox_message_id === row.outbox_message_id)!;
    expect(fastRow.attempts).toBe(2);
    // The slow one's failure arrives late: nothing is written.
    expect(await recordOutcome(server.db, slowRow, slow.lease, { sent: false, failure: new DeliveryFailure('tarde', { permanent: true }) })).toBe(false);
    expect(await recordOutcome(server.db, fastRow, fast.lease, { sent: true, providerMessageId: '<uno@prueba>' })).toBe(true);
    // Nor can it undo the sent row.
    expect(await recordOutcome(server.db, slowRow, slow.lease, { sent: true, providerMessageId: '<otro@prueba>' })).toBe(false);
    const final = await read(row.outbox_message_id);
    expect(final.status).toBe('sent');
    expect(final.provider_message_id).toBe('<uno@prueba>');
    expect(final.last_error).toBeNull();
  });

  it(`a temporary failure waits with backoff, and after ${maxAttempts} attempts the message fails with the reason`, async () => {
    const row = await insert('temporal@claim.mx', { attempts: maxAttempts - 2 });
    let now = new Date();
    for (const expected of ['pending', 'failed'] as const) {
      const { rows, lease } = await claimDue(server.db, ['email'], now, 30_000, 1000);
      const mine = rows.find((r) => r.outbox_message_id === row.outbox_message_id)!;
      expect(await recordOutcome(server.db, mine, lease, { sent: false, failure: new DeliveryFailure('No se pudo conectar.', { permanent: false }) }, now)).toBe(true);
      const after = await read(row.outbox_message_id);
      expect(after.status).toBe(expected);
      expect(after.claimed_until).toBeNull();
      if (expected === 'pending') {
        expect(after.last_error).toBe('No se pudo conectar.');
        expect(after.next_attempt_at.getTime() - now.getTime()).toBeGreaterThanOrEqual(backoffMs(maxAttempts - 1, () => 0));
        now = new Date(after.next_attempt_at.getTime() + 1);
      } else {
        expect(after.attempts).toBe(maxAttempts);
        expect(after.last_error).toBe(`No se pudo conectar. Se agotaron los ${maxAttempts} intentos.`);
      }
    }
  });

  it('rows of a channel that is not configured are not claimed; they wait at the desk', async () => {
    const smtp = await startLoopbackSmtp();
    const row = await insert('5511112222', { channel: 'whatsapp', whatsapp_template: { name: 'estudio_x', language: 'es_MX', parameters: [] } });
    const mail = await insert('configurado@claim.mx');
    await drainThenClose(server.db, workerConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) }), smtp);
    const waiting = await read(row.outbox_message_id);
    expect(waiting.status).toBe('pending');
    expect(waiting.attempts).toBe(0);
    expect(waiting.claimed_until).toBeNull();
    expect((await read(mail.outbox_message_id)).status).toBe('sent');
  });

  it('with nothing configured the worker sends nothing and touches nothing', async () => {
    const row = await insert('nadie@claim.mx');
    const worker = startDeliveryWorker({ db: server.db, config: workerConfig(), log: silentLog });
    try {
      expect(await worker.drain()).toBe(0);
    } finally {
      await worker.stop();
    }
    const still = await read(row.outbox_message_id);
    expect(still.status).toBe('pending');
    expect(still.attempts).toBe(0);
  });

  it('a failed message retried at the desk (POST /api/outbox/{id}/retry) is due at once and goes', async () => {
    const smtp = await startLoopbackSmtp();
    const row = await insert('reintento@claim.mx', { status: 'failed', attempts: 3, last_error: 'rechazado', next_attempt_at: new Date(Date.now() + 3_600_000) });
    const res = await call(server.app, 'POST', `/api/outbox/${row.outbox_message_id}/retry`, { token: admin });
    expect(res.status).toBe(200);
    await drainThenClose(server.db, workerConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port) }), smtp);
    const after = await read(row.outbox_message_id);
    expect(after.status).toBe('sent');
    expect(after.attempts).toBe(4);
    expect(smtp.received.map((m) => m.to)).toContain('reintento@claim.mx');
  });
});
