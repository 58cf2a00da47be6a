import { describe, expect, it } from 'vitest';
import { customerUpdateInput, isValidPhone, normalizePhone } from '../src/index.ts';

describe('phone', () => {
  it('keeps digits only and at most ten', () => {
    expect(normalizePhone('(55) 1234-5678')).toBe('5512345678');
    expect(normalizePhone('55 1234 5678 99')).toBe('5512345678');
    expect(normalizePhone('abc')).toBe('');
  });

  it('accepts the formats of the spec', () => {
    for (const phone of ['5512345678', '+(551) 234-5678', '551.234.5678', '551 234 567890']) {
      expect(isValidPhone(phone), phone).toBe(true);
    }
    for (const phone of ['12345', '55-12-34', 'teléfono']) {
      expect(isValidPhone(phone), phone).toBe(false);
    }
  });

  it('rejects a short phone on a profile save with the spec message', () => {
    const result = customerUpdateInput.safeParse({ phone: '55123' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe('El formato del teléfono no es correcto.');
  });
});
