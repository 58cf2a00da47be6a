import { describe, expect, it } from 'vitest';
import {
  appConfigChangeInStep,
  appConfigProblem,
  configMap,
  formatDateTime,
  isValidAppConfigValue,
  offsetTimeZone,
  parseTimezoneOffset,
  standardOffsetHours,
  studioTimeZone,
} from '../../src/index.ts';

/** Decision 030: the studio's zone from `timezone`, else the spec's `timezone_offset`. */
const sevenThirtyInMexicoCity = new Date('2026-11-25T13:30:00Z');

describe('the studio time zone', () => {
  it('is the IANA zone when one is set: the offset does not override it', () => {
    expect(studioTimeZone({ timezone: 'America/Tijuana', timezone_offset: '6' })).toBe('America/Tijuana');
    expect(studioTimeZone(configMap([]))).toBe('America/Mexico_City');
  });

  it('follows timezone_offset when no zone is set: 7 hours behind UTC shows 06:30 for a 07:30 Mexico City class', () => {
    const tz = studioTimeZone(configMap([{ key: 'timezone', value: '' }, { key: 'timezone_offset', value: '7' }]));
    expect(tz).toBe('Etc/GMT+7');
    expect(formatDateTime(sevenThirtyInMexicoCity, tz)).toBe('25 nov 2026 06:30');
    expect(formatDateTime(sevenThirtyInMexicoCity, studioTimeZone({ timezone: '', timezone_offset: '-1' }))).toBe('25 nov 2026 14:30');
    expect(formatDateTime(sevenThirtyInMexicoCity, studioTimeZone({ timezone: '', timezone_offset: '0' }))).toBe('25 nov 2026 13:30');
  });

  it('falls back to Mexico City (the spec default of 6 hours) when neither reads', () => {
    expect(studioTimeZone({ timezone: '' })).toBe('America/Mexico_City');
    expect(studioTimeZone({ timezone: 'Mars/Olympus', timezone_offset: 'seis' })).toBe('America/Mexico_City');
    expect(studioTimeZone({})).toBe('America/Mexico_City');
  });

  it("reads the spec's offset: whole hours behind UTC, 12 to -14", () => {
    expect(['6', '-5', '0', '12', '-14', ' 8 '].map(parseTimezoneOffset)).toEqual([6, -5, 0, 12, -14, 8]);
    for (const bad of ['13', '-15', '5.5', '+6', '6h', '', 'seis', '-', '06:00']) expect(parseTimezoneOffset(bad), bad).toBeNull();
    expect([6, -5, 0].map(offsetTimeZone)).toEqual(['Etc/GMT+6', 'Etc/GMT-5', 'Etc/GMT']);
  });

  it("a zone's standard offset: winter hours for daylight saving, null when not whole hours", () => {
    expect(standardOffsetHours('America/Mexico_City')).toBe(6);
    expect(standardOffsetHours('America/Tijuana')).toBe(8);
    expect(standardOffsetHours('America/Cancun')).toBe(5);
    expect(standardOffsetHours('Europe/Madrid')).toBe(-1);
    expect(standardOffsetHours('Asia/Kolkata')).toBeNull();
  });

  it('a zone with daylight saving keeps the wall clock: 07:00 in Tijuana in July and in January', () => {
    const tz = studioTimeZone({ timezone: 'America/Tijuana', timezone_offset: '8' });
    expect(formatDateTime(new Date('2026-07-01T14:00:00Z'), tz)).toBe('01 jul 2026 07:00');
    expect(formatDateTime(new Date('2026-01-15T15:00:00Z'), tz)).toBe('15 ene 2026 07:00');
  });
});

describe('saving the time-zone settings (decision 030)', () => {
  const stored = { timezone: 'America/Mexico_City', timezone_offset: '6' };

  it('refuses malformed or out-of-range offsets and unknown zones, in Spanish', () => {
    for (const value of ['13', '-15', '5.5', '+6', '', 'seis']) {
      expect(isValidAppConfigValue('timezone_offset', value), value).toBe(false);
      expect(appConfigProblem([{ key: 'timezone_offset', value }], stored)).toEqual({
        key: 'timezone_offset',
        message:
          'El valor de «Diferencia horaria (horas)» no es válido: debe ser el número de horas completas que el estudio va detrás de la hora universal (UTC), de -14 a 12; por ejemplo 6 para la Ciudad de México.',
      });
    }
    expect(appConfigProblem([{ key: 'timezone', value: 'Mars/Olympus' }], stored)?.message).toBe(
      'El valor de «Zona horaria» no es válido: debe ser una zona horaria válida, por ejemplo America/Mexico_City.',
    );
    expect(appConfigProblem([{ key: 'timezone', value: 'Asia/Kolkata' }], stored)).toMatchObject({ key: 'timezone', message: expect.stringContaining('horas completas') });
  });

  it('refuses a zone and an offset that disagree in one change', () => {
    const problem = appConfigProblem([{ key: 'timezone', value: 'America/Cancun' }, { key: 'timezone_offset', value: '6' }], stored);
    expect(problem).toEqual({
      key: 'timezone_offset',
      message: 'La «Diferencia horaria (horas)» no coincide con la zona horaria America/Cancun, que es de 5 horas. Escribe 5 o cambia solo uno de los dos.',
    });
    expect(appConfigProblem([{ key: 'timezone', value: 'America/Cancun' }, { key: 'timezone_offset', value: '5' }], stored)).toBeNull();
  });

  it('a new offset clears the zone, so the offset decides', () => {
    expect(appConfigChangeInStep([{ key: 'timezone_offset', value: '7' }], stored)).toEqual([
      { key: 'timezone_offset', value: '7' },
      { key: 'timezone', value: '' },
    ]);
    // A studio that never saved a zone has the default one, cleared the same way.
    expect(appConfigChangeInStep([{ key: 'timezone_offset', value: '7' }], {})).toContainEqual({ key: 'timezone', value: '' });
  });

  it("the zone's own offset saved again (a whole settings form) keeps the zone and its daylight saving", () => {
    expect(appConfigChangeInStep([{ key: 'timezone_offset', value: '8' }], { timezone: 'America/Tijuana', timezone_offset: '8' })).toEqual([{ key: 'timezone_offset', value: '8' }]);
  });

  it('a new zone writes its standard offset; clearing the zone keeps the offset', () => {
    expect(appConfigChangeInStep([{ key: 'timezone', value: 'America/Tijuana' }], stored)).toEqual([
      { key: 'timezone', value: 'America/Tijuana' },
      { key: 'timezone_offset', value: '8' },
    ]);
    expect(appConfigChangeInStep([{ key: 'timezone', value: '' }], stored)).toEqual([{ key: 'timezone', value: '' }]);
    expect(studioTimeZone(configMap([{ key: 'timezone', value: '' }, { key: 'timezone_offset', value: '6' }]))).toBe('Etc/GMT+6');
  });
});
