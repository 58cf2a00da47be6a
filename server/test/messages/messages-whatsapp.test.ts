import { customer } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { templateText, whatsappFailure } from '../../src/providers/messages/whatsapp-cloud.ts';
import { startDeliveryWorker, type DeliveryWorker } from '../../src/services/messages/delivery-worker.ts';
import { messageContextOf } from '../../src/services/messages/message-context.ts';
import { queueCustomerMessage } from '../../src/services/messages/queue-message.ts';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { silentLog, startLoopbackCloudApi, type LoopbackCloudApi } from '../support/messages-fixtures.ts';

/**
 * WhatsApp leaves the outbox through the Cloud API's message endpoint, here a
 * loopback HTTP server that records each request and answers as Meta does
 * (success with a wamid, or its error answers). WhatsApp is configured only
 * through the admin's settings (PUT /api/messaging/settings).
 */
let server: TestServer;
let api: LoopbackCloudApi;
let worker: DeliveryWorker;
let admin: string;
let customerId: number;

const phoneNumberId = '109876543210987';

async function setPhone(phone: string) {
  await server.db.update(customer).set({ phone }).where(eq(customer.customer_id, customerId));
}

async function queueReminder(tag: string) {
  const ctx = messageContextOf(server.config);
  const dedupeKey = `wa-${tag}-${Date.now()}`;
  const n = await queueCustomerMessage(server.db, ctx, {
    customerId,
    channels: ['whatsapp'],
    dedupeKey,
    parts: {
      kind: 'booking-confirmation',
      subject: 'Reservación confirmada',
      paragraphs: ['Tu lugar está apartado.'],
      whatsapp: { template: 'estudio_reservacion', parameters: ['Ana', 'Yoga', 'lunes 10:00'] },
    },
  });
  expect(n).toBe(1);
  return `${dedupeKey}:whatsapp`;
}

const rowOf = async (key: string) => (await server.db.select().from(outbox_message).where(eq(outbox_message.dedupe_key, key)))[0]!;

beforeAll(async () => {
  server = await startTestServer({ MESSAGE_POLL_MS: '60000' });
  api = await startLoopbackCloudApi();
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  const [someone] = await server.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
  customerId = someone!.id;
  const saved = await call(server.app, 'PUT', '/api/messaging/settings', {
    token: admin,
    body: { whatsapp_phone_number_id: phoneNumberId, whatsapp_access_token: 'EAAtoken-uno', whatsapp_api_base: api.base, whatsapp_template_language: 'es_MX' },
  });
  expect(saved.status).toBe(200);
  expect(saved.body.whatsapp).toEqual({ configured: true, source: 'settings' });
  worker = startDeliveryWorker({ db: server.db, config: server.config, log: silentLog });
});
afterAll(async () => {
  await worker.stop();
  await api.close();
  await server.close();
});

