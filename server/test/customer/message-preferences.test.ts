import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import type { MessageKind, MessageParts } from '@estudio/core';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { message_preference, outbox_message } from '@estudio/db/schema/outbox';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { messagePreferences, oneClickStopUrlOf } from '../../src/services/messages/preferences.ts';
import { preferencesOf, queueCustomerMessage } from '../../src/services/messages/queue-message.ts';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

let server: TestServer;
let token: string;
let recepcion: string;
let clienteId: number;
demoStudio(['cliente', 'recepcion'], (s) => ({ server, tokens: { cliente: token, recepcion } } = s));
beforeAll(async () => {
  clienteId = await customerId(server.db, 'cliente@estudio.demo');
}, 60_000);

const stopTokenOf = async (id: number) => (await preferencesOf(server.db, id)).stop_token;
const reset = (id: number) => server.db.update(message_preference).set({ email_enabled: true, whatsapp_enabled: true }).where(eq(message_preference.customer_id, id));

describe('Mi Información: the customer chooses their channels', () => {
  it('answers the switches (on by default), where each channel goes and the private calendar feed', async () => {
    const res = await call(server.app, 'GET', '/api/customer/messages', { token });
    expect(res.status).toBe(200);
    const [person] = await server.db.select().from(customer).where(eq(customer.customer_id, clienteId));
    const prefs = await preferencesOf(server.db, clienteId);
    expect(res.body).toEqual({
      email_enabled: true,
      whatsapp_enabled: true,
      email: person?.email,
      phone: person?.phone,
      phone_hint: null,
      calendar_url: `http://estudio.test/api/calendar/${prefs.calendar_token}.ics`,
      stop_url: `http://estudio.test/mensajes/baja?token=${encodeURIComponent(prefs.stop_token)}`,
    });
  });

  it('needs a signed-in customer', async () => {
    const res = await call(server.app, 'GET', '/api/customer/messages');
    expect(res.status).toBe(401);
  });

  it('turns WhatsApp off and answers the record as stored; it stays off', async () => {
    const res = await call(server.app, 'PUT', '/api/customer/messages', { token, body: { whatsapp_enabled: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ email_enabled: true, whatsapp_enabled: false });
    const [row] = await server.db.select().from(message_preference).where(eq(message_preference.customer_id, clienteId));
    expect(row).toMatchObject({ email_enabled: true, whatsapp_enabled: false });
    expect((await call(server.app, 'GET', '/api/customer/messages', { token })).body).toMatchObject({ whatsapp_enabled: false });
    // Over tRPC too.
    const trpc = await server.app.inject({
      method: 'POST',
      url: '/trpc/messages.updatePreferences',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: { whatsapp_enabled: true },
    });
    expect(trpc.statusCode).toBe(200);
    expect(JSON.parse(trpc.body).result.data).toMatchObject({ email_enabled: true, whatsapp_enabled: true });
  });

  it('refuses an unknown field naming it, and a switch that is not true or false, changing nothing', async () => {
    const unknown = await call(server.app, 'PUT', '/api/customer/messages', { token, body: { whatsapp_enabled: false, sms_enabled: true } });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ code: 'validation/unknown-field', field: 'sms_enabled' });
    expect(unknown.body.message).toContain('sms_enabled');
    const wrong = await call(server.app, 'PUT', '/api/customer/messages', { token, body: { email_enabled: 'no' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ code: 'validation', field: 'email_enabled' });
    expect((await call(server.app, 'GET', '/api/customer/messages', { token })).body).toMatchObject({ email_enabled: true, whatsapp_enabled: true });
  });

  it('without a phone, WhatsApp has nowhere to go and the answer says how to add one, in Spanish', async () => {
    const [made] = await server.db
      .insert(customer)
      .values({ uid: null, email: 'sin.telefono@correo.mx', name: 'Ana', last_name: 'Ruiz', phone: '' })
      .returning({ id: customer.customer_id });
    const view = await messagePreferences(server.db, messageContextOf(server.config), made?.id as number);
    expect(view.phone).toBeNull();
    expect(view.phone_hint).toBe('Agrega tu teléfono en Datos personales para recibir mensajes por WhatsApp.');
  });
});

