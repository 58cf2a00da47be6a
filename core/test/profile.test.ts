import { describe, expect, it } from 'vitest';
import { isProfileComplete, missingProfileFields } from '../src/index.ts';

// Shaped like the demo seed's customers: cliente@ has a full profile, nuevo@ only a name.
const mariana = { name: 'Mariana', last_name: 'López', phone: '5512340001', birthdate: '1992-04-18', instagram: '@marianalopez.fit' };
const diego = { name: 'Diego', last_name: 'Hernández', phone: null, birthdate: null };

describe('profile completeness', () => {
  it('a customer with name, last name, phone and birthdate may book', () => {
    expect(missingProfileFields(mariana)).toEqual([]);
    expect(isProfileComplete(mariana)).toBe(true);
  });

  it('lists the empty fields in form order', () => {
    expect(missingProfileFields(diego)).toEqual(['phone', 'birthdate']);
    expect(isProfileComplete(diego)).toBe(false);
  });

  it('treats blank text and absent keys as missing', () => {
    expect(missingProfileFields({ name: '  ', last_name: 'López', phone: '5512340001' })).toEqual(['name', 'birthdate']);
  });

  it('ignores the optional fields', () => {
    const withoutInstagram = { ...mariana, instagram: '' };
    expect(isProfileComplete(withoutInstagram)).toBe(true);
  });
});
