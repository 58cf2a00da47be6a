import { readFileSync } from 'node:fs';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityWhat, hasTemplatePlaceholder, studioSetupTexts } from '@estudio/core';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { app_config } from '@estudio/db/schema/app-config';
import { audit_log } from '@estudio/db/schema/audit';
import { class_type, instructor, location } from '@estudio/db/schema/catalogue';
import { page } from '@estudio/db/schema/content';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { single_class } from '@estudio/db/schema/schedule';
import { createChangeFeed, portalContentChannel } from '@estudio/sync';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/app.ts';
import { resetPassword } from '../../src/services/auth/reset-password.ts';
import { createOwner } from '../../src/services/setup/create-owner.ts';
import { createDocumentTemplates, getStudioSetup } from '../../src/services/setup/studio-setup.ts';
import { call, login, startTestServer, testConfig, type TestServer } from '../support/helpers.ts';

/**
 * A new studio's first run (decision 129): the owner the operator's command
 * made signs in to a studio nobody sees yet. The portal answers
 * "Próximamente" with the studio's name; her Primeros pasos read each step
 * from the data, keep the steps she skips, and publishing opens the portal.
 * The demo studio is published from its seed, so nothing of it changes.
 */
const c = studioSetupTexts.comingSoon;
type Setup = { published: boolean; done: number; total: number; steps: { key: string; title: string; done: boolean; skipped: boolean; detail: string | null; action: string | null }[] };
const stepOf = (setup: Setup, key: string) => setup.steps.find((s) => s.key === key)!;

describe('the demo studio', () => {
  let server: TestServer;
  let admin: string;
  beforeAll(async () => {
    server = await startTestServer();
    admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  }, 120_000);
  afterAll(() => server.close());

  it('is published from its seed: its portal is the studio, and its Primeros pasos show what it has', async () => {
    const config = await call(server.app, 'GET', '/api/appconfig');
    expect(config.body.config).toContainEqual({ key: 'studio_published', value: 'true' });
    expect((await call(server.app, 'GET', '/')).raw).not.toContain(c.title);

    const setup = await call(server.app, 'GET', '/api/setup', { token: admin });
    expect(setup.status, setup.raw).toBe(200);
    const body = setup.body as Setup;
    expect(body.published).toBe(true);
    expect(body.steps.map((s) => s.key)).toEqual(['identity', 'timezone', 'locations', 'classTypes', 'coaches', 'packages', 'schedule', 'pages', 'payments', 'messages']);
    expect(body.steps.every((s) => s.title && !s.skipped)).toBe(true);
    // Everything but the messages: the tests' server has no SMTP nor WhatsApp.
    expect(body.steps.filter((s) => !s.done).map((s) => s.key)).toEqual(['messages']);
    expect(stepOf(body, 'locations').detail).toBe('2 ubicaciones.');
    expect(body).toMatchObject({ done: 9, total: 10 });
  });

  it('only admins read it or change it', async () => {
    const recepcion = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    expect((await call(server.app, 'GET', '/api/setup', { token: recepcion })).status).toBe(403);
    expect((await call(server.app, 'PUT', '/api/setup/publication', { token: recepcion, body: { published: false } })).status).toBe(403);
    expect((await call(server.app, 'GET', '/api/setup')).status).toBe(401);
  });
});