describe('the stop link of optional messages', () => {
  it('a GET only shows what it would stop, masked; nothing changes', async () => {
    const stop = await stopTokenOf(clienteId);
    const res = await call(server.app, 'GET', `/api/messages/stop?token=${encodeURIComponent(stop)}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ studio_name: 'Estudio Demo', email_enabled: true, whatsapp_enabled: true });
    expect(res.body.email).toMatch(/^cl•••@estudio\.demo$/);
    expect(res.body.phone).toMatch(/^•••• \d{4}$/);
    const [row] = await server.db.select().from(message_preference).where(eq(message_preference.customer_id, clienteId));
    expect(row).toMatchObject({ email_enabled: true, whatsapp_enabled: true });
  });

  it('stops one channel, then both, without a session', async () => {
    const stop = await stopTokenOf(clienteId);
    const email = await call(server.app, 'POST', '/api/messages/stop', { body: { token: stop, channel: 'email' } });
    expect(email.status).toBe(200);
    expect(email.body).toMatchObject({ email_enabled: false, whatsapp_enabled: true });
    const both = await call(server.app, 'POST', '/api/messages/stop', { body: { token: stop } });
    expect(both.status).toBe(200);
    expect(both.body).toMatchObject({ email_enabled: false, whatsapp_enabled: false });
    const [row] = await server.db.select().from(message_preference).where(eq(message_preference.customer_id, clienteId));
    expect(row).toMatchObject({ email_enabled: false, whatsapp_enabled: false });
    // Mi Información turns them back on.
    const on = await call(server.app, 'PUT', '/api/customer/messages', { token, body: { email_enabled: true, whatsapp_enabled: true } });
    expect(on.body).toMatchObject({ email_enabled: true, whatsapp_enabled: true });
  });

  it('a made-up or old token is a Spanish 404; a bad channel or an unknown field a 400 naming it', async () => {
    const preview = await call(server.app, 'GET', '/api/messages/stop?token=no-es-un-codigo');
    expect(preview.status).toBe(404);
    expect(preview.body).toEqual({
      code: 'messages/stop-link-invalid',
      message: 'Este enlace para dejar de recibir mensajes no es válido o ya cambió. Puedes elegir tus mensajes en Mi Información.',
    });
    expect((await call(server.app, 'POST', '/api/messages/stop', { body: { token: 'no-es-un-codigo' } })).status).toBe(404);
    const stop = await stopTokenOf(clienteId);
    const channel = await call(server.app, 'POST', '/api/messages/stop', { body: { token: stop, channel: 'sms' } });
    expect(channel.status).toBe(400);
    expect(channel.body.field).toBe('channel');
    const extra = await call(server.app, 'POST', '/api/messages/stop', { body: { token: stop, motivo: 'x' } });
    expect(extra.status).toBe(400);
    expect(extra.body.field).toBe('motivo');
    const [row] = await server.db.select().from(message_preference).where(eq(message_preference.customer_id, clienteId));
    expect(row).toMatchObject({ email_enabled: true, whatsapp_enabled: true });
  });

  it('RFC 8058 one-click: a form POST of List-Unsubscribe=One-Click stops both channels; a GET only leads to the portal page', async () => {
    const stop = await stopTokenOf(clienteId);
    const url = new URL(oneClickStopUrlOf(messageContextOf(server.config), stop));
    expect(url.origin).toBe('http://estudio.test');
    const path = `${url.pathname}${url.search}`;

    const get = await server.app.inject({ method: 'GET', url: path });
    expect(get.statusCode).toBe(303);
    expect(get.headers.location).toBe(`http://estudio.test/mensajes/baja?token=${encodeURIComponent(stop)}`);
    const noClick = await server.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'otra=cosa' });
    expect(noClick.statusCode).toBe(400);
    let [row] = await server.db.select().from(message_preference).where(eq(message_preference.customer_id, clienteId));
    expect(row).toMatchObject({ email_enabled: true, whatsapp_enabled: true });

    const click = await server.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(click.statusCode).toBe(200);
    expect(JSON.parse(click.body)).toMatchObject({ email_enabled: false, whatsapp_enabled: false });
    [row] = await server.db.select().from(message_preference).where(eq(message_preference.customer_id, clienteId));
    expect(row).toMatchObject({ email_enabled: false, whatsapp_enabled: false });
    await reset(clienteId);

    // The multipart form some mail providers send.
    const boundary = 'limite123';
    const multipart = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const viaMultipart = await server.app.inject({ method: 'POST', url: path, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, payload: multipart });
    expect(viaMultipart.statusCode).toBe(200);
    [row] = await server.db.select().from(message_preference).where(eq(message_preference.customer_id, clienteId));
    expect(row).toMatchObject({ email_enabled: false, whatsapp_enabled: false });
    await reset(clienteId);

    const bad = await server.app.inject({ method: 'POST', url: '/api/messages/one-click?token=inventado', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(bad.statusCode).toBe(404);
    expect(JSON.parse(bad.body).code).toBe('messages/stop-link-invalid');
  });

  it('the public stop calls count per call and per address like the other public token calls (decision 012)', async () => {
    const limited = await server.withConfig({ AUTH_RATE_LIMIT_MAX: '3' });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await call(limited, 'GET', '/api/messages/stop?token=adivina')).status);
    const over = await call(limited, 'POST', '/api/messages/stop', { body: { token: 'adivina' } });
    expect(statuses).toEqual([404, 404, 404]);
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toBeDefined();
    // A batch of guesses in one tRPC request counts each call.
    const other = await server.withConfig({ AUTH_RATE_LIMIT_MAX: '4' });
    const input = encodeURIComponent(JSON.stringify(Object.fromEntries(Array.from({ length: 6 }, (_, i) => [i, { token: `adivina${i}` }]))));
    const batch = await other.inject({ method: 'GET', url: `/trpc/${Array(6).fill('messages.stopPreview').join(',')}?batch=1&input=${input}` });
    const codes = (JSON.parse(batch.body) as { error?: { data: { httpStatus: number } } }[]).map((r) => r.error?.data.httpStatus);
    // The calls of a batch run side by side (on PostgreSQL in any order): four within the limit, two over it.
    expect([...codes].sort()).toEqual([404, 404, 404, 404, 429, 429]);
  });
});

