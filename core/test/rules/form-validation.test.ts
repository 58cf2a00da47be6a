import { describe, expect, it } from 'vitest';
import {
  ADDRESS_FORM_ID,
  addressFormFields,
  fieldError,
  fieldLabel,
  validateAddress,
  validateCustomFields,
  validateForm,
  type ValidatableField,
} from '../../src/rules/form-validation.ts';

const req = (type: ValidatableField['type'], extra: Partial<ValidatableField> = {}): ValidatableField => ({
  key: 'f',
  label: 'Campo',
  type,
  required: true,
  ...extra,
});

describe('fieldLabel', () => {
  it("labels non-required fields '(Opcional)' and leaves required ones as they are", () => {
    expect(fieldLabel({ key: 'a', label: 'Instagram', type: 'text', required: false })).toBe('Instagram (Opcional)');
    expect(fieldLabel({ key: 'a', label: 'Nombre', type: 'text', required: true })).toBe('Nombre');
    expect(fieldLabel({ key: 'a', name: 'Alias', type: 'text', required: true })).toBe('Alias');
    expect(fieldLabel({ key: 'apodo', type: 'text', required: false })).toBe('apodo (Opcional)');
  });
});

describe('fieldError per type', () => {
  it('only validates required fields', () => {
    for (const type of ['text', 'date', 'number', 'select', 'file', 'image', 'creatable-select', 'phone'] as const) {
      expect(fieldError({ key: 'x', type, required: false }, undefined)).toBeNull();
    }
  });

  it.each(['text', 'time', 'textarea'] as const)('%s needs non-empty text', (type) => {
    expect(fieldError(req(type), '')).toBe('Debes llenar este campo.');
    expect(fieldError(req(type), '   ')).toBe('Debes llenar este campo.');
    expect(fieldError(req(type), null)).toBe('Debes llenar este campo.');
    expect(fieldError(req(type), 'hola')).toBeNull();
  });

  it.each(['date', 'datetime-local'] as const)('%s needs a valid date', (type) => {
    expect(fieldError(req(type), '')).toBe('Debes llenar este campo.');
    expect(fieldError(req(type), 'no es fecha')).toBe('Debes llenar este campo.');
    expect(fieldError(req(type), new Date('invalid'))).toBe('Debes llenar este campo.');
    expect(fieldError(req(type), type === 'date' ? '1990-05-01' : '2026-01-02T10:30')).toBeNull();
    expect(fieldError(req(type), new Date())).toBeNull();
  });

  it('number needs a numeric value and rejects negatives', () => {
    expect(fieldError(req('number'), '')).toBe('Debes llenar este campo.');
    expect(fieldError(req('number'), 'abc')).toBe('Debes llenar este campo.');
    expect(fieldError(req('number'), -1)).toBe('Debes llenar este campo.');
    expect(fieldError(req('number'), '-3')).toBe('Debes llenar este campo.');
    expect(fieldError(req('number'), Number.NaN)).toBe('Debes llenar este campo.');
    expect(fieldError(req('number'), 0)).toBeNull();
    expect(fieldError(req('number'), '12.5')).toBeNull();
  });

  it('phone needs a valid phone', () => {
    expect(fieldError(req('phone'), '')).toBe('Debes llenar este campo.');
    expect(fieldError(req('phone'), '12ab')).toBe('El formato del teléfono no es correcto.');
    expect(fieldError(req('phone'), '5512345678')).toBeNull();
    expect(fieldError(req('phone'), '(55) 1234-5678')).toBe('El formato del teléfono no es correcto.');
    expect(fieldError(req('phone'), '(551) 234-5678')).toBeNull();
  });

  it('select needs a non-null value and false counts', () => {
    expect(fieldError(req('select'), null)).toBe('Debes seleccionar una opción.');
    expect(fieldError(req('select'), undefined)).toBe('Debes seleccionar una opción.');
    expect(fieldError(req('select'), '')).toBe('Debes seleccionar una opción.');
    expect(fieldError(req('select'), false)).toBeNull();
    expect(fieldError(req('select'), 0)).toBeNull();
    expect(fieldError(req('select'), 'Instagram')).toBeNull();
  });

  it('boolean needs an answer, false included', () => {
    expect(fieldError(req('boolean'), undefined)).toBe('Debes seleccionar una opción.');
    expect(fieldError(req('boolean'), false)).toBeNull();
    expect(fieldError(req('boolean'), true)).toBeNull();
  });

  it('creatable-select needs a non-empty array', () => {
    expect(fieldError(req('creatable-select'), [])).toBe('Debes seleccionar una opción.');
    expect(fieldError(req('creatable-select'), 'a')).toBe('Debes seleccionar una opción.');
    expect(fieldError(req('creatable-select'), ['yoga'])).toBeNull();
  });

  it.each(['file', 'image'] as const)('%s needs a value, a file object or non-empty text', (type) => {
    expect(fieldError(req(type), undefined)).toBe('Debes cargar el archivo solicitado.');
    expect(fieldError(req(type), null)).toBe('Debes cargar el archivo solicitado.');
    expect(fieldError(req(type), '')).toBe('Debes cargar el archivo solicitado.');
    expect(fieldError(req(type), 12)).toBeNull();
    expect(fieldError(req(type), { file_id: 3, src: '/files/a.png' })).toBeNull();
    expect(fieldError(req(type), new Blob(['x']))).toBeNull();
    expect(fieldError(req(type), '/files/a.png')).toBeNull();
  });
});

