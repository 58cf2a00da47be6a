import { describe, expect, it } from 'vitest';
import { customerUpdateInput, isValidPhone, normalizePhone, phonePrefixDropped, whatsappRecipient } from '../src/index.ts';

describe('phone', () => {
  it('keeps digits only and at most ten', () => {
    expect(normalizePhone('(55) 1234-5678')).toBe('5512345678');
    expect(normalizePhone('55 1234 5678 99')).toBe('5512345678');
    expect(phonePrefixDropped('55 1234 5678 99')).toBe(false);
    expect(normalizePhone('abc')).toBe('');
  });

  it("recognises Mexico's country code instead of cutting the number (+52 (55) 4444-3333 was saved as 5255444433)", () => {
    for (const typed of ['+52 (55) 4444-3333', '52 55 4444 3333', '0052 55 4444 3333', '+52 1 55 4444 3333', '044 55 4444 3333', '01 55 4444 3333']) {
      expect(normalizePhone(typed), typed).toBe('5544443333');
      expect(phonePrefixDropped(typed), typed).toBe(true);
    }
    expect(phonePrefixDropped('55 4444 3333')).toBe(false);
    expect(customerUpdateInput.parse({ phone: '+52 (55) 4444-3333' }).phone).toBe('5544443333');
  });

  it('keeps a number being typed with its prefix whole until it is complete, one digit at a time', () => {
    let field = '';
    for (const key of '+52 (55) 4444-3333') field = normalizePhone(field + key);
    expect(field).toBe('5544443333');
    field = '';
    for (const key of '044 55 4444 3333') field = normalizePhone(field + key);
    expect(field).toBe('5544443333');
  });

  it('refuses a foreign number rather than cutting it into a Mexican one', () => {
    expect(normalizePhone('+1 415 555 0100')).toBe('14155550100');
    expect(customerUpdateInput.safeParse({ phone: '+1 415 555 0100' }).error?.issues[0]?.message).toBe('El formato del teléfono no es correcto.');
    expect(customerUpdateInput.safeParse({ phone: '0044 20 7946 0958' }).success).toBe(false);
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

describe('whatsappRecipient (E.164 digits for the WhatsApp Cloud API, Mexico\'s rules)', () => {
  it('adds 52 to ten national digits, whatever the separators', () => {
    expect(whatsappRecipient('5512345678')).toBe('525512345678');
    expect(whatsappRecipient('(55) 1234-5678')).toBe('525512345678');
    expect(whatsappRecipient('55.1234.5678')).toBe('525512345678');
  });

  it('keeps 52 + 10 and drops the old mobile 1 after 52', () => {
    expect(whatsappRecipient('525512345678')).toBe('525512345678');
    expect(whatsappRecipient('+52 55 1234 5678')).toBe('525512345678');
    expect(whatsappRecipient('5215512345678')).toBe('525512345678');
    expect(whatsappRecipient('+52 1 55 1234 5678')).toBe('525512345678');
  });

  it('drops the old national prefixes 044, 045 and 01', () => {
    expect(whatsappRecipient('044 55 1234 5678')).toBe('525512345678');
    expect(whatsappRecipient('0453312345678')).toBe('523312345678');
    expect(whatsappRecipient('01 81 1234 5678')).toBe('528112345678');
  });

  it('keeps another country written with + (8 to 15 digits)', () => {
    expect(whatsappRecipient('+1 (512) 555-0100')).toBe('15125550100');
    expect(whatsappRecipient('+34 612 345 678')).toBe('34612345678');
    expect(whatsappRecipient('0034612345678')).toBe('34612345678');
  });

  it('refuses what cannot be a WhatsApp number', () => {
    for (const phone of ['', '12345', '551234567', '55123456789', '+52 55 1234', '+1234567', '+1234567890123456', 'teléfono', '52123456789']) {
      expect(whatsappRecipient(phone), phone).toBeNull();
    }
  });
});