describe('optional messages stop being queued; transactional ones still go', () => {
  const parts = (kind: MessageKind): MessageParts => ({
    kind,
    subject: 'Prueba',
    greetingName: 'Cliente',
    paragraphs: ['Hola'],
    whatsapp: { template: 'estudio_prueba', parameters: ['Cliente'] },
  });

  it('after the stop link, a reminder queues nothing and a receipt still queues e-mail and WhatsApp', async () => {
    const ctx = messageContextOf(server.config);
    const stop = await stopTokenOf(clienteId);
    const before = await queueCustomerMessage(server.db, ctx, { customerId: clienteId, parts: parts('class-reminder'), dedupeKey: `prueba-antes:${Date.now()}` });
    expect(before).toBe(2);
    expect((await call(server.app, 'POST', '/api/messages/stop', { body: { token: stop } })).status).toBe(200);

    const key = `prueba-despues:${Date.now()}`;
    expect(await queueCustomerMessage(server.db, ctx, { customerId: clienteId, parts: parts('class-reminder'), dedupeKey: `${key}:r` })).toBe(0);
    expect(await queueCustomerMessage(server.db, ctx, { customerId: clienteId, parts: parts('purchase-receipt'), dedupeKey: `${key}:p` })).toBe(2);
    const rows = await server.db
      .select({ kind: outbox_message.kind, channel: outbox_message.channel, body: outbox_message.body, dedupe: outbox_message.dedupe_key })
      .from(outbox_message)
      .where(and(eq(outbox_message.customer_id, clienteId)));
    const after = rows.filter((r) => r.dedupe?.startsWith(key));
    expect(after.map((r) => `${r.kind}:${r.channel}`).sort()).toEqual(['purchase-receipt:email', 'purchase-receipt:whatsapp']);
    // The reminder queued before the stop carried the stop link.
    const earlier = rows.find((r) => r.dedupe?.startsWith('prueba-antes') && r.channel === 'email');
    expect(earlier?.body).toContain(`/mensajes/baja?token=${encodeURIComponent(stop)}`);

    // Only e-mail off: a reminder still goes by WhatsApp.
    await server.db.update(message_preference).set({ whatsapp_enabled: true }).where(eq(message_preference.customer_id, clienteId));
    expect(await queueCustomerMessage(server.db, ctx, { customerId: clienteId, parts: parts('class-reminder'), dedupeKey: `${key}:w` })).toBe(1);
    const [whatsappOnly] = await server.db.select({ channel: outbox_message.channel }).from(outbox_message).where(eq(outbox_message.dedupe_key, `${key}:w:whatsapp`));
    expect(whatsappOnly?.channel).toBe('whatsapp');
    await reset(clienteId);
  });
});

