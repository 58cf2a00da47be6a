import { and, desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

let server: TestServer;
let admin: string;
let staff: string;
let cliente: string;
demoStudio(['admin', 'recepcion', 'cliente'], (s) => ({ server, tokens: { admin, recepcion: staff, cliente } } = s));

type Row = { outbox_message_id: number; status: string; channel: string; createdAt: string; attempts: number; last_error: string | null };

async function insertMessages() {
  // Newer than every message the seed wrote, whatever the clock reads.
  const base = Date.now() + 365 * 86_400_000;
  return server.db
    .insert(outbox_message)
    .values([
      { channel: 'email', recipient: 'a@buzon.demo', subject: 'Hola', body: 'Uno', status: 'sent', attempts: 1, createdAt: new Date(base), sentAt: new Date(base + 1000) },
      { channel: 'whatsapp', recipient: '5511111111', body: 'Dos', status: 'failed', attempts: 3, last_error: 'Número inválido', createdAt: new Date(base + 60_000) },
      { channel: 'email', recipient: 'b@buzon.demo', subject: 'Hola', body: 'Tres', status: 'failed', attempts: 5, last_error: 'SMTP 550', createdAt: new Date(base + 120_000) },
      { channel: 'whatsapp', recipient: '5522222222', body: 'Cuatro', status: 'pending', createdAt: new Date(base + 180_000) },
    ])
    .returning();
}

describe('GET /api/outbox', () => {
  it('lists by status and channel, newest first, with the totals of each filter', async () => {
    const [sent, failedWa, failedMail, pending] = await insertMessages();
    const all = await server.db.select().from(outbox_message);

    const everything = await call(server.app, 'GET', '/api/outbox', { token: admin });
    expect(everything.status).toBe(200);
    expect(everything.body.total).toBe(all.length);
    const listed = everything.body.outbox_messages as Row[];
    const times = listed.map((m) => Date.parse(m.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(listed[0]?.outbox_message_id).toBe(pending?.outbox_message_id);

    const failed = await call(server.app, 'GET', '/api/outbox?status=failed', { token: admin });
    expect(failed.body.total).toBe(all.filter((m) => m.status === 'failed').length);
    expect((failed.body.outbox_messages as Row[]).map((m) => m.outbox_message_id).slice(0, 2)).toEqual([failedMail?.outbox_message_id, failedWa?.outbox_message_id]);
    expect((failed.body.outbox_messages as Row[])[0]).toMatchObject({ channel: 'email', attempts: 5, last_error: 'SMTP 550', sentAt: null });

    const failedWhatsapp = await call(server.app, 'GET', '/api/outbox?status=failed&channel=whatsapp', { token: admin });
    expect((failedWhatsapp.body.outbox_messages as Row[]).every((m) => m.status === 'failed' && m.channel === 'whatsapp')).toBe(true);
    expect(failedWhatsapp.body.total).toBe(all.filter((m) => m.status === 'failed' && m.channel === 'whatsapp').length);
    const sentMail = await call(server.app, 'GET', '/api/outbox?status=sent&channel=email', { token: admin });
    expect((sentMail.body.outbox_messages as Row[]).some((m) => m.outbox_message_id === sent?.outbox_message_id)).toBe(true);

    expect((await call(server.app, 'GET', '/api/outbox?status=enviado', { token: admin })).status).toBe(400);
    expect((await call(server.app, 'GET', '/api/outbox?page=0', { token: admin })).status).toBe(400);
    expect((await call(server.app, 'GET', '/api/outbox', { token: staff })).status).toBe(403);
    expect((await call(server.app, 'GET', '/api/outbox', { token: cliente })).status).toBe(403);
    expect((await call(server.app, 'GET', '/api/outbox')).status).toBe(401);
  });

  it('says what each message is about, whom it is for by name, and when a waiting one is tried next', async () => {
    const [mariana] = await server.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
    if (!mariana) throw new Error('seed');
    const base = Date.now() + 1.5 * 365 * 86_400_000;
    const next = new Date(base + 600_000);
    const [reminder, reset, unknown, byAddress] = await server.db
      .insert(outbox_message)
      .values([
        { channel: 'whatsapp', recipient: '+525512345678', body: 'Tu clase es en 2 horas', kind: 'class-reminder', customer_id: mariana.customer_id, attempts: 2, last_error: 'Límite de envíos', next_attempt_at: next, createdAt: new Date(base) },
        { channel: 'email', recipient: 'otra@buzon.demo', subject: 'Restablece tu contraseña', body: 'Código', kind: 'password-reset', createdAt: new Date(base + 1000) },
        { channel: 'email', recipient: 'x@buzon.demo', body: 'Viejo', kind: 'algo-que-ya-no-existe', createdAt: new Date(base + 2000) },
        // Written without its customer (a password e-mail): the name is still known by the address.
        { channel: 'email', recipient: mariana.email, subject: 'Restablece tu contraseña', body: 'Código', kind: 'password-reset', createdAt: new Date(base + 3000) },
      ])
      .returning();
    const listed = await call(server.app, 'GET', '/api/outbox?page=1', { token: admin });
    expect(listed.status).toBe(200);
    const byId = new Map((listed.body.outbox_messages as (Row & Record<string, unknown>)[]).map((m) => [m.outbox_message_id, m]));
    expect(byId.get(reminder!.outbox_message_id)).toMatchObject({
      kind: 'class-reminder',
      kind_label: 'Recordatorio de clase',
      customer_id: mariana.customer_id,
      customer_name: `${mariana.name} ${mariana.last_name}`,
      status: 'pending',
      attempts: 2,
      next_attempt_at: next.toISOString(),
    });
    expect(byId.get(reset!.outbox_message_id)).toMatchObject({ kind: 'password-reset', kind_label: 'Restablecer contraseña', customer_id: null, customer_name: null });
    // A kind no longer in the catalogue still reads as a message, never as its key.
    expect(byId.get(unknown!.outbox_message_id)).toMatchObject({ kind_label: 'Mensaje', customer_name: null });
    expect(byId.get(byAddress!.outbox_message_id)).toMatchObject({ customer_id: null, customer_name: `${mariana.name} ${mariana.last_name}` });
  });

  it('pages 50 at a time', async () => {
    // Newer than the messages above.
    const base = Date.now() + 2 * 365 * 86_400_000;
    await server.db
      .insert(outbox_message)
      .values(Array.from({ length: 60 }, (_, i) => ({ channel: 'email' as const, recipient: `p${i}@buzon.demo`, body: `Página ${i}`, createdAt: new Date(base + i * 1000) })));
    const total = (await server.db.select().from(outbox_message)).length;
    const first = await call(server.app, 'GET', '/api/outbox?page=1', { token: admin });
    const second = await call(server.app, 'GET', '/api/outbox?page=2', { token: admin });
    expect(first.body.outbox_messages).toHaveLength(50);
    expect(second.body.outbox_messages).toHaveLength(Math.min(50, total - 50));
    expect((first.body.outbox_messages as Row[])[0]?.createdAt).toBe(new Date(base + 59_000).toISOString());
    const ids = new Set([...(first.body.outbox_messages as Row[]), ...(second.body.outbox_messages as Row[])].map((m) => m.outbox_message_id));
    expect(ids.size).toBe(Math.min(100, total));
  });
});

describe('POST /api/outbox/{id}/retry', () => {
  it('puts a failed message back in the queue keeping its attempts, audited; a sent one is 409 in Spanish', async () => {
    const [sent, failed, , pending] = await insertMessages();
    if (!sent || !failed || !pending) throw new Error('messages');

    const retried = await call(server.app, 'POST', `/api/outbox/${failed.outbox_message_id}/retry`, { token: admin });
    expect(retried.status).toBe(200);
    expect(retried.body.outbox_message).toMatchObject({ outbox_message_id: failed.outbox_message_id, status: 'pending', attempts: 3, last_error: 'Número inválido' });
    const [row] = await server.db.select().from(outbox_message).where(eq(outbox_message.outbox_message_id, failed.outbox_message_id));
    expect(row).toMatchObject({ status: 'pending', attempts: 3 });
    const [audit] = await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.entity, 'outbox_message'), eq(audit_log.entity_id, String(failed.outbox_message_id))))
      .orderBy(desc(audit_log.audit_log_id));
    expect(audit).toMatchObject({ action: 'retry' });

    const again = await call(server.app, 'POST', `/api/outbox/${failed.outbox_message_id}/retry`, { token: admin });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('outbox/not-failed');

    const sentRetry = await call(server.app, 'POST', `/api/outbox/${sent.outbox_message_id}/retry`, { token: admin });
    expect(sentRetry.status).toBe(409);
    expect(sentRetry.body).toMatchObject({ code: 'outbox/already-sent', message: 'Este mensaje ya fue enviado; no se puede reintentar.' });
    const [stillSent] = await server.db.select().from(outbox_message).where(eq(outbox_message.outbox_message_id, sent.outbox_message_id));
    expect(stillSent?.status).toBe('sent');

    expect((await call(server.app, 'POST', '/api/outbox/999999/retry', { token: admin })).status).toBe(404);
    const denied = await call(server.app, 'POST', `/api/outbox/${failed.outbox_message_id}/retry`, { token: cliente });
    expect(denied.status).toBe(403);
  });
});
