import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { isOptionalMessage, localDate, privacyRequestDueDay, studioTimeZone } from '@estudio/core';
import { audit_log } from '@estudio/db/schema/audit';
import { customer, customer_note } from '@estudio/db/schema/customer';
import { auth_user } from '@estudio/db/schema/identity';
import { message_preference, outbox_message } from '@estudio/db/schema/outbox';
import { class_package } from '@estudio/db/schema/packages';
import { privacy_request } from '@estudio/db/schema/privacy';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { recordOutcome } from '../../src/services/messages/delivery-worker.ts';
import { loadStudioSettings } from '../../src/services/schedule/studio-settings.ts';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { newClass } from '../support/reservations-fixtures.ts';

/**
 * Mexico's ARCO rights (decision 124): a customer asks from Mi Información; the owner sees each request with the
 * law's deadline and answers it; a cancellation done anonymises her and keeps the accounting records.
 */
let server: TestServer;
let admin: string;
let recepcion: string;
let cliente: string;
demoStudio(['admin', 'recepcion', 'cliente'], (s) => ({ server, tokens: { admin, recepcion, cliente } } = s));

/** A customer of her own for a test, signed up through the API as the portal does, with a phone. */
async function newSignUp(tag: string): Promise<{ token: string; id: number; email: string }> {
  const email = `arco.${tag}.${Date.now()}@correo.mx`;
  const identity = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password: 'Arco-2026!' } });
  expect(identity.status, identity.raw).toBe(200);
  const required = ((await call(server.app, 'GET', '/api/pages')).body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
  const phone = `55${String(Date.now()).slice(-8)}`;
  const made = await call(server.app, 'POST', '/api/customer/signup', {
    token: identity.body.idToken,
    body: { name: 'Renata', last_name: 'Olvido', email, phone, accepted_page_ids: required, optional_messages: true },
  });
  expect(made.status, made.raw).toBe(200);
  return { token: identity.body.idToken as string, id: made.body.customer.customer_id as number, email };
}

const ask = (token: string, body: Record<string, unknown>) => call(server.app, 'POST', '/api/customer/privacy_requests', { token, body });
const answer = (body: Record<string, unknown>, token = admin) => call(server.app, 'PUT', '/api/privacy_requests', { token, body });

let today: string;
beforeAll(async () => {
  today = localDate(new Date(), studioTimeZone(await loadStudioSettings(server.db)));
});

