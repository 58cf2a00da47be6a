import { describe, expect, it } from 'vitest';
import { appConfigDefaults, appConfigProblem, appConfigValueText, configMap, isValidAppConfigValue, studioTimeZone } from '../src/index.ts';

describe('app-config values', () => {
  it('every default value fits its own setting', () => {
    expect(Object.entries(appConfigDefaults).filter(([key, value]) => !isValidAppConfigValue(key, value))).toEqual([]);
  });

  it('names the setting in Spanish, never by its key', () => {
    expect(appConfigProblem([{ key: 'timezone', value: 'Mars/Olympus' }], {})).toEqual({
      key: 'timezone',
      message: 'El valor de «Zona horaria» no es válido: debe ser una zona horaria válida, por ejemplo America/Mexico_City.',
    });
    expect(appConfigProblem([{ key: 'password_min_length', value: '0' }], {})?.message).toBe(
      'El valor de «Longitud mínima de contraseña» no es válido: debe ser un número entero entre 8 y 256.',
    );
  });

  it('checks each kind of value', () => {
    const bad: [string, string][] = [
      ['timezone', '   '],
      ['timezone_offset', '14'],
      ['waitlist_enabled', 'sí'],
      ['primary', 'rosa'],
      ['primary', '#d6336'],
      ['email', 'hola@'],
      ['facebook', 'javascript:alert(1)'],
      ['whatsapp', '55-1234'],
      ['cancel_timeframe_unit', 'weeks'],
      ['reservation_timeframe_hours', '-1'],
      ['reservation_timeframe_hours', '1.5'],
      ['hero_order', '0'],
      ['card_hold_minutes', '0'],
      ['signup_fee', 'inscripción'],
      ['firebaseConfig', '[]'],
      ['business_name', '   '],
    ];
    for (const [key, value] of bad) expect(isValidAppConfigValue(key, value), `${key}=${value}`).toBe(false);
    const good: [string, string][] = [
      ['timezone', 'America/Tijuana'],
      ['timezone', 'UTC'],
      // No zone: timezone_offset decides (decision 030).
      ['timezone', ''],
      ['waitlist_enabled', 'false'],
      ['primary', '#1C7ED6'],
      ['email', ''],
      ['facebook', 'https://facebook.com/otro'],
      ['cancel_timeframe_unit', 'days'],
      ['password_max_length', ''],
      ['signup_fee', '12'],
      ['banner_text', 'cualquier texto'],
    ];
    for (const [key, value] of good) expect(isValidAppConfigValue(key, value), `${key}=${value}`).toBe(true);
  });

  it('refuses a maximum password length below the minimum, counting the stored values', () => {
    expect(appConfigProblem([{ key: 'password_max_length', value: '10' }], { password_min_length: '12' })?.key).toBe('password_max_length');
    expect(appConfigProblem([{ key: 'password_min_length', value: '20' }], { password_max_length: '16' })?.message).toContain('no puede ser menor');
    expect(appConfigProblem([{ key: 'password_max_length', value: '16' }], { password_min_length: '12' })).toBeNull();
  });

  it('reads a bad stored value as the default', () => {
    const map = configMap([
      { key: 'timezone', value: 'Mars/Olympus' },
      { key: 'cancel_timeframe_value', value: 'doce' },
      { key: 'banner_text', value: 'Hola' },
    ]);
    expect(studioTimeZone(map)).toBe('America/Mexico_City');
    expect(map.cancel_timeframe_value).toBe(appConfigDefaults.cancel_timeframe_value);
    expect(map.banner_text).toBe('Hola');
  });
});

describe('subscription_retry_days', () => {
  it('takes increasing days from 1 to 30, or nothing', () => {
    for (const ok of ['1,3,5', '2', '', '1, 7, 14']) expect(isValidAppConfigValue('subscription_retry_days', ok)).toBe(true);
    for (const bad of ['3,1', '0,2', '31', '1,1', 'a', '1,2,3,4,5,6,7', '1;3']) expect(isValidAppConfigValue('subscription_retry_days', bad)).toBe(false);
    expect(appConfigValueText('subscription_retry_days')).toContain('por ejemplo 1,3,5');
  });
});
