import dayjs from 'dayjs';
import { app_config, type Db } from '@estudio/db';
import { configMap, localDate, studioTimeZone, type AppConfigMap } from '@estudio/core';

const settingsRead = new WeakMap<Db, Promise<AppConfigMap>>();

/**
 * The replica's copy of the studio's settings, read once and kept until the desk copies them again
 * (forgetReplicaSettings): every scan reads the check-in window and the time zone, and they change every few minutes
 * at most.
 */
export function replicaSettings(db: Db): Promise<AppConfigMap> {
  let read = settingsRead.get(db);
  if (!read) {
    read = db
      .select({ key: app_config.key, value: app_config.value })
      .from(app_config)
      .then((rows) => configMap(rows));
    settingsRead.set(db, read);
    read.catch(() => settingsRead.delete(db));
  }
  return read;
}

/** The replica's settings were written: the next read takes them from the table. */
export function forgetReplicaSettings(db: Db): void {
  settingsRead.delete(db);
}

/**
 * The studio's time zone as the replica's copy of its settings says (core's
 * studioTimeZone: `timezone`, else the spec's `timezone_offset`; Mexico City
 * until the first copy), whatever the zone of the machine's clock.
 */
export async function replicaTimeZone(db: Db): Promise<string> {
  return studioTimeZone(await replicaSettings(db));
}

export interface StudioDay {
  /** YYYY-MM-DD in the studio's zone. */
  date: string;
  start: Date;
  end: Date;
}

/** The studio's calendar day holding `at` (or the given YYYY-MM-DD), as a half-open range of instants. */
export function studioDay(at: Date | string, tz: string): StudioDay {
  const start = (typeof at === 'string' ? dayjs.tz(at, tz) : dayjs(at).tz(tz)).startOf('day');
  return { date: start.format('YYYY-MM-DD'), start: start.toDate(), end: start.add(1, 'day').toDate() };
}

/** YYYY-MM-DD of an instant in the studio's zone. */
export const studioDate = (at: Date, tz: string): string => localDate(at, tz);

export const iso = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);
