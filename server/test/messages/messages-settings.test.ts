import { audit_log } from '@estudio/db';
import { messaging_settings } from '@estudio/db/schema/outbox';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { startLoopbackCloudApi, startLoopbackSmtp, type LoopbackCloudApi, type LoopbackSmtp } from '../support/messages-fixtures.ts';

/** The admin's messaging settings: GET/PUT /api/messaging/settings and the test message (POST /api/messaging/test). */
let server: TestServer;
let smtp: LoopbackSmtp;
let api: LoopbackCloudApi;
let admin: string;
let staff: string;

beforeAll(async () => {
  server = await startTestServer({ MESSAGES_WORKER: 'off' });
  smtp = await startLoopbackSmtp({ auth: { user: 'estudio', pass: 'clave-smtp' } });
  api = await startLoopbackCloudApi();
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  staff = (await login(server.app, 'recepcion@estudio.demo')).idToken;
});
afterAll(async () => {
  await smtp.close();
  await api.close();
  await server.close();
});

describe('messaging settings API', () => {
  it('on the embedded defaults nothing is configured and messages wait', async () => {
    const res = await call(server.app, 'GET', '/api/messaging/settings', { token: admin });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      smtp_host: null,
      smtp_port: null,
      smtp_secure: null,
      smtp_user: null,
      smtp_password_set: false,
      smtp_from: null,
      whatsapp_phone_number_id: null,
      whatsapp_access_token_set: false,
      whatsapp_api_base: null,
      whatsapp_template_language: null,
      email: { configured: false, source: null },
      whatsapp: { configured: false, source: null },
    });
  });

  it('is for admins only', async () => {
    expect((await call(server.app, 'GET', '/api/messaging/settings', { token: staff })).status).toBe(403);
    expect((await call(server.app, 'PUT', '/api/messaging/settings', { token: staff, body: { smtp_host: 'smtp.gmail.com' } })).status).toBe(403);
    expect((await call(server.app, 'GET', '/api/messaging/settings')).status).toBe(401);
  });

  it('stores SMTP, answers the record without the password, and audits without it', async () => {
    const res = await call(server.app, 'PUT', '/api/messaging/settings', {
      token: admin,
      body: { smtp_host: '127.0.0.1', smtp_port: smtp.port, smtp_secure: false, smtp_user: 'estudio', smtp_password: 'clave-smtp', smtp_from: 'Estudio Demo <hola@estudio.demo>' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      smtp_host: '127.0.0.1',
      smtp_port: smtp.port,
      smtp_secure: false,
      smtp_user: 'estudio',
      smtp_password_set: true,
      smtp_from: 'Estudio Demo <hola@estudio.demo>',
      email: { configured: true, source: 'settings' },
    });
    expect(res.raw).not.toContain('clave-smtp');
    const [again] = [await call(server.app, 'GET', '/api/messaging/settings', { token: admin })];
    expect(again.body).toEqual(res.body);
    expect(again.raw).not.toContain('clave-smtp');
    const [entry] = await server.db.select().from(audit_log).where(eq(audit_log.entity, 'messaging_settings')).orderBy(desc(audit_log.audit_log_id)).limit(1);
    expect(entry?.action).toBe('update');
    expect(JSON.stringify(entry?.changes)).not.toContain('clave-smtp');
    expect((entry?.changes as Record<string, unknown>).smtp_password).toBe('cambiado');
    expect((entry?.changes as Record<string, unknown>).smtp_host).toEqual({ from: null, to: '127.0.0.1' });
  });

  it("'' clears a field; a field not sent is kept", async () => {
    const res = await call(server.app, 'PUT', '/api/messaging/settings', { token: admin, body: { smtp_from: '' } });
    expect(res.status).toBe(200);
    expect(res.body.smtp_from).toBeNull();
    expect(res.body.smtp_password_set).toBe(true);
    expect(res.body.smtp_host).toBe('127.0.0.1');
    const [row] = await server.db.select().from(messaging_settings);
    expect(row?.smtp_from).toBeNull();
    expect(row?.smtp_password).toBe('clave-smtp');
  });

  it('refuses an unknown field naming it, and bad values with Spanish messages', async () => {
    const unknown = await call(server.app, 'PUT', '/api/messaging/settings', { token: admin, body: { smtp_host: 'smtp.gmail.com', smtp_pass: 'x' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('El campo "smtp_pass" no existe en esta operación.');
    const cases: [Record<string, unknown>, string, string][] = [
      [{ smtp_port: 70000 }, 'smtp_port', 'El puerto SMTP debe ser un número entre 1 y 65535.'],
      [{ smtp_host: 'no es un host' }, 'smtp_host', 'Escribe el servidor SMTP como nombre o dirección, por ejemplo smtp.gmail.com.'],
      [{ smtp_from: 'Estudio <sin-arroba>' }, 'smtp_from', 'Escribe el remitente como correo (hola@estudio.mx) o con nombre: Estudio <hola@estudio.mx>.'],
      [{ whatsapp_api_base: 'http://graph.facebook.com/v21.0' }, 'whatsapp_api_base', 'La dirección de la API de WhatsApp debe empezar con https://, por ejemplo https://graph.facebook.com/v21.0.'],
      [{ whatsapp_phone_number_id: '+52 55' }, 'whatsapp_phone_number_id', 'El identificador del número de WhatsApp son solo dígitos (WhatsApp Manager › Número de teléfono › ID).'],
      [{ whatsapp_template_language: 'español' }, 'whatsapp_template_language', 'El idioma de las plantillas de WhatsApp se escribe como es_MX o es.'],
    ];
    for (const [body, field, message] of cases) {
      const res = await call(server.app, 'PUT', '/api/messaging/settings', { token: admin, body });
      expect(res.status, field).toBe(400);
      expect(res.body.field).toBe(field);
      expect(res.body.message).toBe(`Revisa el campo ${field}: ${message}`);
    }
    // Nothing of the refused writes was stored.
    const [row] = await server.db.select().from(messaging_settings);
    expect(row?.smtp_port).toBe(smtp.port);
  });

  it('sends a test e-mail now through the configured SMTP server', async () => {
    const res = await call(server.app, 'POST', '/api/messaging/test', { token: admin, body: { channel: 'email', recipient: 'dueña@correo.mx' } });
    expect(res.status).toBe(200);
    expect(res.body.sent).toBe(true);
    const mail = smtp.received.at(-1)!;
    expect(res.body.provider_message_id).toBe(mail.messageId);
    expect(mail.to).toBe('dueña@correo.mx');
    expect(mail.user).toBe('estudio');
    expect(mail.subject).toBe('Mensaje de prueba de Estudio Demo');
    // The default From: the studio's name and contact e-mail.
    expect(mail.from).toBe('Estudio Demo <hola@estudio.demo>');
  });

  it('a test the server refuses answers its reason in Spanish', async () => {
    await call(server.app, 'PUT', '/api/messaging/settings', { token: admin, body: { smtp_password: 'equivocada' } });
    const res = await call(server.app, 'POST', '/api/messaging/test', { token: admin, body: { channel: 'email', recipient: 'otra@correo.mx' } });
    expect(res.status).toBe(502);
    expect(res.body.code).toBe('messaging/test-failed');
    expect(res.body.message).toMatch(/^El servidor de correo rechazó el usuario o la contraseña SMTP/);
    const bad = await call(server.app, 'POST', '/api/messaging/test', { token: admin, body: { channel: 'email', recipient: 'no-es-correo' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('Escribe un correo electrónico válido para la prueba.');
  });

  it("WhatsApp: not configured is said plainly; configured, the test sends Meta's hello_world in en_US", async () => {
    const before = await call(server.app, 'POST', '/api/messaging/test', { token: admin, body: { channel: 'whatsapp', recipient: '5512345678' } });
    expect(before.status).toBe(409);
    expect(before.body.message).toBe('WhatsApp no está configurado: escribe el ID del número y el token de acceso en Mensajes › Configuración de envío.');
    await call(server.app, 'PUT', '/api/messaging/settings', {
      token: admin,
      body: { whatsapp_phone_number_id: '1234567890', whatsapp_access_token: 'EAAsecreto', whatsapp_api_base: api.base },
    });
    const res = await call(server.app, 'POST', '/api/messaging/test', { token: admin, body: { channel: 'whatsapp', recipient: '044 55 1234 5678' } });
    expect(res.status).toBe(200);
    expect(res.body.provider_message_id).toMatch(/^wamid\./);
    const request = api.requests.at(-1)!;
    expect(request.path).toBe('/v21.0/1234567890/messages');
    expect(request.headers.authorization).toBe('Bearer EAAsecreto');
    expect(request.body).toEqual({
      messaging_product: 'whatsapp',
      recipient_type: 'individual',
      to: '525512345678',
      type: 'template',
      template: { name: 'hello_world', language: { code: 'en_US' } },
    });
    const settings = await call(server.app, 'GET', '/api/messaging/settings', { token: admin });
    expect(settings.raw).not.toContain('EAAsecreto');
    expect(settings.body.whatsapp).toEqual({ configured: true, source: 'settings' });
    const wrong = await call(server.app, 'POST', '/api/messaging/test', { token: admin, body: { channel: 'whatsapp', recipient: '123' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('El número de WhatsApp no es válido. Escríbelo a 10 dígitos, o con + y la clave del país.');
  });

  it('the tRPC procedures answer the same shapes', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/trpc/messaging.settings', headers: { authorization: `Bearer ${admin}` } });
    expect(res.statusCode).toBe(200);
    const data = (JSON.parse(res.body) as { result: { data: Record<string, unknown> } }).result.data;
    expect(data.smtp_password_set).toBe(true);
    expect(data).not.toHaveProperty('smtp_password');
  });
});

describe('the admin test send reads as a one-off', () => {
  it('drops the queue notes from a provider reason', async () => {
    const { withoutQueueNote } = await import('../../src/services/messages/messaging-settings.ts');
    expect(withoutQueueNote('No se pudo conectar con el servidor de correo: nadie respondió en esa dirección y puerto. Revisa el servidor y el puerto en Mensajes › Configuración de envío; se intentará de nuevo.')).toBe(
      'No se pudo conectar con el servidor de correo: nadie respondió en esa dirección y puerto. Revisa el servidor y el puerto en Mensajes › Configuración de envío.',
    );
    expect(withoutQueueNote('El token de acceso de WhatsApp venció o no es válido. Un administrador debe renovarlo en Mensajes › Configuración de envío; el mensaje se enviará en cuanto se guarde el nuevo token.')).toBe(
      'El token de acceso de WhatsApp venció o no es válido. Un administrador debe renovarlo en Mensajes › Configuración de envío.',
    );
    expect(withoutQueueNote('El servidor de correo rechazó al destinatario: 550 no existe')).toBe('El servidor de correo rechazó al destinatario: 550 no existe');
  });
});
