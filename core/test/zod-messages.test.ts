import { describe, expect, it } from 'vitest';
import { addressCreateInput, customerSignupInput, customerUpdateInput, email, fieldLabels, fieldRefusal, maxLengthOf, readFieldRefusal, z } from '../src/index.ts';

/** zod's own Spanish locale: comparison signs, 'se esperaba', type names ('texto', 'nulo'). */
const libraryWords = /<=|>=|se esperaba|Demasiado|Entrada inválida|Llave|Cadena inválida|recibido|Inválido/;

const firstMessage = (schema: z.ZodType, input: unknown) => schema.safeParse(input).error?.issues[0]?.message;

describe('validation messages are written for people', () => {
  it("a text over its limit says how long it may be, not zod's 'Demasiado grande: se esperaba que texto tuviera <=100 caracteres'", () => {
    const message = firstMessage(customerUpdateInput, { name: 'a'.repeat(101) });
    expect(message).toBe('Puede tener hasta 100 caracteres.');
  });

  it('a missing value asks for it; a wrong kind names what is expected', () => {
    expect(firstMessage(z.object({ city: z.string() }), {})).toBe('Debes llenar este campo.');
    expect(firstMessage(z.string().min(1), '')).toBe('Debes llenar este campo.');
    expect(firstMessage(z.number(), 'x')).toBe('Debe ser un número.');
    expect(firstMessage(z.string().min(8), 'abc')).toBe('Debe tener al menos 8 caracteres.');
    expect(firstMessage(z.number().int().max(5), 9)).toBe('Debe ser como máximo 5.');
    expect(firstMessage(z.number().positive(), 0)).toBe('Debe ser mayor que 0.');
    expect(firstMessage(z.array(z.string()).max(2), ['a', 'b', 'c'])).toBe('Puede tener hasta 2 elementos.');
    expect(firstMessage(z.enum(['a', 'b']), 'c')).toBe('Elige una de las opciones.');
    expect(firstMessage(z.strictObject({}), { extra: 1 })).toBe('Este campo no existe en esta operación.');
    expect(firstMessage(z.url(), 'nada')).toBe('La dirección web no es válida.');
  });

  it('no issue of any kind shows the library’s words', () => {
    const cases: [z.ZodType, unknown][] = [
      [z.string(), 5],
      [z.string().max(3), 'abcd'],
      [z.string().length(4), 'abc'],
      [z.number().min(1), 0],
      [z.number().multipleOf(5), 3],
      [z.boolean(), 'sí'],
      [z.date(), 'ayer'],
      [z.literal('x'), 'y'],
      [z.union([z.string(), z.number()]), true],
      [z.record(z.string().regex(/^a/), z.number()), { b: 1 }],
      [z.string().regex(/^\d+$/), 'abc'],
      [z.iso.date(), '2026-13-40'],
      [z.object({ a: z.number() }), { a: null }],
      [z.string().refine((v) => v === 'ok'), 'no'],
      [z.set(z.string()).min(2), new Set(['a'])],
    ];
    for (const [schema, input] of cases) {
      const message = firstMessage(schema, input);
      expect(message, String(input)).toBeTruthy();
      expect(message, String(input)).not.toMatch(libraryWords);
    }
  });

  it("the schemas' own messages still win", () => {
    expect(firstMessage(email, 'no-es-correo')).toBe('El correo electrónico no es válido.');
    expect(firstMessage(customerUpdateInput, { name: ' ' })).toBe('Debes escribir tu nombre.');
  });
});

describe('maxLengthOf: the limit an input shares with the server', () => {
  it('reads through optional, nullable and pipe wrappers', () => {
    expect(maxLengthOf(customerUpdateInput.shape.name)).toBe(100);
    expect(maxLengthOf(customerUpdateInput.shape.signup_reason_other)).toBe(500);
    expect(maxLengthOf(addressCreateInput.shape.zip_code)).toBe(20);
    expect(maxLengthOf(customerSignupInput.shape.email)).toBe(254);
    expect(maxLengthOf(z.string())).toBeUndefined();
    expect(maxLengthOf(z.number())).toBeUndefined();
  });

  it('the limit it reports is the one the schema enforces', () => {
    const limit = maxLengthOf(addressCreateInput.shape.street) ?? 0;
    expect(addressCreateInput.safeParse({ street: 'a'.repeat(limit) }).success).toBe(true);
    expect(addressCreateInput.safeParse({ street: 'a'.repeat(limit + 1) }).success).toBe(false);
  });
});

describe('a refusal that names its field: the key is for API clients, the label for people', () => {
  it("reads 'Revisa el campo last_name: …' as the message under the field, or with the field's label", () => {
    const message = fieldRefusal('last_name', 'Puede tener hasta 100 caracteres.');
    expect(message).toBe('Revisa el campo last_name: Puede tener hasta 100 caracteres.');
    expect(readFieldRefusal(message, 'last_name')).toEqual({ own: 'Puede tener hasta 100 caracteres.', alone: 'Apellidos: Puede tener hasta 100 caracteres.' });
    expect(readFieldRefusal(fieldRefusal('address.city', 'Debes llenar este campo.'), 'address.city').alone).toBe('Ciudad: Debes llenar este campo.');
  });

  it('a field without a label says to check the data, never the key', () => {
    const { alone } = readFieldRefusal(fieldRefusal('smtp_pass', 'Este campo no existe en esta operación.'), 'smtp_pass');
    expect(alone).toBe('Revisa tus datos: Este campo no existe en esta operación.');
    expect(alone).not.toContain('smtp_pass');
  });

  it('a domain message that names its field is already for people', () => {
    expect(readFieldRefusal('Ya existe una cuenta con ese número de teléfono', 'phone')).toEqual({ own: 'Ya existe una cuenta con ese número de teléfono', alone: 'Ya existe una cuenta con ese número de teléfono' });
  });

  it('a form names its fields in the order it shows them, with the words of the refusals', () => {
    const labels = fieldLabels(['city', 'last_name'] as const);
    expect(Object.entries(labels)).toEqual([['city', 'Ciudad'], ['last_name', 'Apellidos']]);
  });
});
