import { describe, expect, it } from 'vitest';
import { birthdate, calendarDate, classDate, instant, todayIso, yearsFromToday } from '../src/index.ts';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) => result.error?.issues[0]?.message;

describe('the shared date schemas', () => {
  it('a birthdate is refused before 1900 and after today, naming the field in Spanish', () => {
    expect(birthdate.safeParse('1985-03-14').success).toBe(true);
    expect(birthdate.safeParse(todayIso()).success).toBe(true);
    expect(messageOf(birthdate.safeParse('0000-01-01'))).toMatch(/^La fecha de nacimiento debe estar entre el 1 de enero de 1900 y el /);
    expect(birthdate.safeParse('1899-12-31').success).toBe(false);
    expect(birthdate.safeParse(yearsFromToday(1)).success).toBe(false);
    expect(messageOf(birthdate.safeParse('14/03/1985'))).toBe('La fecha de nacimiento debe tener el formato AAAA-MM-DD.');
  });

  it('a class date is within a year back and three years ahead of today', () => {
    const date = classDate();
    expect(date.safeParse(todayIso()).success).toBe(true);
    expect(date.safeParse(yearsFromToday(3)).success).toBe(true);
    expect(messageOf(date.safeParse('9999-06-01'))).toMatch(/^La fecha de la clase debe estar entre el /);
    expect(date.safeParse(yearsFromToday(-2)).success).toBe(false);
  });

  it('any calendar date stays between 1900 and 2100', () => {
    const start = calendarDate('La fecha inicial');
    expect(start.safeParse('2026-01-05').success).toBe(true);
    expect(messageOf(start.safeParse('9999-12-01'))).toBe('La fecha inicial debe estar entre el 1 de enero de 1900 y el 31 de diciembre de 2100.');
  });

  it('an instant late on 9999-12-31 in Mexico (year 10000 in UTC) is refused', () => {
    const at = instant('La fecha de vencimiento');
    expect(at.safeParse('2026-03-14T08:00:00-06:00').success).toBe(true);
    expect(messageOf(at.safeParse('9999-12-31T23:59:59-06:00'))).toMatch(/^La fecha de vencimiento debe estar entre/);
    expect(messageOf(at.safeParse('mañana'))).toBe('La fecha de vencimiento no es válida.');
  });
});
