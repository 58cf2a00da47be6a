import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { customer } from '@estudio/db/schema/customer';
import { accepted_page } from '@estudio/db/schema/content';
import { appConfigDefaults, appConfigPrivateKeys, type AppConfigKey } from '@estudio/core';
import { createLocalProvider } from '../../src/services/auth/local-provider.ts';
import { hashingSlotsFor } from '../../src/services/rate-limit/hashing-slots.ts';
import { createLoginFailureStore } from '../../src/services/auth/login-failures.ts';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

let server: TestServer;
demoStudio([], (s) => ({ server } = s));

async function requiredPageIds(): Promise<number[]> {
  const res = await call(server.app, 'GET', '/api/pages');
  return (res.body.pages as { page_id: number; required: boolean }[]).filter((p) => p.required).map((p) => p.page_id);
}

async function newIdentity(email: string) {
  const res = await call(server.app, 'POST', '/api/auth/signup', { body: { email, password: 'Secreta1' } });
  expect(res.status).toBe(200);
  return res.body.idToken as string;
}

describe('app configuration', () => {
  it('answers every key of the defaults but the private ones, with the provider in firebaseConfig', async () => {
    const res = await call(server.app, 'GET', '/api/appconfig');
    expect(res.status).toBe(200);
    const keys = (res.body.config as { key: string }[]).map((e) => e.key);
    for (const key of Object.keys(appConfigDefaults)) {
      if (appConfigPrivateKeys.includes(key as AppConfigKey)) expect(keys).not.toContain(key);
      else expect(keys).toContain(key);
    }
    const firebase = (res.body.config as { key: string; value: string }[]).find((e) => e.key === 'firebaseConfig');
    expect(JSON.parse(firebase?.value ?? '')).toEqual({ provider: 'local' });
  });

  it('an admin changes a value; a customer gets 403; an unknown key changes nothing', async () => {
    const admin = await login(server.app, 'admin@estudio.demo');
    const updated = await call(server.app, 'PUT', '/api/appconfig', {
      token: admin.idToken,
      body: { config: [{ key: 'banner_text', value: 'Clases gratis el domingo' }] },
    });
    expect(updated.status).toBe(200);
    const after = await call(server.app, 'GET', '/api/appconfig');
    expect((after.body.config as { key: string; value: string }[]).find((e) => e.key === 'banner_text')?.value).toBe('Clases gratis el domingo');

    const mixed = await call(server.app, 'PUT', '/api/appconfig', {
      token: admin.idToken,
      body: { config: [{ key: 'banner_text', value: 'No se guarda' }, { key: 'no_existe', value: 'x' }] },
    });
    expect(mixed.status).toBe(400);
    expect(mixed.body.code).toBe('appconfig/unknown-key');
    const still = await call(server.app, 'GET', '/api/appconfig');
    expect((still.body.config as { key: string; value: string }[]).find((e) => e.key === 'banner_text')?.value).toBe('Clases gratis el domingo');

    const cliente = await login(server.app, 'cliente@estudio.demo');
    const denied = await call(server.app, 'PUT', '/api/appconfig', { token: cliente.idToken, body: { config: [{ key: 'banner_text', value: 'x' }] } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 'forbidden', message: 'No tienes permiso para realizar esta acción.' });
  });
});

