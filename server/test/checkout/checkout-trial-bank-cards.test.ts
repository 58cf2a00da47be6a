import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { class_package } from '@estudio/db/schema/packages';
import { payment_source } from '@estudio/db/schema/payments';
import { purchase } from '@estudio/db/schema/purchases';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/** Points 3, 8 and 9 on the server: trials and cash, the order's package kind, bank settings, '+ Agregar'. */
let server: TestServer;
let admin: string;
let nuevo: string;
let nuevoId: number;
const pkg: Record<string, number> = {};

demoStudio(['admin', 'nuevo'], (s) => ({ server, tokens: { admin, nuevo } } = s));
beforeAll(async () => {
  nuevoId = await customerId(server.db, 'nuevo@estudio.demo');
  for (const p of await server.db.select().from(class_package)) pkg[p.title] = p.class_package_id;
}, 60_000);

const cashId = async () => {
  const methods = await call(server.app, 'GET', '/api/payment_methods');
  return (methods.body.payment_methods as { payment_method_id: number; provider: string }[]).find((m) => m.provider === 'cash')!.payment_method_id;
};

describe('a subscription with a free trial', () => {
  it('is refused in cash, in Spanish, and nothing is left pending', async () => {
    const before = await server.db.select().from(purchase).where(eq(purchase.customer_id, nuevoId));
    for (const [path, body] of [
      ['/api/checkout', { class_package_id: pkg['Online Mensual'], payment_method: await cashId() }],
      ['/api/checkout/attempt', { class_package_id: pkg['Online Mensual'], payment_method: await cashId() }],
    ] as const) {
      const res = await call(server.app, 'POST', path, { token: nuevo, body });
      expect(res.status, path).toBe(400);
      expect(res.body).toEqual({ code: 'checkout/method-unavailable', message: 'La prueba gratis necesita una tarjeta para el primer cargo; hoy no se te cobra nada.' });
    }
    expect(await server.db.select().from(purchase).where(eq(purchase.customer_id, nuevoId))).toHaveLength(before.length);
  });

  it('charges $0 with the sandbox card and its order says which area its classes are in', async () => {
    const res = await call(server.app, 'POST', '/api/checkout/attempt', {
      token: nuevo,
      body: { class_package_id: pkg['Online Mensual'], payment_method: 1, payment_method_token: 'pm_card_visa' },
    });
    expect(res.status).toBe(200);
    const order = await call(server.app, 'GET', `/api/purchases/${res.body.purchase_id}`, { token: nuevo });
    expect(order.body.purchase).toMatchObject({ total_payment: '0.00', status: 'active', class_package: { is_online: true, is_presencial: false } });
  });

  it('a regular package is still sold in cash (pending until the desk marks it paid)', async () => {
    const res = await call(server.app, 'POST', '/api/checkout', { token: nuevo, body: { class_package_id: pkg['1 Clase'], payment_method: await cashId() } });
    expect(res.status).toBe(200);
    const [row] = await server.db.select().from(purchase).where(eq(purchase.purchase_id, res.body.purchase_id));
    expect(row).toMatchObject({ status: 'pending', provider: 'cash', total_payment: '180.00' });
  });
});

describe('bank-transfer settings', () => {
  it('the demo studio has a bank, a valid CLABE and a beneficiary, public for the order page', async () => {
    const res = await call(server.app, 'GET', '/api/appconfig');
    const config = Object.fromEntries((res.body.config as { key: string; value: string }[]).map((e) => [e.key, e.value]));
    expect(config).toMatchObject({ bank_name: 'BBVA México', bank_clabe: '012180001234567899', bank_beneficiary: 'Estudio Demo S.A. de C.V.' });
  });

  it('a CLABE with a wrong check digit is refused by name, in Spanish, and the stored one stays', async () => {
    const bad = await call(server.app, 'PUT', '/api/appconfig', { token: admin, body: { config: [{ key: 'bank_clabe', value: '012180001234567890' }] } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe(
      'El valor de «CLABE interbancaria» no es válido: debe tener 18 dígitos y el último debe ser su dígito verificador; revísala en tu estado de cuenta.',
    );
    const good = await call(server.app, 'PUT', '/api/appconfig', { token: admin, body: { config: [{ key: 'bank_clabe', value: '002010077777777771' }] } });
    expect(good.status).toBe(200);
    const res = await call(server.app, 'GET', '/api/appconfig');
    expect((res.body.config as { key: string; value: string }[]).find((e) => e.key === 'bank_clabe')?.value).toBe('002010077777777771');
  });
});

describe("'+ Agregar' in Métodos de Pago with the sandbox", () => {
  it('setup answers no secret (the form saves the test token) and the card is saved and listed', async () => {
    const setup = await call(server.app, 'POST', '/api/payment_sources/setup', { token: nuevo, body: {} });
    expect(setup.body).toEqual({ card_provider: 'sandbox', clientSecret: null });
    const saved = await call(server.app, 'POST', '/api/payment_sources', {
      token: nuevo,
      body: { payment_method_token: 'pm_card_mastercard', card_type: 'mastercard', last_digits: '4444' },
    });
    expect(saved.status).toBe(200);
    const rows = await server.db.select().from(payment_source).where(and(eq(payment_source.customer_id, nuevoId), eq(payment_source.last_digits, '4444')));
    expect(rows).toHaveLength(1);
  });

  it('is refused with 412 when the studio does not keep cards', async () => {
    await call(server.app, 'PUT', '/api/appconfig', { token: admin, body: { config: [{ key: 'payment_sources_enabled', value: 'false' }] } });
    const setup = await call(server.app, 'POST', '/api/payment_sources/setup', { token: nuevo, body: {} });
    expect(setup.status).toBe(412);
    expect(setup.body.message).toBe('Guardar tarjetas no está disponible.');
    await call(server.app, 'PUT', '/api/appconfig', { token: admin, body: { config: [{ key: 'payment_sources_enabled', value: 'true' }] } });
  });
});
