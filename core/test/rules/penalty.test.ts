import { describe, expect, it } from 'vitest';
import { activePenalty, configMap, consecutiveNoShows, penaltyDetailText, penaltyEndDate, penaltyThreshold } from '../../src/index.ts';

const config = configMap([]);
const now = new Date('2026-03-02T12:00:00Z');

describe('penalties', () => {
  it('counts the no-shows since the last attended class, newest first', () => {
    expect(consecutiveNoShows([])).toBe(0);
    expect(consecutiveNoShows([{ attend: false }, { attend: false }, { attend: true }, { attend: false }])).toBe(2);
    expect(consecutiveNoShows([{ attend: true }, { attend: false }])).toBe(0);
    expect(consecutiveNoShows([{ attend: false }, { attend: false }, { attend: false }])).toBe(3);
  });

  it("the customer's own threshold wins over the setting", () => {
    expect(penaltyThreshold({ unlimited_max_no_shows_for_penalty: null }, config)).toBe(3);
    expect(penaltyThreshold({ unlimited_max_no_shows_for_penalty: 5 }, config)).toBe(5);
  });

  it('no threshold when penalties are off or set to 0', () => {
    expect(penaltyThreshold({ unlimited_max_no_shows_for_penalty: 5 }, { ...config, unlimited_membership_penalties_enabled: 'false' })).toBeNull();
    expect(penaltyThreshold({ unlimited_max_no_shows_for_penalty: 0 }, config)).toBeNull();
    expect(penaltyThreshold({ unlimited_max_no_shows_for_penalty: null }, { ...config, unlimited_max_no_shows_for_penalty: '0' })).toBeNull();
  });

  it('a penalty is active from its start until its end date', () => {
    const p = { start_date: new Date('2026-03-01T00:00:00Z'), end_date: new Date('2026-03-08T00:00:00Z') };
    expect(activePenalty([p], now)).toBe(p);
    expect(activePenalty([p], p.end_date)).toBeNull();
    expect(activePenalty([{ ...p, deletedAt: now }], now)).toBeNull();
    const later = { ...p, end_date: new Date('2026-03-10T00:00:00Z') };
    expect(activePenalty([p, later], now)).toBe(later);
  });

  it('ends unlimited_penalty_days after it starts, and says so in Spanish', () => {
    const end = penaltyEndDate(now, config);
    expect(end.toISOString()).toBe('2026-03-09T12:00:00.000Z');
    expect(penaltyDetailText({ no_shows: 3, end_date: end }, 'America/Mexico_City')).toBe(
      'Acumulaste 3 inasistencias consecutivas con tu paquete ilimitado. Podrás volver a reservar a partir del 09 mar 2026.',
    );
  });
});