describe('customer', () => {
  it('signs up a new identity as a customer, recording the accepted required pages', async () => {
    const token = await newIdentity('paola.rios@correo.mx');
    const pages = await requiredPageIds();
    expect(pages.length).toBeGreaterThan(0);
    const res = await call(server.app, 'POST', '/api/customer/signup', {
      token,
      body: { name: 'Paola', last_name: 'Ríos', phone: '(55) 8765-4321', email: 'paola.rios@correo.mx', accepted_page_ids: pages },
    });
    expect(res.status).toBe(200);
    expect(res.body.customer).toMatchObject({ name: 'Paola', last_name: 'Ríos', phone: '5587654321', role: 'customer' });
    const accepted = await call(server.app, 'GET', '/api/accepted_pages', { token });
    expect((accepted.body.accepted_pages as { page_id: number }[]).map((p) => p.page_id).sort()).toEqual([...pages].sort());
    expect((await call(server.app, 'GET', '/api/customer', { token })).body.customer.email).toBe('paola.rios@correo.mx');
  });

  it('answers 409 with the spec message when the account already has a customer', async () => {
    const cliente = await login(server.app, 'cliente@estudio.demo');
    const res = await call(server.app, 'POST', '/api/customer/signup', {
      token: cliente.idToken,
      body: { name: 'Mariana', last_name: 'López', phone: '5511112222', email: 'cliente@estudio.demo', accepted_page_ids: await requiredPageIds() },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'customer/already-exists', message: 'Ya tienes una cuenta con nosotros. Por favor, inicia sesión.' });
  });

  it('answers 409 with the spec message when the phone already has an account, saving nothing', async () => {
    const cliente = await login(server.app, 'cliente@estudio.demo');
    const phone = (await call(server.app, 'GET', '/api/customer', { token: cliente.idToken })).body.customer.phone as string;
    expect(phone).toMatch(/^\d{10}$/);
    const token = await newIdentity('mismo.telefono@correo.mx');
    const res = await call(server.app, 'POST', '/api/customer/signup', {
      token,
      body: { name: 'Julia', last_name: 'Vega', phone, email: 'mismo.telefono@correo.mx', accepted_page_ids: await requiredPageIds() },
    });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'customer/phone-taken', message: 'Ya existe una cuenta con ese número de teléfono' });
    const [row] = await server.db.select({ n: count() }).from(customer).where(eq(customer.email, 'mismo.telefono@correo.mx'));
    expect(row?.n).toBe(0);
  });

  it('requires the required pages, and rejects a malformed body naming the field, writing nothing', async () => {
    const token = await newIdentity('sin.terminos@correo.mx');
    const noTerms = await call(server.app, 'POST', '/api/customer/signup', {
      token,
      body: { name: 'Rita', last_name: 'Luna', phone: '5522223333', email: 'sin.terminos@correo.mx' },
    });
    expect(noTerms.status).toBe(400);
    expect(noTerms.body).toEqual({ code: 'customer/terms-not-accepted', message: 'Debes aceptar los términos y condiciones antes de continuar.' });

    const badPhone = await call(server.app, 'POST', '/api/customer/signup', {
      token,
      body: { name: 'Rita', last_name: 'Luna', phone: '123', email: 'sin.terminos@correo.mx', accepted_page_ids: await requiredPageIds() },
    });
    expect(badPhone.status).toBe(400);
    expect(badPhone.body).toEqual({ code: 'validation', field: 'phone', message: 'Revisa el campo phone: El formato del teléfono no es correcto.' });

    const noName = await call(server.app, 'POST', '/api/customer/signup', {
      token,
      body: { last_name: 'Luna', phone: '5522223333', email: 'sin.terminos@correo.mx' },
    });
    expect(noName.status).toBe(400);
    expect(noName.body.field).toBe('name');
    expect(noName.body.message).toMatch(/^Revisa el campo name: /);

    const [rows] = await server.db.select({ n: count() }).from(customer).where(eq(customer.email, 'sin.terminos@correo.mx'));
    expect(rows?.n).toBe(0);
  });

  it('updates the own profile; a taken phone is refused', async () => {
    const nuevo = await login(server.app, 'nuevo@estudio.demo');
    // Another customer's id or another role is refused, not dropped with a 200 (decision 032); nothing is saved.
    const promoted = await call(server.app, 'PUT', '/api/customer', {
      token: nuevo.idToken,
      body: { customer_id: 1, name: 'Diego', last_name: 'Hernández', phone: '55 4444 5555', birthdate: '1992-03-14', role: 'admin' },
    });
    expect(promoted.status).toBe(403);
    expect((await call(server.app, 'GET', '/api/customer', { token: nuevo.idToken })).body.customer.phone).not.toBe('5544445555');
    const res = await call(server.app, 'PUT', '/api/customer', {
      token: nuevo.idToken,
      body: { name: 'Diego', last_name: 'Hernández', phone: '55 4444 5555', birthdate: '1992-03-14' },
    });
    expect(res.status).toBe(200);
    expect(res.body.customer).toMatchObject({ phone: '5544445555', birthdate: '1992-03-14', role: 'customer', email: 'nuevo@estudio.demo' });

    const cliente = await login(server.app, 'cliente@estudio.demo');
    const clientePhone = (await call(server.app, 'GET', '/api/customer', { token: cliente.idToken })).body.customer.phone as string;
    const taken = await call(server.app, 'PUT', '/api/customer', { token: nuevo.idToken, body: { phone: clientePhone } });
    expect(taken.status).toBe(409);
    expect(taken.body.code).toBe('customer/phone-taken');
  });

  it('finds a customer by phone for the front desk only', async () => {
    const cliente = await login(server.app, 'cliente@estudio.demo');
    const phone = (await call(server.app, 'GET', '/api/customer', { token: cliente.idToken })).body.customer.phone as string;

    const denied = await call(server.app, 'GET', `/api/customer/phone?phone=${phone}`, { token: cliente.idToken });
    expect(denied.status).toBe(403);

    const recepcion = await login(server.app, 'recepcion@estudio.demo');
    const found = await call(server.app, 'GET', `/api/customer/phone?phone=${phone}`, { token: recepcion.idToken });
    expect(found.status).toBe(200);
    expect(found.body.customer).toMatchObject({ email: 'cliente@estudio.demo' });
    const none = await call(server.app, 'GET', '/api/customer/phone?phone=5500000001', { token: recepcion.idToken });
    expect(none.body).toEqual({ customer: null });
  });
});

