import { createDb, migrate, seedIfEmpty } from '@estudio/db';
import { createChangeFeed } from '@estudio/sync';
import { buildServer } from './app.ts';
import { startBackgroundWork } from './background.ts';
import { ConfigError, loadConfig } from './config.ts';
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

  const handle = await createDb(config.DATABASE_URL, { dataDir: config.DATA_DIR });
  // Production never seeds the demo studio and its published passwords (decision 074): the first owner comes from `cli.mjs owner`.
  let seeded = false;
  const seed = config.NODE_ENV === 'production' ? undefined : async () => void (seeded = await seedIfEmpty(handle.db));
  await migrate(handle, { folder: config.MIGRATIONS_DIR, andThen: seed });
  // Desks are poked through LISTEN/NOTIFY, so a write through any server process on this database reaches them.
  const changeFeed = await createChangeFeed(handle);
  const app = await buildServer({ config, db: handle.db, changeFeed });
  if (seeded) app.log.info('base de datos vacía: se cargó el estudio de demostración');

  let closing = false;
  let background: { stop(): Promise<void> } | null = null;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'cerrando');
    // A second signal, or a hung connection, must not keep the process alive forever.
    const force = setTimeout(() => process.exit(1), 10_000).unref();
    try {
      await app.close();
      await background?.stop();
      await changeFeed.close();
      await handle.close();
      clearTimeout(force);
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
  // Messages leave the outbox (issue 17); a shutdown that began meanwhile stops it at once.
  background = startBackgroundWork({ db: handle.db, config, log: app.log });
  if (closing) await background.stop();
}

await main();
