import { afterEach, describe, expect, it } from 'vitest';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { instantAtStudioWallTime, setStudioZone, studioWallTime, timeOf } from '../src/renderer/src/format.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

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

describe("the studio's wall clock is read from one formatter per zone", () => {
  afterEach(() => setStudioZone('America/Mexico_City'));

  // Every 97 minutes for a year (each minute of the hour in turn), across both of 2026's changes of hour in Tijuana,
  // and zones with odd offsets or none.
  const zones = ['America/Tijuana', 'America/Mexico_City', 'America/Cancun', 'Asia/Kathmandu', 'Australia/Lord_Howe', 'UTC'];
  const instants = Array.from({ length: 5_420 }, (_, i) => new Date(Date.UTC(2026, 0, 1) + i * 97 * 60_000 + 17_000).toISOString());

  it.each(zones)('%s: every instant of the year reads as the zone conversion of dayjs reads it', (zone) => {
    setStudioZone(zone);
    const differing = instants.filter((iso) => studioWallTime(iso) !== dayjs(iso).tz(zone).format('YYYY-MM-DD HH:mm:ss'));
    expect(differing).toEqual([]);
  });

  it('midnight reads 00, not 24, and the hour after the spring change is 03:00 in Tijuana', () => {
    setStudioZone('America/Mexico_City');
    expect(studioWallTime('2026-12-02T06:00:00Z')).toBe('2026-12-02 00:00:00');
    setStudioZone('America/Tijuana');
    // 8 March 2026, 02:00 PST does not exist: the clock goes from 01:59:59 to 03:00.
    expect(studioWallTime('2026-03-08T09:59:59Z')).toBe('2026-03-08 01:59:59');
    expect(studioWallTime('2026-03-08T10:00:00Z')).toBe('2026-03-08 03:00:00');
  });
});
