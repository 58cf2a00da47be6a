import { describe, expect, it } from 'vitest';
import { call, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';

let server: TestServer;
let cliente: string;
let nuevo: string;
demoStudio(['cliente', 'nuevo'], (s) => ({ server, tokens: { cliente, nuevo } } = s));

describe('addresses', () => {
  it("requires city, state and country with the spec's alerts", async () => {
    const noCity = await call(server.app, 'POST', '/api/addresses', { token: nuevo, body: { street: 'Durango 10', state: 'CDMX', country: 'México' } });
    expect(noCity.status).toBe(400);
    expect(noCity.body).toEqual({ code: 'address/city-required', message: 'Debes agregar tu ciudad.' });
    const noState = await call(server.app, 'POST', '/api/addresses', { token: nuevo, body: { city: 'CDMX', state: '  ', country: 'México' } });
    expect(noState.body.message).toBe('Debes agregar tu estado.');
    const noCountry = await call(server.app, 'POST', '/api/addresses', { token: nuevo, body: { city: 'CDMX', state: 'CDMX' } });
    expect(noCountry.body.message).toBe('Debes agregar tu país.');
  });

  it('creates an address that becomes the customer address, updates and deletes it; others see 404', async () => {
    // An address belongs to the session's customer: naming a customer is refused, not ignored (no silent drop, decision 032).
    const named = await call(server.app, 'POST', '/api/addresses', {
      token: nuevo,
      body: { address_id: 'nueva', customer_id: 1, street: 'Durango', number: '10', city: 'Ciudad de México', state: 'CDMX', country: 'México', zip_code: '' },
    });
    expect(named.status).toBe(400);
    expect(named.body).toMatchObject({ code: 'validation/unknown-field', field: 'customer_id' });
    expect((await call(server.app, 'GET', '/api/addresses', { token: nuevo })).body.addresses).toHaveLength(0);
    // The spec's save helper sends the new record's id as 'nueva': that is no field, the answer carries the real id.
    const created = await call(server.app, 'POST', '/api/addresses', {
      token: nuevo,
      body: { address_id: 'nueva', street: 'Durango', number: '10', city: 'Ciudad de México', state: 'CDMX', country: 'México', zip_code: '' },
    });
    expect(created.status).toBe(200);
    const address = created.body.address as { address_id: number; customer_id: number; zip_code: string | null };
    expect(address.zip_code).toBeNull();
    const me = await call(server.app, 'GET', '/api/customer', { token: nuevo });
    expect(address.customer_id).toBe(me.body.customer.customer_id);
    expect(me.body.customer.address_id).toBe(address.address_id);
    expect(me.body.customer.address).toMatchObject({ city: 'Ciudad de México', street: 'Durango' });

    expect((await call(server.app, 'GET', '/api/addresses', { token: nuevo })).body.addresses).toHaveLength(1);
    const otherRead = await call(server.app, 'GET', `/api/addresses/${address.address_id}`, { token: cliente });
    expect(otherRead.status).toBe(404);
    expect(otherRead.body.code).toBe('address/not-found');
    expect((await call(server.app, 'PUT', '/api/addresses', { token: cliente, body: { address_id: address.address_id, city: 'Puebla' } })).status).toBe(404);
    expect((await call(server.app, 'DELETE', `/api/addresses/${address.address_id}`, { token: cliente })).status).toBe(404);
    expect((await call(server.app, 'PUT', '/api/customer', { token: cliente, body: { address_id: address.address_id } })).status).toBe(404);

    const cleared = await call(server.app, 'PUT', '/api/addresses', { token: nuevo, body: { address_id: address.address_id, city: '' } });
    expect(cleared.body.message).toBe('Debes agregar tu ciudad.');
    const updated = await call(server.app, 'PUT', '/api/addresses', { token: nuevo, body: { address_id: address.address_id, city: 'Puebla', state: 'Puebla' } });
    expect(updated.body.address).toMatchObject({ city: 'Puebla', state: 'Puebla', country: 'México', street: 'Durango' });
    expect((await call(server.app, 'GET', `/api/addresses/${address.address_id}`, { token: nuevo })).body.address.city).toBe('Puebla');

    expect((await call(server.app, 'DELETE', `/api/addresses/${address.address_id}`, { token: nuevo })).body).toEqual({ deleted: true, id: address.address_id });
    const after = await call(server.app, 'GET', '/api/customer', { token: nuevo });
    expect(after.body.customer).toMatchObject({ address_id: null, address: null });
    expect((await call(server.app, 'GET', '/api/addresses')).status).toBe(401);
  });
});

describe('customer save', () => {
  it('refuses the whole customer sent back (related lists, invoices, unknown keys) naming a field, keeps phone digits (10 at most) and saves the profile fields', async () => {
    const me = await call(server.app, 'GET', '/api/customer', { token: nuevo });
    const { email: _email, ...before } = me.body.customer as Record<string, unknown>;
    const profile = { phone: '(551) 234-5678', birthdate: '1994-03-08', signup_reason: 'Otro', signup_reason_other: 'Un volante en el parque' };
    // No silent drop (decision 032): what the save does not take is refused by name, and nothing is saved.
    const whole = await call(server.app, 'PUT', '/api/customer', {
      token: nuevo,
      body: {
        ...before,
        ...profile,
        has_unlimited: true,
        customer_milestone: [{ id: 1 }],
        class_reservations: [{ class_reservation_id: 1 }],
        invoices: [{ invoice_id: 1 }],
      },
    });
    expect(whole.status).toBe(400);
    expect(whole.body).toMatchObject({ code: 'validation/unknown-field', field: 'uid' });
    expect((await call(server.app, 'GET', '/api/customer', { token: nuevo })).body.customer).toMatchObject({ phone: me.body.customer.phone, birthdate: me.body.customer.birthdate });

    const res = await call(server.app, 'PUT', '/api/customer', { token: nuevo, body: profile });
    expect(res.status).toBe(200);
    expect(res.body.customer).toMatchObject({
      phone: '5512345678',
      birthdate: '1994-03-08',
      signup_reason: 'Otro',
      signup_reason_other: 'Un volante en el parque',
      role: 'customer',
      has_unlimited: false,
      email: me.body.customer.email,
    });

    const long = await call(server.app, 'PUT', '/api/customer', { token: nuevo, body: { phone: '55-1234-5678-99' } });
    expect(long.body.customer.phone).toBe('5512345678');

    const other = await call(server.app, 'PUT', '/api/customer', { token: nuevo, body: { signup_reason: 'Instagram', signup_reason_other: 'ignorado' } });
    expect(other.body.customer).toMatchObject({ signup_reason: 'Instagram', signup_reason_other: null });
  });

  it('links only an image file as the profile picture', async () => {
    const foreign = await call(server.app, 'PUT', '/api/customer', { token: nuevo, body: { file_id: 999_999 } });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('file/not-found');
  });
});
