import { createDb, migrate, seedIfEmpty } from '@estudio/db';
import { createChangeFeed, portalContentChannel, rebaseRestoredLog } from '@estudio/sync';
import { buildServer } from './app.ts';
import { startBackgroundWork } from './background.ts';
import { ConfigError, loadConfig } from './config.ts';
import { DataDirBusyError, lockDataDir } from './operations/data-dir-lock.ts';
import { startEmbeddedBackups } from './operations/embedded-backups.ts';
import { createProcessState } from './operations/process-state.ts';
import { studioHasOwner } from './services/setup/create-owner.ts';
import { warmUp } from './warm-up.ts';

/** Starts the server: configuration, database (migrated; the demo seed on first start, never in production), HTTP. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  // An embedded studio's folder is this process's alone: a second server or a command on it would corrupt it (decision 077).
  let unlock = () => {};
  if (!config.DATABASE_URL) {
    try {
      unlock = lockDataDir(config.DATA_DIR);
    } catch (error) {
      if (!(error instanceof DataDirBusyError)) throw error;
      console.error(`Otro servidor del estudio (pid ${error.pid}) ya usa ${error.dataDir}.`);
      process.exit(1);
    }
    process.once('exit', () => unlock());
  }
  const handle = await createDb(config.DATABASE_URL, { dataDir: config.DATA_DIR, max: config.DATABASE_POOL_MAX });
  // Production never seeds the demo studio and its published passwords (decision 074): the first owner comes from `cli.mjs owner`.
  let seeded = false;
  let rebased = 0;
  await migrate(handle, {
    folder: config.MIGRATIONS_DIR,
    // Under the migrations' lock: a log restored from another cluster is put before this one's (decision 077), then the demo seed.
    andThen: async () => {
      rebased = await rebaseRestoredLog(handle.db);
      if (config.NODE_ENV !== 'production') seeded = await seedIfEmpty(handle.db);
    },
  });
  // Desks are poked through LISTEN/NOTIFY, so a write through any server process on this database reaches them.
  const changeFeed = await createChangeFeed(handle);
  // The pre-rendered pages are forgotten when what they show changes, through any server process (migration 0020).
  const contentFeed = await createChangeFeed(handle, portalContentChannel);
  const state = createProcessState({ clock: config.CLOCK === 'on', messages: config.MESSAGES_WORKER === 'on' });
  const app = await buildServer({ config, db: handle.db, changeFeed, contentFeed, operations: { state, dbKind: handle.kind } });
  if (seeded) app.log.info('base de datos vacía: se cargó el estudio de demostración');
  if (rebased) app.log.warn({ changes: rebased }, 'base de datos restaurada de otro servidor: las recepciones se sincronizarán de nuevo desde cero');

  let background: { stop(): Promise<void> } | null = null;
  const backups =
    handle.kind === 'pglite' && config.BACKUP_DIR
      ? startEmbeddedBackups({ client: handle.client, db: handle.db, dataDir: config.DATA_DIR, dir: config.BACKUP_DIR, keep: config.BACKUP_KEEP, at: config.BACKUP_AT, log: app.log })
      : null;
  /**
   * SIGTERM (a restart, a deploy) and SIGINT (decision 076): readiness says
   * 'closing' at once; the listener closes (new connections are refused, a
   * request on a kept-alive connection gets 503), the requests in flight
   * finish for up to SHUTDOWN_GRACE_MS and are then cut; meanwhile the clock
   * and the delivery worker finish what they run and hand back what they
   * claimed; then the change feed and the database close.
   */
  const shutdown = async (signal: string) => {
    if (state.closing) return;
    state.closing = true;
    app.log.info({ signal }, 'cerrando: sin solicitudes nuevas; se terminan las que están en curso');
    // Whatever hangs (a provider that never answers), the process ends.
    const force = setTimeout(() => {
      app.log.error('el cierre tardó demasiado; se termina el proceso');
      process.exit(1);
    }, config.SHUTDOWN_GRACE_MS + 15_000).unref();
    const cut = setTimeout(() => app.server.closeAllConnections(), config.SHUTDOWN_GRACE_MS).unref();
    try {
      await Promise.all([app.close(), background?.stop(), backups?.stop()]);
      clearTimeout(cut);
      await changeFeed.close();
      await contentFeed.close();
      await handle.close();
      clearTimeout(force);
      app.log.info('cerrado');
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'error al cerrar');
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  // Ready before the first request: the pool open, the weeks read, the path compiled (decision 057).
  const warmed = await warmUp(app, handle);
  app.log.info(warmed, 'servidor preparado antes de escuchar');
  const address = await app.listen({ port: config.PORT, host: config.HOST });
  app.log.info({ url: address, db: handle.kind, auth: config.AUTH_PROVIDER }, `Estudio listo en ${address}`);
  if (config.NODE_ENV === 'production' && !(await studioHasOwner(handle.db))) {
    app.log.warn('el estudio no tiene dueña: créala con `node --env-file=<archivo de entorno> server/dist/cli.mjs owner --email …` (README, Producción)');
  }
  // Messages leave the outbox; a shutdown that began meanwhile stops it at once.
  background = startBackgroundWork({ db: handle.db, config, log: app.log, state });
  if (state.closing) await background.stop();
}

await main();
