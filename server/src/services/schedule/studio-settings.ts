import { configMap, type AppConfigMap } from '@estudio/core';
import { app_config } from '@estudio/db/schema/app-config';
import type { Db } from '../../db.ts';

/** The studio's settings (stored values over the defaults), as the booking rules read them. */
export async function loadStudioSettings(db: Db): Promise<AppConfigMap> {
  const rows = await db.select({ key: app_config.key, value: app_config.value }).from(app_config);
  return configMap(rows);
}
