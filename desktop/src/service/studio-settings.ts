import { appConfigOutput } from '@estudio/core';
import { app_config } from '@estudio/db';
import type { Replica } from '@estudio/sync/client/types';
import { forgetReplicaSettings } from './time.ts';

/**
 * The studio's settings kept in the replica's app_config table (decision
 * 016): app config is not a replicated table (its key is text, the change log
 * keys are numbers), so the desk copies the public `GET /api/appconfig` into
 * it when its sync starts and every few minutes while it checks people in.
 * The desk's rules (the check-in window, the mutators' time zone and guests)
 * read it offline; until the first copy they use the defaults.
 */
export async function cacheStudioSettings(replica: Replica, serverUrl: string, fetchImpl: typeof fetch = fetch): Promise<void> {
  const res = await fetchImpl(`${serverUrl}/api/appconfig`, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new Error(`GET /api/appconfig ${res.status}`);
  const { config } = appConfigOutput.parse(await res.json());
  if (config.length === 0) return;
  try {
    await replica.db.transaction(async (tx) => {
      for (const { key, value } of config) {
        await tx.insert(app_config).values({ key, value }).onConflictDoUpdate({ target: app_config.key, set: { value } });
      }
    });
  } finally {
    forgetReplicaSettings(replica.db);
  }
}

/** How often a working desk copies the settings again. */
export const SETTINGS_REFRESH_MS = 5 * 60_000;