describe('a customer asks', () => {
  it('records the request with the day the law’s 20 business days run out, and lists it as hers', async () => {
    const asked = await ask(cliente, { kind: 'rectification', details: 'Mi fecha de nacimiento está mal: es 12 de mayo de 1994.' });
    expect(asked.status, asked.raw).toBe(200);
    expect(asked.body.privacy_request).toMatchObject({ kind: 'rectification', status: 'pending', due_on: privacyRequestDueDay(today), answer: null });
    const mine = await call(server.app, 'GET', '/api/customer/privacy_requests', { token: cliente });
    expect(mine.body.privacy_requests.map((r: { privacy_request_id: number }) => r.privacy_request_id)).toContain(asked.body.privacy_request.privacy_request_id);
  });

  it('refuses in Spanish what is not a request, naming the field, and saves nothing', async () => {
    const before = await server.db.select().from(privacy_request);
    const noKind = await ask(cliente, { kind: 'olvido', details: 'Bórrenme' });
    expect(noKind.status).toBe(400);
    expect(noKind.body.field).toBe('kind');
    expect(noKind.body.message).toContain('Elige qué derecho quieres ejercer.');
    const empty = await ask(cliente, { kind: 'access', details: '   ' });
    expect(empty.body.field).toBe('details');
    expect(empty.body.message).toContain('Escribe tu solicitud.');
    const unknown = await ask(cliente, { kind: 'access', details: 'Quiero mis datos', status: 'done' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.field).toBe('status');
    expect(await server.db.select().from(privacy_request)).toHaveLength(before.length);
  });

  it('holds at 5 unanswered requests, however many are sent at once', async () => {
    const she = await newSignUp('limite');
    const sent = await Promise.all(Array.from({ length: 9 }, (_, i) => ask(she.token, { kind: 'opposition', details: `No quiero promociones (${i}).` })));
    expect(sent.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = sent.filter((r) => r.status !== 200);
    expect(refused.every((r) => r.status === 409 && r.body.code === 'privacy-request/too-many')).toBe(true);
    expect(await server.db.select().from(privacy_request).where(eq(privacy_request.customer_id, she.id))).toHaveLength(5);
  });
});

describe('the owner answers', () => {
  it('sees the pending first with the business days left; reception and customers do not see the list', async () => {
    const list = await call(server.app, 'GET', '/api/privacy_requests', { token: admin });
    expect(list.status, list.raw).toBe(200);
    const first = list.body.privacy_requests[0];
    expect(first).toMatchObject({ status: 'pending', customer_name: expect.any(String), customer_email: expect.any(String) });
    expect(first.business_days_left).toBeGreaterThan(15);
    expect((await call(server.app, 'GET', '/api/privacy_requests', { token: recepcion })).status).toBe(403);
    expect((await call(server.app, 'GET', '/api/privacy_requests', { token: cliente })).status).toBe(403);
    expect((await answer({ privacy_request_id: first.privacy_request_id, status: 'done', answer: 'Listo.' }, recepcion)).status).toBe(403);
  });

  it('answers once, with what she reads and a line in the activity log', async () => {
    const asked = await ask(cliente, { kind: 'access', details: '¿Qué datos tienen de mí?' });
    const id = asked.body.privacy_request.privacy_request_id as number;
    const done = await answer({ privacy_request_id: id, status: 'done', answer: 'Puedes descargar todos tus datos en Mi Información › Tus datos.' });
    expect(done.status, done.raw).toBe(200);
    expect(done.body.privacy_request).toMatchObject({ status: 'done', answer: 'Puedes descargar todos tus datos en Mi Información › Tus datos.' });
    // She is told by e-mail, queued with the answer; with no channel the console hears that it waits, not that it went.
    expect(done.body.message).toEqual({ queued: true, email_configured: false });
    const told = await server.db.select().from(outbox_message).where(eq(outbox_message.dedupe_key, `privacy-answer:${id}:email`));
    expect(told).toHaveLength(1);
    expect(told[0]).toMatchObject({ channel: 'email', recipient: 'cliente@estudio.demo', kind: 'privacy-request-answered', status: 'pending', subject: 'Estudio Demo respondió tu solicitud sobre tus datos personales' });
    expect(told[0]!.body).toContain('Atendimos tu solicitud de acceso a tus datos personales, que recibimos el');
    expect(told[0]!.body).toContain('Puedes descargar todos tus datos en Mi Información › Tus datos.');
    expect(told[0]!.body).toContain('Resultado: Atendida');
    expect(told[0]!.body).toContain('Ver mis solicitudes: http://estudio.test/mystudio/informacion');
    const again = await answer({ privacy_request_id: id, status: 'refused', answer: 'No.' });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: 'privacy-request/answered', message: 'Esta solicitud ya se respondió.' });
    const logged = await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'privacy_request'), eq(audit_log.entity_id, String(id))));
    expect(logged).toHaveLength(1);
    expect(logged[0]?.changes).toMatchObject({ kind: 'access', status: 'done', anonymised: false });
    const mine = await call(server.app, 'GET', '/api/customer/privacy_requests', { token: cliente });
    expect(mine.body.privacy_requests.find((r: { privacy_request_id: number }) => r.privacy_request_id === id)).toMatchObject({ status: 'done', answeredAt: expect.any(String) });
    expect((await answer({ privacy_request_id: 2_000_000, status: 'done', answer: 'Listo.' })).status).toBe(404);
  });

  it('a cancellation done anonymises her: she cannot sign in, her name, contact, notes and answers go; her purchases and classes stay', async () => {
    const she = await newSignUp('cancelar');
    const [pkg] = await server.db.select().from(class_package).limit(1);
    const [bought] = await server.db
      .insert(purchase)
      .values({ customer_id: she.id, class_package_id: pkg!.class_package_id, title: pkg!.title, amount: '640', total_payment: '640', class_amount: 5, status: 'completed', provider: 'cash', paidAt: new Date() })
      .returning();
    await server.db.insert(available_classes).values({ customer_id: she.id, purchase_id: bought!.purchase_id, available_classes: 5 });
    const classId = await newClass(server.db, { minutesAhead: 3 * 24 * 60, capacity: 10 });
    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: she.token, body: { single_class_id: classId } });
    expect(booked.status, booked.raw).toBe(200);
    const note = await call(server.app, 'POST', '/api/customer/notes', { token: recepcion, body: { customer_id: she.id, kind: 'alert', body: 'Prefiere la bici 4.' } });
    expect(note.status, note.raw).toBe(200);
    const edited = await call(server.app, 'PUT', '/api/customer', { token: admin, body: { customer_id: she.id, instagram: 'renata.olvido' } });
    expect(edited.status, edited.raw).toBe(200);

    const asked = await ask(she.token, { kind: 'cancellation', details: 'Me cambio de ciudad: borren mis datos.' });
    const id = asked.body.privacy_request.privacy_request_id as number;
    // A class ahead holds a credit and a place: the studio cancels it first, by its rules.
    const early = await answer({ privacy_request_id: id, status: 'done', answer: 'Eliminamos tus datos.' });
    expect(early.status).toBe(409);
    expect(early.body.code).toBe('privacy-request/future-bookings');
    const [still] = await server.db.select().from(customer).where(eq(customer.customer_id, she.id));
    expect(still?.name).toBe('Renata');
    const cancelled = await call(server.app, 'DELETE', `/api/class_reservations/${booked.body.class_reservation.class_reservation_id}`, { token: admin });
    expect(cancelled.status, cancelled.raw).toBe(200);

    const done = await answer({ privacy_request_id: id, status: 'done', answer: 'Eliminamos tus datos.' });
    expect(done.status, done.raw).toBe(200);
    // With no e-mail channel, no message would leave: none is kept with her address, and the console says she is not told.
    expect(done.body.message).toEqual({ queued: false, email_configured: false });
    expect(await server.db.select().from(outbox_message).where(eq(outbox_message.recipient, she.email))).toEqual([]);
    const [row] = await server.db.select().from(customer).where(eq(customer.customer_id, she.id));
    expect(row).toMatchObject({ name: 'Cliente', last_name: 'anonimizado', email: `anonimizado-${she.id}@anonimizado.invalid`, phone: null, instagram: null, uid: null, birthdate: null });
    expect(row?.deletedAt).toBeInstanceOf(Date);
    expect(await server.db.select().from(auth_user).where(eq(auth_user.email, she.email))).toEqual([]);
    expect((await call(server.app, 'POST', '/api/auth/login', { body: { email: she.email, password: 'Arco-2026!' } })).status).not.toBe(200);
    expect(await server.db.select().from(customer_note).where(eq(customer_note.customer_id, she.id))).toEqual([]);
    expect(await server.db.select().from(message_preference).where(eq(message_preference.customer_id, she.id))).toEqual([]);
    for (const message of await server.db.select().from(outbox_message).where(eq(outbox_message.customer_id, she.id))) {
      expect(message).toMatchObject({ recipient: 'anonimizado', body: '' });
    }
    // The accounting records stay, now of an anonymous customer; the log keeps the change, not her Instagram.
    expect(await server.db.select().from(purchase).where(eq(purchase.customer_id, she.id))).toHaveLength(1);
    const changes = await server.db.select().from(audit_log).where(and(eq(audit_log.entity, 'customer'), eq(audit_log.entity_id, String(she.id))));
    expect(changes.length).toBeGreaterThan(0);
    expect(JSON.stringify(changes.map((c) => c.changes))).not.toContain('renata.olvido');
    // The request stays as the record that the studio answered.
    const [request] = await server.db.select().from(privacy_request).where(eq(privacy_request.privacy_request_id, id));
    expect(request).toMatchObject({ status: 'done', kind: 'cancellation' });
    const list = await call(server.app, 'GET', '/api/privacy_requests?status=done', { token: admin });
    expect(list.body.privacy_requests.find((r: { privacy_request_id: number }) => r.privacy_request_id === id)).toMatchObject({ customer_name: 'Cliente anonimizado' });
  });

  it('a refusal is told to her as a necessary message, even with her optional messages off', async () => {
    const she = await newSignUp('rechazo');
    await server.db.update(message_preference).set({ email_enabled: false, whatsapp_enabled: false }).where(eq(message_preference.customer_id, she.id));
    const asked = await ask(she.token, { kind: 'opposition', details: 'No usen mis fotos en redes.' });
    const id = asked.body.privacy_request.privacy_request_id as number;
    const refused = await answer({ privacy_request_id: id, status: 'refused', answer: 'No publicamos fotos de clientes; no hay nada que detener.' });
    expect(refused.status, refused.raw).toBe(200);
    expect(refused.body.message).toEqual({ queued: true, email_configured: false });
    const [told] = await server.db.select().from(outbox_message).where(eq(outbox_message.dedupe_key, `privacy-answer:${id}:email`));
    expect(told).toMatchObject({ recipient: she.email, kind: 'privacy-request-answered', channel: 'email' });
    expect(told!.body).toContain('Revisamos tu solicitud de oposición al uso de tus datos personales');
    expect(told!.body).toContain('no podemos atenderla');
    expect(told!.body).toContain('No publicamos fotos de clientes; no hay nada que detener.');
    expect(told!.body).toContain('Resultado: Rechazada');
    expect(told!.body).not.toContain('No quiero recibir');
  });

  it('with e-mail set up, a cancellation done is told to the address she had, and the sent row then forgets it', async () => {
    const mailing = await server.withConfig({ SMTP_HOST: 'smtp.estudio.test' });
    const owner = (await login(mailing, 'admin@estudio.demo')).idToken;
    const she = await newSignUp('ultimo');
    const asked = await ask(she.token, { kind: 'cancellation', details: 'Ya no vivo en la ciudad.' });
    const id = asked.body.privacy_request.privacy_request_id as number;
    const done = await call(mailing, 'PUT', '/api/privacy_requests', { token: owner, body: { privacy_request_id: id, status: 'done', answer: 'Borramos tus datos, como pediste.' } });
    expect(done.status, done.raw).toBe(200);
    expect(done.body.message).toEqual({ queued: true, email_configured: true });
    const [anonymised] = await server.db.select().from(customer).where(eq(customer.customer_id, she.id));
    expect(anonymised?.email).toBe(`anonimizado-${she.id}@anonimizado.invalid`);
    const [told] = await server.db.select().from(outbox_message).where(eq(outbox_message.dedupe_key, `privacy-answer:${id}:email`));
    expect(told).toMatchObject({ recipient: she.email, customer_id: she.id, kind: 'privacy-request-answered', status: 'pending' });
    expect(isOptionalMessage(told!.kind)).toBe(false);
    expect(told!.body).toContain('Atendimos tu solicitud de cancelación de tus datos personales');
    expect(told!.body).toContain('Borramos tus datos, como pediste.');
    expect(told!.body).toContain('cerramos tu cuenta: ya no puedes iniciar sesión');
    expect(told!.body).not.toContain('Ver mis solicitudes');
    // Every other message to her was stopped by the anonymisation; this one, queued after it, waits to leave.
    const others = await server.db.select().from(outbox_message).where(and(eq(outbox_message.customer_id, she.id), eq(outbox_message.status, 'pending')));
    expect(others.map((m) => m.kind)).toEqual(['privacy-request-answered']);

    // The delivery worker sends it: the row keeps the fact, not her address or the text.
    const lease = new Date(Date.now() + 60_000);
    await server.db.update(outbox_message).set({ claimed_until: lease, attempts: 1 }).where(eq(outbox_message.outbox_message_id, told!.outbox_message_id));
    expect(await recordOutcome(server.db, { ...told!, claimed_until: lease, attempts: 1 }, lease, { sent: true, providerMessageId: '<prueba@estudio.test>' })).toBe(true);
    const [sent] = await server.db.select().from(outbox_message).where(eq(outbox_message.outbox_message_id, told!.outbox_message_id));
    expect(sent).toMatchObject({ status: 'sent', recipient: 'anonimizado', body: '', subject: null, html: null, kind: 'privacy-request-answered' });
  });
});