describe('validateForm', () => {
  const fields: ValidatableField[] = [
    { key: 'reason', label: 'Motivo', type: 'select', required: true, step: 1, order: 0 },
    { key: 'reason_other', label: 'Otro motivo', type: 'text', required: true, step: 1, order: 1, precondition: { key: 'reason', value: 'Otro' } },
    { key: 'birthdate', label: 'Fecha de nacimiento', type: 'date', required: true, step: 0, order: 2 },
    { key: 'name', label: 'Nombre', type: 'text', required: true, step: 0, order: 1 },
    { key: 'instagram', label: 'Instagram', type: 'text', required: false, step: 0, order: 3 },
  ];

  it('passes when every shown required field is filled; optional ones may be empty', () => {
    const result = validateForm(fields, { reason: 'Amigos', birthdate: '1990-01-01', name: 'Ana' });
    expect(result).toEqual({ ok: true, errors: {}, pending: [], summary: null });
  });

  it("names the field when only one fails: 'Revisa el campo: ' + label", () => {
    const result = validateForm(fields, { reason: 'Amigos', birthdate: '1990-01-01', name: ' ' });
    expect(result.ok).toBe(false);
    expect(result.errors).toEqual({ name: 'Debes llenar este campo.' });
    expect(result.summary).toBe('Revisa el campo: Nombre');
  });

  it('sorts pending fields by step then order and gives the general summary for several', () => {
    const result = validateForm(fields, {});
    expect(result.pending.map((f) => f.key)).toEqual(['name', 'birthdate', 'reason']);
    expect(result.summary).toBe('Revisa los campos faltantes o inválidos.');
    expect(result.errors.reason).toBe('Debes seleccionar una opción.');
  });

  it('validates a field with a precondition only when it is shown', () => {
    const base = { birthdate: '1990-01-01', name: 'Ana' };
    expect(validateForm(fields, { ...base, reason: 'Amigos' }).ok).toBe(true);
    const other = validateForm(fields, { ...base, reason: 'Otro' });
    expect(other.errors).toEqual({ reason_other: 'Debes llenar este campo.' });
    expect(other.summary).toBe('Revisa el campo: Otro motivo');
  });
});

describe('the address form (form 6)', () => {
  it('requires the nested city, state and country with their own alerts', () => {
    const result = validateAddress({ street: 'Reforma', city: '', state: null });
    expect(result.errors).toEqual({
      'address.city': 'Debes agregar tu ciudad.',
      'address.state': 'Debes agregar tu estado.',
      'address.country': 'Debes agregar tu país.',
    });
    expect(result.summary).toBe('Revisa los campos faltantes o inválidos.');
  });

  it('accepts an address with only the required fields', () => {
    expect(validateAddress({ city: 'CDMX', state: 'CDMX', country: 'México' }).ok).toBe(true);
    expect(validateAddress(undefined).pending).toHaveLength(3);
  });

  it("names one missing field and leaves the optional ones '(Opcional)'", () => {
    const result = validateForm(addressFormFields, { address: { city: 'Puebla', state: 'Puebla' } }, { form_id: ADDRESS_FORM_ID });
    expect(result.errors).toEqual({ 'address.country': 'Debes agregar tu país.' });
    expect(result.summary).toBe('Revisa el campo: País');
    expect(addressFormFields.filter((f) => !f.required).map(fieldLabel)).toContain('Colonia (Opcional)');
  });

  it('uses the address alerts for plain keys of form 6 too, and generic messages elsewhere', () => {
    const cityField: ValidatableField = { key: 'city', label: 'Ciudad', type: 'text', required: true };
    expect(validateForm([cityField], {}, { form_id: ADDRESS_FORM_ID }).errors.city).toBe('Debes agregar tu ciudad.');
    expect(validateForm([cityField], {}).errors.city).toBe('Debes llenar este campo.');
    expect(validateForm([cityField], {}, { object: 'address' }).errors.city).toBe('Debes agregar tu ciudad.');
  });
});

describe('custom fields', () => {
  it('validates only the fields declared for the object type', () => {
    const customFields = [
      { object: 'customer', key: 'emergency_phone', label: 'Teléfono de emergencia', type: 'phone' as const, required: true },
      { object: 'instructor', key: 'music', label: 'Música', type: 'text' as const, required: true },
    ];
    const result = validateCustomFields(customFields, 'customer', {});
    expect(Object.keys(result.errors)).toEqual(['emergency_phone']);
    expect(result.summary).toBe('Revisa el campo: Teléfono de emergencia');
  });
});
