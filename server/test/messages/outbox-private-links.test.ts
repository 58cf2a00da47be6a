import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { outbox_message } from '@estudio/db/schema/outbox';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * Staff never read a link that signs in as the customer (both drivers): the
 * product's own rule for the previous panel's reset link (link: null) holds
 * for every message in the outbox. An admin asks for Mariana's password reset,
 * then reads the outbox: the message is there, for her, without its link;
 * the row the delivery worker sends still carries it whole.
 */
let server: TestServer;
let admin: string;
let staff: string;

demoStudio(['admin', 'recepcion'], (s) => ({ server, tokens: { admin, recepcion: staff } } = s));

describe('a password reset in the outbox', () => {
  it('is listed for staff without its link, and stored whole for the customer', async () => {
    const asked = await call(server.app, 'POST', '/api/customer/recover', { token: admin, body: { email: 'cliente@estudio.demo' } });
    expect(asked.status, asked.raw).toBe(200);
    const [stored] = await server.db.select().from(outbox_message).where(eq(outbox_message.kind, 'password-reset')).orderBy(desc(outbox_message.outbox_message_id)).limit(1);
    expect(stored?.body).toMatch(/\/recuperar\?token=[\w.-]+/);
    const token = /token=([^\s"'<>]+)/.exec(stored!.body)![1]!;
    const list = await call(server.app, 'GET', '/api/outbox', { token: admin });
    expect(list.status).toBe(200);
    expect(list.raw).not.toContain(token);
    const shown = (list.body.outbox_messages as { outbox_message_id: number; body: string }[]).find((m) => m.outbox_message_id === stored!.outbox_message_id);
    expect(shown?.body).toContain('[enlace privado: solo lo recibe el cliente]');
    expect((await call(server.app, 'GET', '/api/outbox', { token: staff })).status).toBe(403);
  });
});
