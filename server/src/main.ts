import { createDb, migrate, seedIfEmpty } from '@estudio/db';
import { createChangeFeed } from '@estudio/sync';
import { buildServer } from './app.ts';
import { startBackgroundWork } from './background.ts';
import { ConfigError, loadConfig } from './config.ts';
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

  const handle = await createDb(config.DATABASE_URL, { dataDir: config.DATA_DIR, max: config.DATABASE_POOL_MAX });
  // Production never seeds the demo studio and its published passwords (decision 074): the first owner comes from `cli.mjs owner`.
  let seeded = false;
  const seed = config.NODE_ENV === 'production' ? undefined : async () => void (seeded = await seedIfEmpty(handle.db));
  await migrate(handle, { folder: config.MIGRATIONS_DIR, andThen: seed });
  // Desks are poked through LISTEN/NOTIFY, so a write through any server process on this database reaches them.
  const changeFeed = await createChangeFeed(handle);
  const state = createProcessState({ clock: config.CLOCK === 'on', messages: config.MESSAGES_WORKER === 'on' });
  const app = await buildServer({ config, db: handle.db, changeFeed, operations: { state, dbKind: handle.kind } });
  if (seeded) app.log.info('base de datos vacía: se cargó el estudio de demostración');

  let background: { stop(): Promise<void> } | null = null;
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
      await Promise.all([app.close(), background?.stop()]);
      clearTimeout(cut);
      await changeFeed.close();
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
  // Messages leave the outbox (issue 17); a shutdown that began meanwhile stops it at once.
  background = startBackgroundWork({ db: handle.db, config, log: app.log, state });
  if (state.closing) await background.stop();
}

await main();
