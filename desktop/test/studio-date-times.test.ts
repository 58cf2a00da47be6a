import { afterEach, describe, expect, it } from 'vitest';
import { instantAtStudioWallTime, setStudioZone, studioWallTime, timeOf } from '../src/renderer/src/format.ts';

/**
 * The console's date-time pickers read and write the studio's
 * wall clock: the hour an owner picks is the hour stored, whatever the zone
 * of the computer the console runs on.
 */
describe("the console's date-times are the studio's wall clock", () => {
  afterEach(() => setStudioZone('America/Mexico_City'));

  it('a picked 09:30 in Mexico City reaches the server as 09:30 with the studio offset, and reads back as 09:30', () => {
    setStudioZone('America/Mexico_City');
    const sent = instantAtStudioWallTime('2026-12-01 09:30:00');
    expect(sent).toBe('2026-12-01T09:30:00-06:00');
    expect(new Date(sent).toISOString()).toBe('2026-12-01T15:30:00.000Z');
    expect(studioWallTime('2026-12-01T15:30:00.000Z')).toBe('2026-12-01 09:30:00');
  });

  it("a studio in Tijuana keeps its own offset across the change of hour (PST, then PDT)", () => {
    setStudioZone('America/Tijuana');
    expect(instantAtStudioWallTime('2026-01-15 07:00:00')).toBe('2026-01-15T07:00:00-08:00');
    expect(instantAtStudioWallTime('2026-07-15 07:00:00')).toBe('2026-07-15T07:00:00-07:00');
    expect(studioWallTime('2026-07-15T14:00:00Z')).toBe('2026-07-15 07:00:00');
  });

  it("the computer's own zone plays no part (the process runs in UTC or anywhere else)", () => {
    setStudioZone('America/Mexico_City');
    const wall = '2026-03-10 20:15:00';
    expect(studioWallTime(instantAtStudioWallTime(wall))).toBe(wall);
  });
});

describe("the studio's times are formatted once per zone", () => {
  afterEach(() => setStudioZone('America/Mexico_City'));

  it('the same instant reads in each zone set, not in the zone it was first formatted in', () => {
    setStudioZone('America/Mexico_City');
    expect(timeOf('2026-07-15T14:00:00Z')).toBe('08:00');
    setStudioZone('America/Tijuana');
    expect(timeOf('2026-07-15T14:00:00Z')).toBe('07:00');
    setStudioZone('America/Mexico_City');
    expect(timeOf('2026-07-15T14:00:00Z')).toBe('08:00');
  });

  it('a day full of rosters formats each text once (thousands of rows redrawn stay cheap)', () => {
    setStudioZone('America/Cancun');
    const instants = Array.from({ length: 6_000 }, (_, i) => new Date(Date.UTC(2026, 11, 1, 11) + i * 60_000).toISOString());
    const first = instants.map(timeOf);
    // Past the cache's bound it starts again, and still answers the same.
    expect(instants.map(timeOf)).toEqual(first);
    expect(first[0]).toBe('06:00');
  });
});
