import { describe, expect, it } from 'vitest';
import { canRate, configMap, ratingRefusal } from '../../src/index.ts';

const now = new Date('2026-03-02T12:00:00Z');
const past = new Date('2026-03-01T12:00:00Z');
const attended = { deletedAt: null, is_cash: false, is_paid: true, attend: true, class_date: past, class_stars: null };
const config = configMap([]);

describe('rating', () => {
  it('an attended (Exitosa) reservation may be rated once', () => {
    expect(canRate(attended, config, now)).toBe(true);
    expect(ratingRefusal({ ...attended, class_stars: 5 }, config, now)).toBe('rating/already-rated');
  });

  it('not for a no-show, a cancelled or an unpaid cash reservation', () => {
    expect(ratingRefusal({ ...attended, attend: false }, config, now)).toBe('rating/not-attended');
    expect(ratingRefusal({ ...attended, deletedAt: past }, config, now)).toBe('rating/not-attended');
    expect(ratingRefusal({ ...attended, is_cash: true, is_paid: false }, config, now)).toBe('rating/not-attended');
  });

  it('not when ratings are off', () => {
    expect(ratingRefusal(attended, { reservation_rating_enabled: 'false' }, now)).toBe('rating/disabled');
    expect(canRate(attended, { reservation_rating_enabled: 'false' }, now)).toBe(false);
  });
});
