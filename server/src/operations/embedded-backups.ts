import type { PGlite } from '@electric-sql/pglite';
import { studioTimeZone } from '@estudio/core';
import type { Db } from '../db.ts';
import { nextDailyRun } from '../services/clock/scheduler.ts';
import { loadStudioSettings } from '../services/schedule/studio-settings.ts';
import { backupEmbedded } from './backups.ts';

interface BackupLog {
  info(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * The embedded studio's daily backup (decision 077): its server holds the
 * PGlite folder, so it is the one that copies it, every day at `at` in the
 * studio's time zone, into `dir`. `stop` waits for a copy in progress.
 */
export function startEmbeddedBackups(options: { client: PGlite; db: Db; dataDir: string; dir: string; keep: number; at: string; log: BackupLog }): { stop(): Promise<void> } {
  const [hour, minute] = options.at.split(':').map(Number) as [number, number];
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const schedule = async () => {
    if (stopped) return;
    const tz = studioTimeZone(await loadStudioSettings(options.db));
    const next = nextDailyRun(new Date(), { hour, minute }, tz);
    timer = setTimeout(() => {
      running = backupEmbedded(options.client, options)
        .then((folder) => options.log.info({ backup: folder }, 'respaldo del estudio escrito'))
        .catch((error: unknown) => options.log.error({ err: error }, 'el respaldo del estudio falló; se intentará mañana'))
        .finally(() => void schedule().catch(() => undefined));
    }, next.getTime() - Date.now());
    timer.unref();
  };
  void schedule().catch((error: unknown) => options.log.error({ err: error }, 'no se pudo programar el respaldo del estudio'));
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
