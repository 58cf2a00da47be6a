import { describe, expect, it } from 'vitest';
import { checkPassword, passwordPolicyFromConfig } from '../src/index.ts';

describe('password policy', () => {
  it('accepts six characters by default and rejects five', () => {
    expect(checkPassword('abcdef')).toEqual([]);
    expect(checkPassword('abcde')).toEqual(['minLength']);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkPassword('ñandú😀')).toEqual([]);
    expect(checkPassword('😀😀😀😀😀')).toEqual(['minLength']);
  });

  it('fails every enabled rule the password breaks', () => {
    const policy = passwordPolicyFromConfig({
      password_min_length: '8',
      password_max_length: '12',
      password_require_uppercase: 'true',
      password_require_numeric: 'true',
      password_require_non_alphanumeric: 'true',
    });
    expect(checkPassword('demo', policy)).toEqual(['minLength', 'uppercase', 'numeric', 'nonAlphanumeric']);
    expect(checkPassword('Demo1234!', policy)).toEqual([]);
    expect(checkPassword('Demo1234!Demo1234!', policy)).toEqual(['maxLength']);
  });

  it('falls back to the default minimum when the setting is empty or malformed', () => {
    expect(passwordPolicyFromConfig({ password_min_length: '' }).minLength).toBe(6);
    expect(passwordPolicyFromConfig({ password_min_length: 'ocho' }).minLength).toBe(6);
  });
});