describe('a studio started without the demo', () => {
  let handle: TestDb;
  let app: FastifyInstance;
  let close: () => Promise<void>;
  let owner: string;
  let ownerId: number;

  beforeAll(async () => {
    handle = await createTestDb({ seed: false });
    const made = await createOwner(handle.db, { email: 'ana@estudio-luna.mx', name: 'Ana', lastName: 'Ruiz', studio: 'Estudio Luna', linkHours: 24, publicUrl: 'http://estudio.test', provider: 'local' });
    if (made.kind !== 'link') throw new Error('sin enlace');
    ownerId = made.customerId;
    await resetPassword(handle.db, { token: decodeURIComponent(new URL(made.link).searchParams.get('token') ?? ''), password: 'Luna-Clave-2026' });
    const changeFeed = await createChangeFeed(handle);
    const contentFeed = await createChangeFeed(handle, portalContentChannel);
    app = await buildServer({ config: testConfig(), db: handle.db, changeFeed, contentFeed });
    close = async () => {
      await app.close();
      await changeFeed.close();
      await contentFeed.close();
      await handle.close();
    };
    owner = (await login(app, 'ana@estudio-luna.mx', 'Luna-Clave-2026')).idToken;
  }, 120_000);
  afterAll(() => close());

  const status = async () => {
    const res = await call(app, 'GET', '/api/setup', { token: owner });
    expect(res.status, res.raw).toBe(200);
    return res.body as Setup;
  };
  const comingSoon = async (url: string) => {
    const res = await app.inject({ method: 'GET', url });
    expect(res.statusCode, url).toBe(200);
    return res.body.includes(c.title) && res.body.includes(c.line);
  };

  it('is not published: the public pages say Próximamente with its name, and setting a password and signing in still open', async () => {
    const config = await call(app, 'GET', '/api/appconfig');
    expect(config.body.config).toContainEqual({ key: 'studio_published', value: 'false' });
    for (const url of ['/', '/calendario', '/paquetes', '/registro', '/mystudio', '/checkout/1', '/terminos-y-condiciones']) expect(await comingSoon(url)).toBe(true);
    const landing = await app.inject({ method: 'GET', url: '/' });
    expect(landing.headers['content-type']).toContain('text/html');
    expect(landing.body).toContain('<title>Próximamente · Estudio Luna</title>');
    expect(landing.body).toContain('Estudio Luna');
    // No script at all: nothing of the portal's app starts behind it.
    expect(landing.body).not.toContain('<script');
    for (const url of ['/recuperar?token=abc', '/entrar', '/admin/reservaciones/1']) expect(await comingSoon(url)).toBe(false);
    // The API works as before: the owner and her staff keep working.
    expect((await call(app, 'GET', '/api/locations')).status).toBe(200);
  });

  it("her Primeros pasos start with every step pending but the name the operator's command stored", async () => {
    const setup = await status();
    expect(setup.published).toBe(false);
    expect(setup.done).toBe(0);
    expect(stepOf(setup, 'identity')).toMatchObject({ done: false, detail: 'Falta: el logo.' });
    expect(stepOf(setup, 'timezone')).toMatchObject({ done: false, action: 'confirmTimezone', detail: 'Sin confirmar: se usa America/Mexico_City.' });
    expect(stepOf(setup, 'payments')).toMatchObject({ done: false, action: 'addPaymentMethods', detail: studioSetupTexts.detail.noPaymentMethods });
    expect(stepOf(setup, 'pages').detail).toBe('Falta: los términos y condiciones, el aviso de privacidad.');
    expect(stepOf(setup, 'messages').detail).toMatch(/^Sin configurar/);
  });

  it('each step is read from the data as she fills the studio in', async () => {
    await call(app, 'PUT', '/api/appconfig', { token: owner, body: { config: [{ key: 'navbar_logo', value: '/files/logo-luna.png' }, { key: 'timezone', value: 'America/Mexico_City' }] } });
    const [place] = await handle.db.insert(location).values({ name: 'Luna Condesa', address: 'Av. Tamaulipas 50, Condesa' }).returning();
    const [type] = await handle.db.insert(class_type).values({ name: 'Yoga', spot_map: '4,4' }).returning();
    await handle.db.insert(instructor).values({ name: 'Vale', last_name: 'Soto' });
    // A free trial alone is not a package with a price.
    await handle.db.insert(class_package).values({ title: 'Clase de prueba', price: '0', class_amount: 1 });
    let setup = await status();
    expect(stepOf(setup, 'packages')).toMatchObject({ done: false });
    await handle.db.insert(class_package).values({ title: '5 clases', price: '650', class_amount: 5 });
    // A class in the past is not a first week.
    await handle.db.insert(single_class).values({ class_date: new Date(Date.now() - 86_400_000), capacity: 8, location_id: place!.location_id, class_type_id: type!.class_type_id });
    expect(stepOf(await status(), 'schedule').done).toBe(false);
    await handle.db.insert(single_class).values({ class_date: new Date(Date.now() + 2 * 86_400_000), capacity: 8, location_id: place!.location_id, class_type_id: type!.class_type_id });
    // The terms written but not required, the notice required but empty.
    await handle.db.insert(page).values([
      { slug: 'terminos', title: 'Términos y condiciones', required: false, content: '<p>Las clases se reservan en el portal.</p>' },
      { slug: 'privacidad', title: 'Aviso de privacidad', required: true, content: '<p> </p>' },
    ]);
    setup = await status();
    expect(stepOf(setup, 'pages')).toMatchObject({ done: false, detail: 'Falta: los términos y condiciones (márcalo como obligatorio), el aviso de privacidad (sin texto).' });
    await handle.db.update(page).set({ required: true }).where(eq(page.slug, 'terminos'));
    await handle.db.update(page).set({ content: '<p>Estudio Luna trata tus datos conforme a la ley.</p>' }).where(eq(page.slug, 'privacidad'));

    setup = await status();
    for (const key of ['identity', 'timezone', 'locations', 'classTypes', 'coaches', 'packages', 'schedule', 'pages']) expect(stepOf(setup, key).done, key).toBe(true);
    expect(stepOf(setup, 'classTypes').detail).toBe('1 tipo de clase, 1 con mapa de lugares.');
    expect(stepOf(setup, 'schedule').detail).toBe('1 clase próxima en el horario.');
    // A coach who leaves makes the step pending again: nothing is a stored flag.
    await handle.db.update(instructor).set({ deletedAt: new Date() });
    expect(stepOf(await status(), 'coaches').done).toBe(false);
    await handle.db.insert(instructor).values({ name: 'Rodrigo', last_name: 'Paz' });

    // Card and cash at the checkout; cash counts once she saved her transfer details (empty: pay at reception).
    for (const method of [{ name: 'Tarjeta', provider: 'card' }, { name: 'Efectivo', provider: 'cash' }]) {
      expect((await call(app, 'POST', '/api/payment_methods', { token: owner, body: method })).status).toBe(200);
    }
    expect(stepOf(await status(), 'payments')).toMatchObject({ done: false, action: null, detail: `${studioSetupTexts.detail.cardSandbox} ${studioSetupTexts.detail.cashNoBank}` });
    await call(app, 'PUT', '/api/appconfig', { token: owner, body: { config: [{ key: 'bank_clabe', value: '' }] } });
    setup = await status();
    expect(stepOf(setup, 'payments').done).toBe(true);
    expect(setup.done).toBe(9);
  });

  it('a step skipped is kept, once, in Actividad; taken back, it is pending again; an unknown step is a Spanish 400', async () => {
    const skip = (step: string, skipped: unknown) => call(app, 'PUT', `/api/setup/steps/${step}`, { token: owner, body: { skipped } });
    const first = await skip('messages', true);
    expect(first.status, first.raw).toBe(200);
    expect(stepOf(first.body as Setup, 'messages')).toMatchObject({ done: false, skipped: true });
    await skip('messages', true);
    const audits = await handle.db.select().from(audit_log).where(and(eq(audit_log.action, 'setup.skip'), eq(audit_log.customer_id, ownerId)));
    expect(audits).toHaveLength(1);
    expect(activityWhat({ entity: audits[0]!.entity, action: audits[0]!.action, entityId: audits[0]!.entity_id, changes: audits[0]!.changes, actor: null, customerName: null })).toBe('omitió por ahora el paso «Cómo salen los mensajes» de Primeros pasos');
    const [stored] = await handle.db.select({ value: app_config.value }).from(app_config).where(eq(app_config.key, 'setup_skipped'));
    expect(stored?.value).toBe('messages');
    // The skipped steps are the console's: not in the public configuration.
    expect((await call(app, 'GET', '/api/appconfig')).body.config.some((e: { key: string }) => e.key === 'setup_skipped')).toBe(false);

    expect(stepOf((await skip('messages', false)).body as Setup, 'messages').skipped).toBe(false);
    await skip('messages', true);

    const unknown = await skip('piscina', true);
    expect(unknown.status).toBe(400);
    expect(unknown.raw).toContain('El paso no existe');
    const text = await skip('coaches', 'true');
    expect(text.status).toBe(400);
    expect(text.raw).toContain('Indica con true o false');
  });

  it('publishing opens the portal (audited); closing it again brings Próximamente back', async () => {
    const publish = (published: unknown) => call(app, 'PUT', '/api/setup/publication', { token: owner, body: { published } });
    expect((await publish('sí')).status).toBe(400);
    const opened = await publish(true);
    expect(opened.status, opened.raw).toBe(200);
    expect((opened.body as Setup).published).toBe(true);
    expect((await call(app, 'GET', '/api/appconfig')).body.config).toContainEqual({ key: 'studio_published', value: 'true' });
    // The pages rendered so far are forgotten when the setting commits (decision 069).
    await expect.poll(() => comingSoon('/'), { timeout: 5_000 }).toBe(false);
    expect(await comingSoon('/calendario')).toBe(false);
    const [audit] = await handle.db.select().from(audit_log).where(eq(audit_log.action, 'studio.publish'));
    expect(audit).toMatchObject({ customer_id: ownerId, entity: 'app_config', changes: { published: true } });

    expect((await publish(false)).status).toBe(200);
    await expect.poll(() => comingSoon('/'), { timeout: 5_000 }).toBe(true);
    expect(await handle.db.select().from(audit_log).where(eq(audit_log.action, 'studio.unpublish'))).toHaveLength(1);
    await publish(true);
  });

  it("once published, its portal shows only what she wrote: nothing of the demo studio's name, pictures, contact or bank", async () => {
    const config = Object.fromEntries(((await call(app, 'GET', '/api/appconfig')).body.config as { key: string; value: string }[]).map((e) => [e.key, e.value]));
    expect(config.business_name).toBe('Estudio Luna');
    const demoTraces = /demo|Roma Norte|5512345678|012180001234567899|BBVA|Muévete, respira/i;
    expect(Object.entries(config).filter(([, value]) => demoTraces.test(value))).toEqual([]);
    expect(config).toMatchObject({ navbar_logo: '/files/logo-luna.png', favicon: '', hero_image: '', whatsapp: '', bank_clabe: '', banner_enabled: 'false' });
    const landing = await app.inject({ method: 'GET', url: '/' });
    expect(landing.statusCode).toBe(200);
    expect(landing.body).not.toMatch(demoTraces);
  });
});