describe('a new customer has the optional messages only if she says yes (decision 120)', () => {
  const reminder = (n: string): MessageParts => ({
    kind: 'class-reminder',
    subject: 'Tu clase de mañana',
    greetingName: 'Cliente',
    paragraphs: ['Hola'],
    whatsapp: { template: 'estudio_prueba', parameters: [n] },
  });
  const requiredPages = async () =>
    ((await call(server.app, 'GET', '/api/pages')).body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);

  async function signUp(email: string, phone: string, extra: Record<string, unknown>) {
    const identity = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password: 'Consiento2026!' } });
    expect(identity.status, identity.raw).toBe(200);
    const body = { name: 'Paola', last_name: 'Núñez', email, phone, birthdate: '1994-03-08', accepted_page_ids: await requiredPages(), ...extra };
    const res = await call(server.app, 'POST', '/api/customer/signup', { token: identity.body.idToken, body });
    expect(res.status, res.raw).toBe(200);
    return { id: res.body.customer.customer_id as number, token: identity.body.idToken as string };
  }

  it('signing up without ticking it: both channels off, no reminder queued, the welcome still goes', async () => {
    const paola = await signUp('paola.sin.avisos@correo.mx', '5511223301', {});
    const mine = await call(server.app, 'GET', '/api/customer/messages', { token: paola.token });
    expect(mine.body).toMatchObject({ email_enabled: false, whatsapp_enabled: false });
    const [row] = await server.db.select().from(message_preference).where(eq(message_preference.customer_id, paola.id));
    expect(row?.optional_consent_at).toBeNull();
    const ctx = messageContextOf(server.config);
    expect(await queueCustomerMessage(server.db, ctx, { customerId: paola.id, parts: reminder('sin'), dedupeKey: `consent-sin:${paola.id}` })).toBe(0);
    const welcome = await server.db.select({ kind: outbox_message.kind }).from(outbox_message).where(eq(outbox_message.customer_id, paola.id));
    expect(welcome.map((w) => w.kind)).toContain('welcome');

    // She turns e-mail on in Mi Información: that is her consent, with its date; reminders go by e-mail from then on.
    const on = await call(server.app, 'PUT', '/api/customer/messages', { token: paola.token, body: { email_enabled: true } });
    expect(on.body).toMatchObject({ email_enabled: true, whatsapp_enabled: false });
    const [after] = await server.db.select().from(message_preference).where(eq(message_preference.customer_id, paola.id));
    expect(after?.optional_consent_at).toBeInstanceOf(Date);
    expect(await queueCustomerMessage(server.db, ctx, { customerId: paola.id, parts: reminder('despues'), dedupeKey: `consent-despues:${paola.id}` })).toBe(1);
  });

  it('signing up with it ticked: both channels on, and when she said yes is kept', async () => {
    const before = Date.now();
    const ines = await signUp('ines.con.avisos@correo.mx', '5511223302', { optional_messages: true });
    const [row] = await server.db.select().from(message_preference).where(eq(message_preference.customer_id, ines.id));
    expect(row).toMatchObject({ email_enabled: true, whatsapp_enabled: true });
    expect(row?.optional_consent_at?.getTime()).toBeGreaterThanOrEqual(before - 1000);
    const ctx = messageContextOf(server.config);
    expect(await queueCustomerMessage(server.db, ctx, { customerId: ines.id, parts: reminder('con'), dedupeKey: `consent-con:${ines.id}` })).toBe(2);
  });

  it('a walk-in registered at the counter: off unless staff tick her yes; the activity row says which', async () => {
    const body = async (n: string, extra: Record<string, unknown>) => ({
      name: 'Rocío',
      last_name: 'Zárate',
      phone: `55 33${n.padStart(6, '0')}`,
      email: `rocio.${n}@mostrador.mx`,
      accepted_page_ids: await requiredPages(),
      ...extra,
    });
    const no = await call(server.app, 'POST', '/api/customer', { token: recepcion, body: await body('1', {}) });
    const yes = await call(server.app, 'POST', '/api/customer', { token: recepcion, body: await body('2', { optional_messages: true }) });
    expect([no.status, yes.status]).toEqual([200, 200]);
    const prefs = await server.db.select().from(message_preference);
    expect(prefs.find((p) => p.customer_id === no.body.customer.customer_id)).toMatchObject({ email_enabled: false, whatsapp_enabled: false, optional_consent_at: null });
    expect(prefs.find((p) => p.customer_id === yes.body.customer.customer_id)).toMatchObject({ email_enabled: true, whatsapp_enabled: true });
    const activity = await server.db.select().from(audit_log).where(and(eq(audit_log.action, 'customer.create'), inArray(audit_log.entity_id, [String(no.body.customer.customer_id), String(yes.body.customer.customer_id)])));
    expect(activity.map((a) => [a.entity_id, (a.changes as { optional_messages?: boolean }).optional_messages])).toEqual(
      expect.arrayContaining([
        [String(no.body.customer.customer_id), false],
        [String(yes.body.customer.customer_id), true],
      ]),
    );
  });

  it('a yes that is not true or false is a Spanish 400 naming the field, and no account is made', async () => {
    const res = await call(server.app, 'POST', '/api/customer', {
      token: recepcion,
      body: { name: 'Rocío', last_name: 'Zárate', phone: '55 3300 0009', email: 'rocio.9@mostrador.mx', accepted_page_ids: await requiredPages(), optional_messages: 'sí' },
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('optional_messages');
    expect(res.body.message).toBe('Revisa el campo optional_messages: Debe ser sí o no.');
    expect(await server.db.$count(customer, eq(customer.email, 'rocio.9@mostrador.mx'))).toBe(0);
  });
});
