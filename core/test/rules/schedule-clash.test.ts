import { describe, expect, it } from 'vitest';
import { classesOverlap, scheduleClashMessage, templateClashMessage } from '../../src/rules/schedule-clash.ts';

const at = (iso: string) => new Date(iso);
const tz = 'America/Mexico_City';

describe('classes in the way', () => {
  it('overlap when each starts before the other ends; one ending as the other starts does not', () => {
    const seven = { start: at('2026-12-08T13:00:00Z'), minutes: 60 };
    expect(classesOverlap(seven, { start: at('2026-12-08T13:30:00Z'), minutes: 45 })).toBe(true);
    expect(classesOverlap(seven, { start: at('2026-12-08T12:30:00Z'), minutes: 31 })).toBe(true);
    expect(classesOverlap(seven, { start: at('2026-12-08T12:00:00Z'), minutes: 60 })).toBe(false);
    expect(classesOverlap(seven, { start: at('2026-12-08T14:00:00Z'), minutes: 60 })).toBe(false);
    // One inside the other.
    expect(classesOverlap(seven, { start: at('2026-12-08T13:10:00Z'), minutes: 10 })).toBe(true);
  });

  it('name the class in the way on the studio’s clock: the place’s, or the coach’s, and how many more', () => {
    const clash = { className: 'Yoga', start: at('2026-12-08T13:00:00Z'), minutes: 60, locationName: 'Roma Norte', coachName: null };
    expect(scheduleClashMessage(clash, tz)).toBe('Se cruza con Yoga del martes 8 de diciembre, 07:00–08:00, en Roma Norte. Si es a propósito, confírmalo para guardarla de todos modos.');
    expect(scheduleClashMessage({ ...clash, coachName: 'Valeria Montes' }, tz, 1)).toBe(
      'Valeria Montes ya da Yoga el martes 8 de diciembre, 07:00–08:00, en Roma Norte. Y se cruza con 1 clase más. Si es a propósito, confírmalo para guardarla de todos modos.',
    );
    expect(scheduleClashMessage(clash, tz, 7)).toContain(' Y se cruza con 7 clases más. ');
  });

  it('say which two times of a weekly template run into each other', () => {
    expect(templateClashMessage(at('2026-12-08T13:00:00Z'), at('2026-12-08T13:30:00Z'), tz)).toBe(
      'Dos horarios de la plantilla se cruzan: el martes 8 de diciembre a las 07:00 y a las 07:30. Si es a propósito, confírmalo para guardarla de todos modos.',
    );
    expect(templateClashMessage(at('2026-12-09T05:30:00Z'), at('2026-12-09T06:00:00Z'), tz)).toBe(
      'Dos horarios de la plantilla se cruzan: el martes 8 de diciembre, 23:30 y el miércoles 9 de diciembre, 00:00. Si es a propósito, confírmalo para guardarla de todos modos.',
    );
  });
});
