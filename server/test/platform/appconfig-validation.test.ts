import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { app_config } from '@estudio/db/schema/app-config';
import { class_package } from '@estudio/db/schema/packages';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

/**
 * App-config values are checked by their type before they
 * are saved, and a bad value stored before that (written straight into the
 * table here) reads as the default instead of failing the schedule and reports.
 * Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
let server: TestServer;
let admin: string;
demoStudio(['admin'], (s) => ({ server, tokens: { admin } } = s));

const put = (config: { key: string; value: string }[]) => call(server.app, 'PUT', '/api/appconfig', { token: admin, body: { config } });
async function stored(key: string): Promise<string | undefined> {
  const [row] = await server.db.select({ value: app_config.value }).from(app_config).where(eq(app_config.key, key));
  return row?.value;
}
async function served(key: string): Promise<string | undefined> {
  const res = await call(server.app, 'GET', '/api/appconfig');
  return (res.body.config as { key: string; value: string }[]).find((e) => e.key === key)?.value;
}
const today = new Date().toISOString().slice(0, 10);

describe('saving app-config values', () => {
  it('refuses a time zone that does not exist with 400 naming the setting in Spanish, and saves nothing of the change', async () => {
    const res = await put([
      { key: 'banner_text', value: 'No se guarda' },
      { key: 'timezone', value: 'Mars/Olympus' },
    ]);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'appconfig/invalid-value',
      field: 'timezone',
      message: 'El valor de «Zona horaria» no es válido: debe ser una zona horaria válida, por ejemplo America/Mexico_City.',
    });
    expect(res.body.message).not.toContain('timezone');
    expect(await stored('timezone')).toBe('America/Mexico_City');
    expect(await stored('banner_text')).not.toBe('No se guarda');
  });

  it('refuses password_min_length 0 (and anything under the floor of 8)', async () => {
    for (const value of ['0', '1', '7', 'ocho', '']) {
      const res = await put([{ key: 'password_min_length', value }]);
      expect(res.status, value).toBe(400);
      expect(res.body.message).toBe('El valor de «Longitud mínima de contraseña» no es válido: debe ser un número entero entre 8 y 256.');
    }
    expect(await stored('password_min_length')).toBe('8');
  });

  it('checks booleans, integers, colours, e-mails, links and package ids', async () => {
    const refused: [string, string, string][] = [
      ['waitlist_enabled', 'quizá', 'Lista de espera'],
      ['max_cancels_per_available_class', '-3', 'Cancelaciones por crédito'],
      ['primary', 'rosa mexicano', 'Color principal'],
      ['email', 'hola@@estudio', 'Correo de contacto'],
      ['instagram', 'javascript:alert(1)', 'Instagram'],
      ['cancel_timeframe_unit', 'semanas', 'Unidad de anticipación para cancelar'],
      ['home_reserve_class_package_id', '999999', 'Paquete de «Reserva tu clase» en la portada'],
      ['password_max_length', '5', 'Longitud máxima de contraseña'],
    ];
    for (const [key, value, label] of refused) {
      const before = await stored(key);
      const res = await put([{ key, value }]);
      expect(res.status, `${key}=${value}`).toBe(400);
      expect(res.body.code).toBe('appconfig/invalid-value');
      expect(res.body.message).toContain(`«${label}»`);
      expect(await stored(key)).toBe(before);
    }
  });

  it('saves values that fit, an existing package included', async () => {
    const [pkg] = await server.db.select({ id: class_package.class_package_id }).from(class_package).limit(1);
    const res = await put([
      { key: 'timezone', value: 'America/Tijuana' },
      { key: 'password_min_length', value: '10' },
      { key: 'primary', value: '#2B8A3E' },
      { key: 'home_reserve_class_package_id', value: String(pkg?.id) },
      { key: 'waitlist_enabled', value: 'false' },
    ]);
    expect(res.status).toBe(200);
    expect(await stored('timezone')).toBe('America/Tijuana');
    expect(await stored('home_reserve_class_package_id')).toBe(String(pkg?.id));
    // The maximum is checked against the stored minimum (10).
    expect((await put([{ key: 'password_max_length', value: '9' }])).status).toBe(400);
    expect((await put([{ key: 'password_max_length', value: '' }])).status).toBe(200);
    await put([
      { key: 'timezone', value: 'America/Mexico_City' },
      { key: 'password_min_length', value: '8' },
      { key: 'primary', value: '#d6336c' },
      { key: 'home_reserve_class_package_id', value: '' },
      { key: 'waitlist_enabled', value: 'true' },
    ]);
  });
});

describe('reading a bad value stored before the checks', () => {
  it('the public schedule, the reports and the app config fall back to the default time zone instead of a 500', async () => {
    await server.db.update(app_config).set({ value: 'Mars/Olympus' }).where(eq(app_config.key, 'timezone'));
    await server.db.update(app_config).set({ value: '0' }).where(eq(app_config.key, 'password_min_length'));
    try {
      const schedule = await call(server.app, 'GET', `/api/single_class?start_date=${today}&end_date=${today}`);
      expect(schedule.status).toBe(200);
      const report = await call(server.app, 'GET', `/api/reports/sales?start_date=${today}&end_date=${today}`, { token: admin });
      expect(report.status).toBe(200);
      expect(await served('timezone')).toBe('America/Mexico_City');
      expect(await served('password_min_length')).toBe('8');
      // The password policy reads the floor, not the stored 0.
      const weak = await call(server.app, 'POST', '/api/auth/signup', { body: { email: 'corta@correo.mx', password: 'a' } });
      expect(weak.status).toBe(400);
      expect(weak.body).toMatchObject({ code: 'auth/weak-password', message: 'La contraseña debe tener al menos 8 caracteres.' });
    } finally {
      await server.db.update(app_config).set({ value: 'America/Mexico_City' }).where(eq(app_config.key, 'timezone'));
      await server.db.update(app_config).set({ value: '8' }).where(eq(app_config.key, 'password_min_length'));
    }
  });
});

describe('private settings', () => {
  it("the owner's summary address is answered to admins only", async () => {
    const server = await startTestServer();
    try {
      const admin = (await login(server.app, 'admin@estudio.demo')).idToken;
      const put = await call(server.app, 'PUT', '/api/appconfig', { token: admin, body: { config: [{ key: 'owner_summary_email', value: 'duena@estudio.demo' }] } });
      expect(put.status).toBe(200);
      const asAdmin = await call(server.app, 'GET', '/api/appconfig', { token: admin });
      expect(asAdmin.body.config).toContainEqual({ key: 'owner_summary_email', value: 'duena@estudio.demo' });
      const customer = (await login(server.app, 'cliente@estudio.demo')).idToken;
      for (const token of [undefined, customer, 'not-a-token']) {
        const answer = await call(server.app, 'GET', '/api/appconfig', token ? { token } : {});
        expect(answer.status).toBe(200);
        expect(JSON.stringify(answer.body)).not.toContain('duena@estudio.demo');
        expect(answer.body.config.some((e: { key: string }) => e.key === 'owner_summary_email')).toBe(false);
      }
    } finally {
      await server.close();
    }
  });
});
