import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { message_preference, outbox_message } from '@estudio/db/schema/outbox';
import { waitlist } from '@estudio/db/schema/reservations';
import { preferencesOf } from '../../src/services/messages/queue-message.ts';
import { createBookers, newClass } from '../support/reservations-fixtures.ts';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/*
 * A class cancelled by the studio: everyone booked and everyone
 * waiting is told, through the message templates, in the cancel's transaction.
 */

let server: TestServer;
let admin: string;

demoStudio(['admin'], (s) => ({ server, tokens: { admin } } = s));

const rowsOf = (ids: number[]) =>
  server.db.select().from(outbox_message).where(and(inArray(outbox_message.customer_id, ids), eq(outbox_message.kind, 'class-cancelled'))).orderBy(outbox_message.outbox_message_id);

describe('class cancelled by the studio', () => {
  it('tells the booked (credit back) and the waiting (no longer waiting), even with optional messages off, by their channels with the WhatsApp template', async () => {
    const classId = await newClass(server.db, { minutesAhead: 26 * 60, capacity: 1, classType: 'Yoga' });
    const [booked, waiting, gone] = await createBookers(server.db, server.config.AUTH_SECRET, 3, { prefix: `clase-cancelada-${Date.now()}`, credits: 2 });
    if (!booked || !waiting || !gone) throw new Error('fixtures');
    const phone = `56${String(Date.now()).slice(-8)}`;
    await server.db.update(customer).set({ phone }).where(eq(customer.customer_id, waiting.customer_id));
    // Transactional: turning optional messages off does not silence it.
    await preferencesOf(server.db, waiting.customer_id);
    await server.db.update(message_preference).set({ email_enabled: false, whatsapp_enabled: false }).where(eq(message_preference.customer_id, waiting.customer_id));
    expect((await call(server.app, 'POST', '/api/class_reservations', { token: booked.token, body: { single_class_id: classId } })).status).toBe(200);
    await server.db.insert(waitlist).values([
      { single_class_id: classId, customer_id: waiting.customer_id },
      { single_class_id: classId, customer_id: gone.customer_id },
    ]);
    // A customer deleted since joining is not written to.
    await server.db.update(customer).set({ deletedAt: new Date() }).where(eq(customer.customer_id, gone.customer_id));

    const res = await call(server.app, 'POST', `/api/single_class/${classId}/cancel`, { token: admin });
    expect(res.status, res.raw).toBe(200);
    expect(res.body).toMatchObject({ reservations_cancelled: 1, credits_returned: 1, messages_queued: 3, waitlist_removed: 2 });

    const rows = await rowsOf([booked.customer_id, waiting.customer_id, gone.customer_id]);
    expect(rows.map((m) => [m.customer_id, m.channel])).toEqual([
      [booked.customer_id, 'email'],
      [waiting.customer_id, 'email'],
      [waiting.customer_id, 'whatsapp'],
    ]);
    const [toBooked, toWaiting, byWhatsapp] = rows;
    expect(toBooked?.subject).toBe('Clase cancelada: Yoga');
    expect(toBooked?.body).toContain('Lamentamos avisarte que la clase de Yoga');
    expect(toBooked?.body).toContain('Te devolvimos el crédito que usaste para reservarla.');
    expect(toBooked?.html).toContain('http://estudio.test/calendario');
    expect(toBooked?.body).not.toContain('/mensajes/baja');
    expect(toWaiting?.body).toContain('Estabas en su lista de espera; ya no esperas lugar en ella.');
    expect(byWhatsapp?.recipient).toBe(phone);
    expect(byWhatsapp?.whatsapp_template).toMatchObject({ name: 'estudio_clase_cancelada' });
    expect(byWhatsapp?.whatsapp_template?.parameters).toEqual(['Cliente', 'Yoga', expect.stringMatching(/\d{2} \S+ \d{4} \d{2}:\d{2}/), 'Estabas en su lista de espera; ya no esperas lugar en ella.']);

    // A second cancel is refused and tells nobody again.
    expect((await call(server.app, 'POST', `/api/single_class/${classId}/cancel`, { token: admin })).status).toBe(409);
    expect(await rowsOf([booked.customer_id, waiting.customer_id])).toHaveLength(3);
  });

  it("shows, before the click, the message each group will read with the studio's note; the cancel sends that note by e-mail and WhatsApp and logs it", async () => {
    const classId = await newClass(server.db, { minutesAhead: 30 * 60, capacity: 1, classType: 'Yoga' });
    const [booked, waiting] = await createBookers(server.db, server.config.AUTH_SECRET, 2, { prefix: `nota-cancelada-${Date.now()}`, credits: 2 });
    if (!booked || !waiting) throw new Error('fixtures');
    const phone = `57${String(Date.now()).slice(-8)}`;
    await server.db.update(customer).set({ phone }).where(eq(customer.customer_id, waiting.customer_id));
    expect((await call(server.app, 'POST', '/api/class_reservations', { token: booked.token, body: { single_class_id: classId } })).status).toBe(200);
    await server.db.insert(waitlist).values({ single_class_id: classId, customer_id: waiting.customer_id });
    const note = 'La coach se enfermó.\n  Nos vemos el jueves.';
    const oneLine = 'La coach se enfermó. Nos vemos el jueves.';

    const preview = await call(server.app, 'GET', `/api/single_class/${classId}/cancel_preview?note=${encodeURIComponent(note)}`, { token: admin });
    expect(preview.status, preview.raw).toBe(200);
    expect(preview.body).toMatchObject({ reservations: 1, credits_returned: 1, waitlisted: 1 });
    expect(preview.body.messages).toEqual([
      { was: 'credit', customers: 1, subject: 'Clase cancelada: Yoga', paragraphs: [expect.stringContaining('Lamentamos avisarte'), `Nota del estudio: ${oneLine}`, 'Te devolvimos el crédito que usaste para reservarla.'] },
      { was: 'waitlist', customers: 1, subject: 'Clase cancelada: Yoga', paragraphs: [expect.stringContaining('Lamentamos avisarte'), `Nota del estudio: ${oneLine}`, 'Estabas en su lista de espera; ya no esperas lugar en ella.'] },
    ]);
    // Without a note the messages are the same, without its line.
    const plain = await call(server.app, 'GET', `/api/single_class/${classId}/cancel_preview`, { token: admin });
    expect(plain.body.messages[0].paragraphs).toHaveLength(2);

    // A note too long, or a field the route does not take, is a Spanish 400 that cancels nothing.
    const long = await call(server.app, 'POST', `/api/single_class/${classId}/cancel`, { token: admin, body: { note: 'x'.repeat(301) } });
    expect(long.status).toBe(400);
    expect(long.body.message).toContain('La nota puede tener hasta 300 caracteres.');
    expect((await call(server.app, 'POST', `/api/single_class/${classId}/cancel`, { token: admin, body: { nota: 'x' } })).status).toBe(400);
    expect(await rowsOf([booked.customer_id, waiting.customer_id])).toHaveLength(0);

    const res = await call(server.app, 'POST', `/api/single_class/${classId}/cancel`, { token: admin, body: { note } });
    expect(res.status, res.raw).toBe(200);
    const rows = await rowsOf([booked.customer_id, waiting.customer_id]);
    expect(rows.filter((m) => m.channel === 'email').every((m) => m.body.includes(`Nota del estudio: ${oneLine}`))).toBe(true);
    expect(rows.find((m) => m.channel === 'whatsapp')?.whatsapp_template?.parameters?.[3]).toBe(`Estabas en su lista de espera; ya no esperas lugar en ella. Nota del estudio: ${oneLine}`);
    const [audit] = await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'single_class'), eq(audit_log.entity_id, String(classId))));
    expect(audit?.changes).toMatchObject({ note: oneLine });
  });

  it('a class with nobody booked nor waiting queues nothing', async () => {
    const classId = await newClass(server.db, { minutesAhead: 50 * 60, capacity: 5 });
    const before = await server.db.select({ id: outbox_message.outbox_message_id }).from(outbox_message);
    const res = await call(server.app, 'POST', `/api/single_class/${classId}/cancel`, { token: admin });
    expect(res.body).toMatchObject({ reservations_cancelled: 0, credits_returned: 0, messages_queued: 0, waitlist_removed: 0 });
    expect(await server.db.select({ id: outbox_message.outbox_message_id }).from(outbox_message)).toHaveLength(before.length);
  });
});
