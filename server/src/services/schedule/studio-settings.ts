import { configMap, type AppConfigMap } from '@estudio/core';
import { preparedStatement } from '@estudio/db/prepared';
import { app_config } from '@estudio/db/schema/app-config';
import type { Db } from '../../db.ts';

/*
 * Built once (db/src/prepared.ts): nearly every request reads the settings,
 * and drizzle built this statement's text and mapping on each.
 * They are read each time, not kept: app_config is outside the change log,
 * so only the database knows when they change.
 */
const settingsStatement = preparedStatement((db) => db.select({ key: app_config.key, value: app_config.value }).from(app_config).prepare('studio_settings'));

/** The last rows read and their map: the same rows are not checked again value by value (configMap). */
let last: { text: string; map: AppConfigMap } | null = null;

/** The studio's settings (stored values over the defaults), as the booking rules read them. */
export async function loadStudioSettings(db: Db): Promise<AppConfigMap> {
  const rows = await settingsStatement(db);
  const text = rows.map((row) => `${row.key}\u0000${row.value}`).join('\u0001');
  if (last?.text !== text) last = { text, map: configMap(rows) };
  // A copy: a caller may set a key on its map without touching the next caller's.
  return { ...last.map };
}
