import { describe, expect, it } from 'vitest';
import { answerRefusal, answerText, customerFieldDefinitions, normalizeCustomerFieldValue, pendingCustomerFields } from '../../src/index.ts';

const form = (form_id: number, placement: string, fields: { key: string; label: string; type: 'text' | 'textarea' | 'select' | 'number' | 'phone' | 'date'; required: boolean; step?: number; order?: number }[]) => ({
  form_id,
  object: 'customer',
  placement,
  form_fields: fields.map((f, i) => ({ options: null, precondition: null, step: 0, order: i, ...f })),
});

const studio = customerFieldDefinitions(
  [
    form(1, 'signup', [
      { key: 'name', label: 'Nombre', type: 'text', required: true },
      { key: 'phone', label: 'Teléfono', type: 'phone', required: true },
      { key: 'shoe', label: 'Talla', type: 'number', required: true },
    ]),
    form(2, 'booking', [
      { key: 'emergency_contact', label: 'Contacto de emergencia', type: 'text', required: false },
      { key: 'health_notes', label: 'Salud', type: 'textarea', required: false },
      // Asked at sign-up already: sign-up wins.
      { key: 'shoe', label: 'Otra talla', type: 'text', required: false },
    ]),
  ],
  [
    { object: 'customer', key: 'health_notes', label: 'Salud', type: 'textarea', required: false, options: null, sensitive: true },
    { object: 'customer', key: 'shirt', label: 'Playera', type: 'select', required: false, options: [{ label: 'Chica', value: 'S' }], sensitive: false },
    { object: 'address', key: 'floor', label: 'Piso', type: 'text', required: false, options: null },
  ],
);

describe('customerFieldDefinitions: where each question is asked', () => {
  it('places each key where its form says, the first place wins, and a custom field no form places goes to Mi Información', () => {
    expect(studio.map((d) => [d.key, d.placement, d.builtIn])).toEqual([
      ['name', 'signup', true],
      ['phone', 'signup', true],
      ['shoe', 'signup', false],
      ['emergency_contact', 'booking', false],
      ['health_notes', 'booking', false],
      ['shirt', 'profile', false],
    ]);
    expect(studio.find((d) => d.key === 'health_notes')?.sensitive).toBe(true);
    expect(studio.find((d) => d.key === 'shoe')?.label).toBe('Talla');
  });
});

describe('pendingCustomerFields: what blocks booking', () => {
  const profile = { name: 'Mariana', last_name: 'López', phone: '5512340001', birthdate: '1993-09-21' };
  it('the required columns, the required questions without an answer, and the booking questions never asked', () => {
    expect(pendingCustomerFields(studio, { ...profile, phone: '' }, new Set())).toEqual(['phone', 'shoe', 'emergency_contact', 'health_notes']);
    // Asked and left empty: not pending. false and 0 are answers.
    expect(pendingCustomerFields(studio, { ...profile, shoe: 0, emergency_contact: null, health_notes: null }, new Set(['emergency_contact', 'health_notes']))).toEqual([]);
  });
});

describe('normalizeCustomerFieldValue: an answer as stored', () => {
  const def = (type: Parameters<typeof normalizeCustomerFieldValue>[0]['type'], options: { label: string; value: string }[] | null = null) => ({ type, options });
  it('keeps each type in its shape, empty as null', () => {
    expect(normalizeCustomerFieldValue(def('text'), '  hola ')).toEqual({ ok: true, value: 'hola' });
    expect(normalizeCustomerFieldValue(def('text'), '   ')).toEqual({ ok: true, value: null });
    expect(normalizeCustomerFieldValue(def('number'), '3')).toEqual({ ok: true, value: 3 });
    expect(normalizeCustomerFieldValue(def('number'), -1)).toMatchObject({ ok: false });
    expect(normalizeCustomerFieldValue(def('phone'), '+52 (55) 4444-3333')).toEqual({ ok: true, value: '5544443333' });
    expect(normalizeCustomerFieldValue(def('date'), '2026-02-30')).toMatchObject({ ok: false });
    expect(normalizeCustomerFieldValue(def('datetime-local'), '2026-02-03T07:30')).toEqual({ ok: true, value: '2026-02-03T07:30' });
    expect(normalizeCustomerFieldValue(def('time'), '25:00')).toMatchObject({ ok: false });
    expect(normalizeCustomerFieldValue(def('boolean'), false)).toEqual({ ok: true, value: false });
    expect(normalizeCustomerFieldValue(def('select', [{ label: 'Chica', value: 'S' }]), 'XL')).toEqual({ ok: false, message: 'Elige una de las opciones.' });
    expect(normalizeCustomerFieldValue(def('creatable-select'), ['a', ' a ', 'b'])).toEqual({ ok: true, value: ['a', 'b'] });
    expect(normalizeCustomerFieldValue(def('file'), '12')).toEqual({ ok: true, value: 12 });
    expect(normalizeCustomerFieldValue(def('textarea'), 'x'.repeat(2001))).toEqual({ ok: false, message: 'Puede tener hasta 2000 caracteres.' });
  });

  it('says the refusal with the question, and an answer in words for staff', () => {
    expect(answerRefusal('Talla', 'Debes llenar este campo.')).toBe('Revisa el campo: Talla. Debes llenar este campo.');
    expect(answerRefusal('¿Tu nivel?', 'Elige una de las opciones.')).toBe('Revisa el campo: ¿Tu nivel? Elige una de las opciones.');
    expect(answerText({ type: 'boolean', options: null }, true)).toBe('Sí');
    expect(answerText({ type: 'select', options: [{ label: 'Chica', value: 'S' }] }, 'S')).toBe('Chica');
    expect(answerText({ type: 'creatable-select', options: null }, ['fuerza', 'yoga'])).toBe('fuerza, yoga');
  });
});