describe('the migration that brought publication in (0038)', () => {
  const migration = readFileSync(new URL('../../../db/migrations/0038_studio_published.sql', import.meta.url), 'utf8');

  it('keeps a studio already in use published, and leaves an empty one to its owner', async () => {
    const handle = await createTestDb({ seed: false });
    try {
      const published = async () => (await handle.db.select({ value: app_config.value }).from(app_config).where(eq(app_config.key, 'studio_published')))[0]?.value;
      await handle.db.execute(sql.raw(migration));
      expect(await published()).toBeUndefined();
      await handle.db.insert(customer).values({ email: 'mariana@correo.mx', name: 'Mariana', last_name: 'López', role: 'customer' });
      await handle.db.execute(sql.raw(migration));
      expect(await published()).toBe('true');
    } finally {
      await handle.close();
    }
  });
});

describe('the required documents from their templates (decision 130)', () => {
  it('creates the terms and the privacy notice, required, with the studio’s name; the step waits until what is marked is completed', async () => {
    const handle = await createTestDb({ seed: false });
    try {
      await handle.db.insert(app_config).values({ key: 'business_name', value: 'Estudio Luna' });
      const before = await getStudioSetup(handle.db, testConfig());
      expect(stepOf(before as Setup, 'pages')).toMatchObject({ done: false, action: 'createDocumentTemplates' });

      const after = (await createDocumentTemplates(handle.db, testConfig())) as Setup;
      const pages = await handle.db.select().from(page);
      expect(pages.map((p) => [p.slug, p.required]).sort()).toEqual([
        ['aviso-de-privacidad', true],
        ['terminos-y-condiciones', true],
      ]);
      expect(pages.every((p) => p.content?.includes('Estudio Luna') && hasTemplatePlaceholder(p.content))).toBe(true);
      expect(pages.find((p) => p.slug === 'aviso-de-privacidad')?.content).toContain('Aviso de privacidad simplificado');
      expect(stepOf(after, 'pages')).toMatchObject({
        done: false,
        action: null,
        detail: 'Falta: los términos y condiciones (completa lo marcado «[Completa: …]»), el aviso de privacidad (completa lo marcado «[Completa: …]»).',
      });
      // Run again, nothing is made twice.
      await createDocumentTemplates(handle.db, testConfig());
      expect(await handle.db.select().from(page)).toHaveLength(2);

      for (const p of pages) await handle.db.update(page).set({ content: p.content!.replace(/\[Completa: [^\]]*\]/g, 'Av. Tamaulipas 50, Condesa') }).where(eq(page.page_id, p.page_id));
      expect(stepOf((await getStudioSetup(handle.db, testConfig())) as Setup, 'pages')).toMatchObject({ done: true, detail: null });
    } finally {
      await handle.close();
    }
  });
});
