import { describe, expect, it } from 'vitest';
import { appConfigDefaults } from '@estudio/core';
import { landingSections } from '../src/pages/public/landing/order.ts';
import { birthdayDayMonth, instagramHandle, instagramUrl } from '../src/pages/public/landing/people.ts';

describe('landing sections', () => {
  /** A studio that has written its 'Nosotros' and 'Misión' (the demo's texts, or anyone's). */
  const written = { ...appConfigDefaults, about_text: 'Somos un estudio boutique.', mission_text: 'Moverte con intención.' };

  it('shows every enabled section in its configured order', () => {
    expect(landingSections(written)).toEqual(['hero', 'about', 'mission', 'class_types', 'coaches', 'packages', 'announcements', 'schedule']);
  });

  it('sorts by <section>_order and leaves out disabled sections', () => {
    const config = { ...written, schedule_order: '0', coaches_order: '2', about_order: '9', mission_enabled: 'false', packages_enabled: '0' };
    expect(landingSections(config)).toEqual(['schedule', 'hero', 'coaches', 'class_types', 'announcements', 'about']);
  });

  it('puts a section with an empty or unreadable order last, keeping the spec order among ties', () => {
    const config = { ...written, hero_order: '', about_order: 'primero' };
    expect(landingSections(config).slice(-2)).toEqual(['hero', 'about']);
  });

  it("leaves out a new studio's 'Nosotros' and 'Misión' until they have a text or a picture", () => {
    expect(landingSections(appConfigDefaults)).toEqual(['hero', 'class_types', 'coaches', 'packages', 'announcements', 'schedule']);
    expect(landingSections({ ...appConfigDefaults, mission_image: '/files/mision.jpg' })).toContain('mission');
    expect(landingSections({ ...appConfigDefaults, about_text: '   ' })).not.toContain('about');
  });
});

describe('instructor details', () => {
  it('shows the birthdate as day and month only', () => {
    expect(birthdayDayMonth('1989-03-14')).toBe('14 de marzo');
    expect(birthdayDayMonth('1990-12-01')).toBe('1 de diciembre');
    // The public API's form, without the year.
    expect(birthdayDayMonth('--03-14')).toBe('14 de marzo');
    expect(birthdayDayMonth(null)).toBeNull();
    expect(birthdayDayMonth('sin fecha')).toBeNull();
  });

  it('links an instagram handle or URL', () => {
    expect(instagramUrl('@vale.montes.yoga')).toBe('https://instagram.com/vale.montes.yoga');
    expect(instagramUrl('https://instagram.com/vale')).toBe('https://instagram.com/vale');
    expect(instagramHandle('https://www.instagram.com/vale/')).toBe('@vale');
    expect(instagramHandle('vale')).toBe('@vale');
  });
});