describe('pages', () => {
  it('lists pages publicly and finds one by slug; a missing slug is 404', async () => {
    const list = await call(server.app, 'GET', '/api/pages');
    expect(list.status).toBe(200);
    const terms = (list.body.pages as { slug: string; required: boolean }[]).find((p) => p.required);
    expect(terms).toBeDefined();
    const one = await call(server.app, 'GET', `/api/pages/${terms?.slug}`);
    expect(one.body.page).toMatchObject({ slug: terms?.slug, required: true });
    const missing = await call(server.app, 'GET', '/api/pages/no-existe');
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('page/not-found');
  });

  it('the new customer accepts the required page, once', async () => {
    const nuevo = await login(server.app, 'nuevo@estudio.demo');
    const [pageId] = await requiredPageIds();
    const first = await call(server.app, 'POST', '/api/accepted_pages', { token: nuevo.idToken, body: { page_id: pageId } });
    expect(first.status).toBe(200);
    const again = await call(server.app, 'POST', '/api/accepted_pages', { token: nuevo.idToken, body: { page_id: pageId } });
    expect(again.body.accepted_page.accepted_page_id).toBe(first.body.accepted_page.accepted_page_id);
    const customerId = first.body.accepted_page.customer_id as number;
    const [row] = await server.db.select({ n: count() }).from(accepted_page).where(eq(accepted_page.customer_id, customerId));
    expect(row?.n).toBeGreaterThanOrEqual(1);

    const other = await call(server.app, 'POST', '/api/accepted_pages', { token: nuevo.idToken, body: { page_id: pageId, customer_id: customerId + 1 } });
    expect(other.status).toBe(403);
  });
});

