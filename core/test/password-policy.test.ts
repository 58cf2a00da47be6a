import { describe, expect, it } from 'vitest';
import { appConfigDefaults, checkPassword, passwordPolicyFromConfig, passwordRuleTexts } from '../src/index.ts';

describe('password policy', () => {
  it('asks for eight characters by default and rejects seven', () => {
    expect(checkPassword('mangos12')).toEqual([]);
    expect(checkPassword('mangos1')).toEqual(['minLength']);
    expect(passwordPolicyFromConfig(appConfigDefaults).minLength).toBe(8);
  });

  it('never goes below eight, whatever password_min_length says', () => {
    for (const setting of ['0', '1', '6', '']) {
      const policy = passwordPolicyFromConfig({ password_min_length: setting });
      expect(checkPassword('x', policy)).toContain('minLength');
      expect(checkPassword('Clave12', policy)).toEqual(['minLength']);
      expect(passwordRuleTexts.minLength(policy)).toBe('La contraseña debe tener al menos 8 caracteres.');
    }
    // Raising it still works.
    expect(checkPassword('Clave1234', passwordPolicyFromConfig({ password_min_length: '12' }))).toEqual(['minLength']);
    // Even a policy object built by hand cannot go below the floor.
    expect(checkPassword('a1b2c3', { minLength: 1 })).toEqual(['minLength']);
  });

  it('refuses the most common passwords, Spanish ones included, without regard to case or accents', () => {
    for (const password of ['123456', '12345678', '123456789', 'password', 'Password1', 'qwerty', 'qwerty123', 'contraseña', 'CONTRASEÑA', 'contrasena', 'Pilates123', 'estudio123', ' iloveyou ', 'aaaaaaaaaa']) {
      expect(checkPassword(password), password).toContain('common');
    }
    expect(passwordRuleTexts.common(passwordPolicyFromConfig({}))).toBe('Esa contraseña es muy común y fácil de adivinar. Elige otra.');
    expect(checkPassword('Demo1234!')).toEqual([]);
    expect(checkPassword('Ballena azul 7')).toEqual([]);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(checkPassword('ñandú😀xyz')).toEqual([]);
    expect(checkPassword('😀🙂😀🙂😀🙂😀')).toEqual(['minLength']);
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

  it('falls back to the floor when the setting is empty or malformed, and ignores a maximum below the minimum', () => {
    expect(passwordPolicyFromConfig({ password_min_length: '' }).minLength).toBe(8);
    expect(passwordPolicyFromConfig({ password_min_length: 'ocho' }).minLength).toBe(8);
    expect(passwordPolicyFromConfig({ password_min_length: '10', password_max_length: '4' }).maxLength).toBeUndefined();
  });
});
