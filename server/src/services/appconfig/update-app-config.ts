import { sql } from 'drizzle-orm';
import { app_config } from '@estudio/db/schema/app-config';
import { appConfigDefaults, DomainError, type AppConfigEntry } from '@estudio/core';
import type { Db } from '../../db.ts';

/**
 * Saves admin changes in one transaction: either every value is stored or
 * none is. Only keys the product knows are accepted.
 */
export async function updateAppConfig(db: Db, entries: readonly AppConfigEntry[], updatedBy: number | null): Promise<void> {
  for (const { key } of entries) {
    if (!Object.hasOwn(appConfigDefaults, key)) throw new DomainError('appconfig/unknown-key');
  }
  await db.transaction(async (tx) => {
    for (const { key, value } of entries) {
      await tx
        .insert(app_config)
        .values({ key, value, updated_by: updatedBy })
        .onConflictDoUpdate({ target: app_config.key, set: { value, updated_by: updatedBy, updatedAt: sql`now()` } });
    }
  });
}