describe('transport', () => {
  it('an unknown /api path answers 404 JSON; other paths get the portal', async () => {
    const api = await call(server.app, 'GET', '/api/no-existe');
    expect(api.status).toBe(404);
    expect(api.body).toEqual({ code: 'route-not-found', message: 'La ruta solicitada no existe.' });
    expect((await call(server.app, 'DELETE', '/api/customer')).status).toBe(404);

    const spa = await server.app.inject({ method: 'GET', url: '/mystudio/reservaciones' });
    expect(spa.statusCode).toBe(200);
    expect(spa.headers['content-type']).toContain('text/html');
    expect(spa.body).toContain('<div id="root">');
  });

  it('bad JSON and wrong content types answer Spanish JSON errors', async () => {
    const bad = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(bad.statusCode).toBe(400);
    expect(JSON.parse(bad.body)).toEqual({ code: 'invalid-json', message: 'El cuerpo de la solicitud no es un JSON válido.' });
    const xml = await server.app.inject({ method: 'POST', url: '/api/auth/login', payload: '<a/>', headers: { 'content-type': 'application/xml' } });
    expect(xml.statusCode).toBe(415);
    expect(JSON.parse(xml.body).code).toBe('unsupported-media-type');
  });

  it('/api/openapi.json lists every route', async () => {
    const res = await call(server.app, 'GET', '/api/openapi.json');
    expect(res.status).toBe(200);
    const paths = res.body.paths as Record<string, Record<string, unknown>>;
    // The previous admin panel's routes are listed as deprecated (decision 033, legacy-calls.test.ts checks them).
    const routes = Object.entries(paths).flatMap(([p, ops]) =>
      Object.entries(ops)
        .filter(([, op]) => !(op as { deprecated?: boolean }).deprecated)
        .map(([m]) => `${m.toUpperCase()} ${p}`),
    );
    expect(routes.sort()).toEqual(
      [
        'GET /health',
        'DELETE /customer/tax_profile',
        'GET /cfdi',
        'GET /cfdi/customer/{id}',
        'GET /cfdi/pac',
        'GET /cfdi/{id}/file',
        'GET /checkout/options',
        'GET /customer/tax_profile',
        'GET /customer/{id}/answers',
        'GET /customer/{id}/notes',
        'POST /customer/notes',
        'PUT /class_reservation_penaltys/{id}/lift',
        'DELETE /customer/notes/{id}',
        'GET /cash_shifts',
        'GET /cash_shifts/current',
        'POST /cash_shifts',
        'PUT /cash_shifts/{id}/close',
        'POST /sales',
        'POST /sales/quote',
        'GET /sales/products',
        'POST /sales/products/{product_sale_id}/return',
        'GET /messaging/channels',
        'POST /cfdi/desk',
        'POST /cfdi/{id}/retry',
        'POST /checkout/voucher',
        'POST /customer/password',
        'POST /purchases/{purchase_id}/cfdi',
        'PUT /cfdi/pac',
        'PUT /customer/tax_profile',
        'GET /appconfig',
        'PUT /appconfig',
        'POST /auth/signup',
        'POST /auth/login',
        'POST /auth/refresh',
        'POST /auth/recover',
        'POST /auth/reset',
        'PUT /auth/password',
        'POST /auth/logout',
        'POST /auth/email',
        'POST /auth/email/confirm',
        'GET /customer',
        'PUT /customer',
        'POST /customer/signup',
        'POST /customer',
        'GET /customer/phone',
        'POST /customer/giveAccess',
        'PUT /customer/revokeAccess',
        'PUT /customer/removeClasses',
        'GET /pages',
        'GET /pages/{slug}',
        'GET /accepted_pages',
        'POST /accepted_pages',
        'GET /single_class',
        'GET /single_class/single/{id}',
        'PUT /single_class/guest',
        'GET /locations',
        'GET /waitlist',
        'GET /waitlist/{id}',
        'POST /waitlist',
        'PUT /waitlist',
        'DELETE /waitlist/{id}',
        'GET /available_classes',
        'GET /available_classes/date/all',
        'GET /available_classes/{id}',
        'POST /available_classes',
        'PUT /available_classes/{id}',
        'DELETE /available_classes/{id}',
        'GET /class_reservation_penaltys',
        'GET /class_reservation_penaltys/{id}',
        'POST /class_reservations',
        'PUT /class_reservations',
        'DELETE /class_reservations/{id}',
        'GET /class_reservations',
        'GET /class_reservations/mine',
        'GET /class_reservations/progress',
        'GET /standing_bookings',
        'POST /standing_bookings',
        'DELETE /standing_bookings/{id}',
        'POST /class_reservations/{id}/cancel',
        'POST /class_reservations/{id}/rating',
        // Content, catalogue, profile, forms and files (uploads are multipart Fastify routes, described by hand)
        'POST /files',
        'GET /payment_methods/{id}',
        'POST /payment_methods',
        'PUT /payment_methods',
        'DELETE /payment_methods/{id}',
        'POST /files/s3',
        'POST /files/video',
        'POST /webhooks/stripe',
        'POST /pages',
        'PUT /pages',
        'DELETE /pages/{id}',
        'GET /pages/{id}/removal',
        'GET /announcements',
        'GET /announcements/{id}',
        'POST /announcements',
        'PUT /announcements',
        'DELETE /announcements/{id}',
        'GET /instructors',
        'GET /instructors/home/all',
        'GET /instructors/{id}',
        'POST /instructors',
        'PUT /instructors/{id}',
        'DELETE /instructors/{id}',
        'GET /instructors/{id}/removal',
        // A coach's own classes and rosters (decision 045).
        'GET /coach/single_class',
        'GET /coach/single_class/{id}/roster',
        'GET /coach/pay',
        'GET /class_types',
        'GET /class_types/{id}',
        'POST /class_types',
        'PUT /class_types',
        'DELETE /class_types/{id}',
        'GET /class_categories',
        'GET /class_categories/available',
        'GET /class_categories/{id}',
        'POST /class_categories',
        'PUT /class_categories',
        'DELETE /class_categories/{id}',
        'GET /class_categories/{id}/removal',
        'GET /locations/{id}',
        'POST /locations',
        'PUT /locations',
        'DELETE /locations/{id}',
        'GET /addresses',
        'GET /addresses/{id}',
        'POST /addresses',
        'PUT /addresses',
        'DELETE /addresses/{id}',
        'GET /forms',
        'GET /forms/{id}',
        'POST /forms',
        'PUT /forms',
        'DELETE /forms/{id}',
        'GET /custom_fields',
        'GET /custom_fields/{id}',
        'GET /files',
        'GET /files/{id}',
        'PUT /files',
        'DELETE /files/{id}',
        // Shop, checkout, purchases and payments (the Stripe webhook is a raw-body route outside OpenAPI)
        'GET /class_packages',
        'GET /class_packages/{id}',
        'GET /class_packages/online/all',
        'GET /class_packages/online/home',
        'GET /class_packages/presenciales/all',
        'GET /class_packages/presenciales/home',
        'GET /class_packages/especiales/all',
        'GET /class_packages/especiales/home',
        'GET /class_packages/especiales/{id}/asistentes',
        'GET /discounts/code/{code}',
        'POST /checkout/attempt',
        'POST /checkout',
        'POST /checkout/confirm',
        'POST /checkout/paypal',
        'POST /checkout/capture',
        'GET /purchases',
        'GET /purchases/{id}',
        'POST /purchases/cancel/{id}',
        'PUT /purchases/{id}/paid',
        'GET /purchases/admin/all',
        'GET /purchases/{id}/refund',
        'POST /purchases/{id}/refund',
        'POST /purchases/{id}/release-limit',
        'GET /invoices',
        'GET /payment_methods',
        'GET /payment_sources',
        'POST /payment_sources',
        'POST /payment_sources/setup',
        'DELETE /payment_sources/{id}',
        'GET /metodosPago',
        'POST /metodosPago',
        'DELETE /metodosPago/{id}',
        'GET /videos',
        'GET /videos/upcoming',
        'GET /videos/tag/{id}',
        'GET /videos/program/{id}',
        'GET /videos/{id}',
        'POST /videos/rating',
        'POST /videos/rating/email',
        'PUT /videos/{id}/complete',
        'PUT /videos/{id}/uncomplete',
        // The admin manages the library
        'GET /videos/admin/all',
        'POST /videos',
        'PUT /videos',
        'DELETE /videos/{id}',
        'GET /favorites',
        'POST /favorites',
        'DELETE /favorites/{id}',
        'GET /video_types',
        'POST /video_types',
        'PUT /video_types',
        'DELETE /video_types/{id}',
        'GET /programs',
        'GET /programs/{id}',
        'POST /programs',
        'PUT /programs',
        'DELETE /programs/{id}',
        'GET /tags',
        'GET /tags/{id}',
        'POST /tags',
        'PUT /tags',
        'DELETE /tags/{id}',
        // Admin customers, packages, discounts and products
        'GET /customer/admin/all',
        'GET /customer/admin/{id}',
        'GET /customer/query',
        'POST /customer/recover',
        'GET /class_packages/admin/all',
        'GET /class_packages/admin/{id}',
        'POST /class_packages',
        'PUT /class_packages',
        'DELETE /class_packages/{id}',
        'PUT /class_packages/{id}/home',
        'DELETE /class_packages/{id}/home',
        'GET /discounts/admin/all',
        'GET /discounts/{id}',
        'POST /discounts',
        'PUT /discounts',
        'DELETE /discounts/{id}',
        'GET /products',
        'POST /products',
        'PUT /products',
        'DELETE /products/{id}',
        // Admin schedule, reservations, reports and outbox
        'POST /single_class',
        'PUT /single_class',
        'POST /single_class/{id}/cancel',
        'GET /single_class/{id}/cancel_preview',
        'POST /single_class/repeat',
        'POST /single_class/substitute',
        'POST /single_class_series/cancel',
        'GET /single_class_series/{class_series_id}/cancel_preview',
        'GET /class_reservations/single/{id}',
        'PUT /class_reservations/{id}/checkin',
        'GET /reports/attendance',
        'GET /reports/sales',
        'GET /reports/cash_up',
        'GET /reports/coach_pay',
        'GET /coach_pay_rules',
        'POST /coach_pay_rules',
        'DELETE /coach_pay_rules/{id}',
        'GET /rooms',
        'POST /rooms',
        'PUT /rooms',
        'DELETE /rooms/{room_id}',
        'GET /activity',
        'GET /activity/staff',
        'GET /customer/{id}/activity',
        'GET /reports/memberships',
        'GET /reports/no_shows',
        'GET /reports/customers',
        'GET /outbox',
        'POST /outbox/{id}/retry',
        // The admin's messaging settings and test message
        'GET /messaging/settings',
        'PUT /messaging/settings',
        'POST /messaging/test',
        // The customer's messages, the stop link and the calendar feed (the feed and the one-click stop are plain Fastify routes)
        'GET /customer/messages',
        'PUT /customer/messages',
        'POST /customer/messages/calendar',
        'GET /messages/stop',
        'POST /messages/stop',
        'GET /calendar/{file}',
        'GET /messages/one-click',
        'POST /messages/one-click',
        // Mexico's data-protection rights: the customer's ARCO requests, and the owner's answers
        'GET /customer/privacy_requests',
        'POST /customer/privacy_requests',
        'GET /privacy_requests',
        'PUT /privacy_requests',
        // Customers, their credits and their bookings brought over from another system's CSV (admin)
        'POST /import/customers',
        'POST /import/credits',
        'POST /import/bookings',
        'GET /import/invitations',
        'POST /import/invitations',
        // A new studio's first run: Primeros pasos and the portal's publication (admin)
        'GET /setup',
        'PUT /setup/steps/{step}',
        'PUT /setup/publication',
        'POST /setup/document_templates',
        'POST /setup/payments/check',
        // Who signed in, with the role (the previous admin panel's first call)
        'GET /users',
      ].sort(),
    );
    const conflict = res.body.components.schemas['error.CONFLICT'];
    expect(conflict.required).toEqual(['code', 'message']);
    expect(conflict.properties.code.enum).toContain('customer/phone-taken');
  });

  it('an unexpected failure answers a Spanish 500 without leaking its text', async () => {
    const local = createLocalProvider(server.config, { loginFailures: createLoginFailureStore(10, 60_000), hashing: hashingSlotsFor(server.config) });
    const failing = async (): Promise<never> => {
      throw new Error('connection to 10.0.0.7 refused (secret detail)');
    };
    const broken = await server.withConfig({}, { identity: { ...local, verifyIdToken: failing } });
    for (const url of ['/api/customer', '/trpc/customer.me']) {
      const res = await call(broken, 'GET', url, { token: 'cualquiera' });
      expect(res.status).toBe(500);
      expect(res.raw).not.toContain('secret detail');
      expect(res.raw).not.toContain('stack');
      expect(res.raw).toContain('Hubo un error inesperado. Inténtalo más tarde.');
    }
  });

  it('sends security headers', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/health' });
    expect(JSON.parse(res.body)).toEqual({ ok: true });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['content-security-policy']).toContain("style-src 'self' 'unsafe-inline'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    // Origin only, to other sites: Stripe.js and PayPal's frames need the embedding site's origin (security.test.ts).
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('serves the same procedures over tRPC, errors carrying the domain code', async () => {
    const res = await call(server.app, 'GET', '/trpc/appconfig.get');
    expect(res.status).toBe(200);
    expect(res.body.result.data.config.length).toBeGreaterThanOrEqual(Object.keys(appConfigDefaults).length - appConfigPrivateKeys.length);

    const batch = await call(server.app, 'GET', `/trpc/health,pages.bySlug?batch=1&input=${encodeURIComponent(JSON.stringify({ 1: { slug: 'no-existe' } }))}`);
    expect(batch.body[0].result.data).toEqual({ ok: true });
    expect(batch.body[1].error).toMatchObject({ message: 'No encontramos esta página.', data: { httpStatus: 404, domainCode: 'page/not-found' } });

    const wrong = await call(server.app, 'POST', '/trpc/auth.login', { body: { email: 'cliente@estudio.demo', password: 'Incorrecta1' } });
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toMatchObject({ message: 'La contraseña es incorrecta. Por favor, intenta de nuevo', data: { domainCode: 'auth/wrong-password' } });
    expect(JSON.stringify(wrong.body)).not.toContain('stack');
  });
});