describe('WhatsApp Cloud API delivery', () => {
  it('posts the template message with the bearer token, the template, its language and parameters, to the E.164 number', async () => {
    await setPhone('(55) 1234-5678');
    const key = await queueReminder('ok');
    api.requests.length = 0;
    await worker.drain();
    expect(api.requests).toHaveLength(1);
    const request = api.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe(`/v21.0/${phoneNumberId}/messages`);
    expect(request.headers.authorization).toBe('Bearer EAAtoken-uno');
    expect(request.headers['content-type']).toMatch(/^application\/json/);
    expect(request.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '525512345678',
      type: 'template',
      template: {
        name: 'estudio_reservacion',
        language: { code: 'es_MX' },
        components: [{ type: 'body', parameters: [{ type: 'text', text: 'Ana' }, { type: 'text', text: 'Yoga' }, { type: 'text', text: 'lunes 10:00' }] }],
      },
    });
    const row = await rowOf(key);
    expect(row.status).toBe('sent');
    expect(row.provider_message_id).toMatch(/^wamid\.PRUEBA/);
  });

  it('an invalid number fails for good with the reason, and the next message still goes', async () => {
    await setPhone('5512345678');
    const bad = await queueReminder('invalido');
    const good = await queueReminder('siguiente');
    api.answers.push({
      status: 400,
      body: { error: { message: '(#131026) Message undeliverable', type: 'OAuthException', code: 131026, error_data: { messaging_product: 'whatsapp', details: 'Message Undeliverable.' }, fbtrace_id: 'A1' } },
    });
    await worker.drain();
    const failed = await rowOf(bad);
    expect(failed.status).toBe('failed');
    expect(failed.last_error).toBe('El número no tiene WhatsApp o no puede recibir este mensaje (código 131026: Message Undeliverable.).');
    expect((await rowOf(good)).status).toBe('sent');
  });

  it('a number that cannot be a WhatsApp number fails without calling the API', async () => {
    await setPhone('12345');
    const key = await queueReminder('corto');
    api.requests.length = 0;
    await worker.drain();
    expect(api.requests).toHaveLength(0);
    const row = await rowOf(key);
    expect(row.status).toBe('failed');
    expect(row.last_error).toBe('El número de WhatsApp no es válido: «12345».');
    await setPhone('5512345678');
  });

  it('a rate limit keeps the message pending for later (Retry-After honoured), then it is sent', async () => {
    const key = await queueReminder('limite');
    api.answers.push({
      status: 429,
      headers: { 'retry-after': '120' },
      body: { error: { message: '(#130429) Rate limit hit', type: 'OAuthException', code: 130429, error_data: { messaging_product: 'whatsapp', details: 'Cloud API message throughput has been reached.' } } },
    });
    const before = Date.now();
    // A process of its own: after a rate limit it holds WhatsApp back for the wait.
    const limited = startDeliveryWorker({ db: server.db, config: server.config, log: silentLog });
    try {
      await limited.drain();
    } finally {
      await limited.stop();
    }
    const waiting = await rowOf(key);
    expect(waiting.status).toBe('pending');
    expect(waiting.attempts).toBe(1);
    expect(waiting.last_error).toMatch(/^WhatsApp pidió esperar antes de enviar más mensajes \(código 130429/);
    expect(waiting.next_attempt_at.getTime()).toBeGreaterThanOrEqual(before + 120_000);
    // Later: the wait is over.
    await server.db.update(outbox_message).set({ next_attempt_at: new Date(Date.now() - 1000) }).where(eq(outbox_message.dedupe_key, key));
    await worker.drain();
    const sent = await rowOf(key);
    expect(sent.status).toBe('sent');
    expect(sent.attempts).toBe(2);
  });

  it('an expired token keeps the messages pending with a Spanish reason for the admin (one call, not one per message); they go once the token is renewed in settings', async () => {
    const keys = [await queueReminder('token-1'), await queueReminder('token-2'), await queueReminder('token-3')];
    api.answers.push({
      status: 401,
      body: { error: { message: 'Error validating access token: Session has expired on Tuesday.', type: 'OAuthException', code: 190, error_subcode: 463, fbtrace_id: 'A2' } },
    });
    api.requests.length = 0;
    await worker.drain();
    // The first 401 holds the channel back: the other messages wait without calling WhatsApp again.
    expect(api.requests).toHaveLength(1);
    for (const key of keys) {
      const waiting = await rowOf(key);
      expect(waiting.status).toBe('pending');
      expect(waiting.attempts).toBe(0);
      expect(waiting.last_error).toBe(
        'El token de acceso de WhatsApp venció o no es válido. Un administrador debe renovarlo en Mensajes › Configuración de envío; el mensaje se enviará en cuanto se guarde el nuevo token.',
      );
      expect(waiting.next_attempt_at.getTime()).toBeGreaterThan(Date.now() + 10 * 60_000);
    }
    // Nothing is due until the admin acts.
    api.requests.length = 0;
    await worker.drain();
    expect(api.requests).toHaveLength(0);

    const renewed = await call(server.app, 'PUT', '/api/messaging/settings', { token: admin, body: { whatsapp_access_token: 'EAAtoken-dos' } });
    expect(renewed.status).toBe(200);
    expect(renewed.body.whatsapp_access_token_set).toBe(true);
    expect(JSON.stringify(renewed.body)).not.toContain('EAAtoken');
    await worker.drain();
    expect(api.requests).toHaveLength(3);
    expect(api.requests.every((r) => r.headers.authorization === 'Bearer EAAtoken-dos')).toBe(true);
    for (const key of keys) {
      const sent = await rowOf(key);
      expect(sent.status).toBe('sent');
      expect(sent.last_error).toBeNull();
    }
  });
});

describe('the Cloud API error answers, as staff read them', () => {
  const answer = (code: number, details = '', message = '') => ({ error: { message, type: 'OAuthException', code, error_data: { messaging_product: 'whatsapp', details } } });
  it.each([
    // [HTTP status, code, details, permanent, setup, reason starts with]
    [400, 131026, 'Message Undeliverable.', true, false, 'El número no tiene WhatsApp'],
    [400, 131030, 'Recipient phone number not in allowed list', true, false, 'El número no está entre los destinatarios permitidos'],
    [400, 100, 'Invalid parameter: to', true, false, 'El número de WhatsApp no es válido'],
    [429, 130429, 'throughput reached', false, false, 'WhatsApp pidió esperar'],
    [400, 131056, 'pair rate limit', false, false, 'WhatsApp pidió esperar'],
    [400, 131048, 'spam rate limit', false, false, 'WhatsApp pidió esperar'],
    [400, 80007, '', false, false, 'WhatsApp pidió esperar'],
    [400, 4, '', false, false, 'WhatsApp pidió esperar'],
    [401, 190, '', false, true, 'El token de acceso de WhatsApp venció'],
    [400, 190, '', false, true, 'El token de acceso de WhatsApp venció'],
    [404, 132001, 'template name does not exist in es_MX', false, true, 'La plantilla de WhatsApp «estudio_x»'],
    [500, 1, '', false, false, 'WhatsApp no está disponible'],
    [503, 131000, '', false, false, 'WhatsApp no está disponible'],
  ] as const)('HTTP %i code %i', (status, code, details, permanent, setup, reason) => {
    const failure = whatsappFailure(status, answer(code, details), null, 'estudio_x');
    expect(failure.permanent).toBe(permanent);
    expect(failure.setup).toBe(setup);
    expect(failure.reason.startsWith(reason), failure.reason).toBe(true);
  });
  it('a rate limit honours Retry-After', () => {
    expect(whatsappFailure(429, answer(130429), '30', null).retryAfterMs).toBe(30_000);
  });
});

describe('template parameters', () => {
  it('are sent without new lines, tabs or long runs of spaces, and never empty (the Cloud API refuses them)', () => {
    expect(templateText('Cancela antes del\nlunes\t10:00')).toBe('Cancela antes del lunes 10:00');
    expect(templateText('a      b')).toBe('a   b');
    expect(templateText('')).toBe('—');
    expect(templateText('  Ana  ')).toBe('Ana');
  });
});
