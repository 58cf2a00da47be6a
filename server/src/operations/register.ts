import type { FastifyInstance } from 'fastify';
import type { ChangeFeed } from '@estudio/sync';
import type { Config } from '../config.ts';
import type { Db } from '../db.ts';
import { checkDatabaseReadiness, expectedMigration } from '../services/operations/check-readiness.ts';
import { capConnectionsPerAddress } from './connection-cap.ts';
import { createMetrics, registerMetricsRoute } from './metrics.ts';
import { createProcessState, loopState, type ProcessState } from './process-state.ts';
import { registerRequestLog } from './request-log.ts';
import { createRouteLabel } from './route-label.ts';

export interface OperationsOptions {
  config: Config;
  db: Db;
  /** What this process knows of itself; main.ts shares it with the background loops and the shutdown. */
  state?: ProcessState | undefined;
  dbKind?: 'pglite' | 'postgres' | undefined;
  /** Names a tRPC procedure of the router (the route label of a /trpc call). */
  isProcedure: (name: string) => boolean;
}

/** What the messages' readiness says when no channel is configured: nothing is lost, nothing is sent. */
const notConfiguredNote =
  'Sin canal de mensajes configurado: nada se envía. Los mensajes esperan en la bandeja de salida (consola → Mensajes) y salen cuando se configure el correo o WhatsApp.';

/**
 * The process's operations surface (decisions 075, 076), registered first so
 * its hooks run before everything else: the cap on connections per address,
 * one log line per request, GET /health (liveness), GET /ready (readiness),
 * GET /metrics (with METRICS_TOKEN). Answers the feed wrapper that counts
 * connected desks.
 */
export function registerOperations(app: FastifyInstance, options: OperationsOptions) {
  const { config, db } = options;
  const state = options.state ?? createProcessState();
  if (config.MAX_CONNECTIONS_PER_ADDRESS > 0 && !config.TRUST_PROXY) capConnectionsPerAddress(app, config.MAX_CONNECTIONS_PER_ADDRESS);

  let desks = 0;
  const routeOf = createRouteLabel(options.isProcedure);
  const metrics = createMetrics({
    db,
    kind: options.dbKind ?? 'pglite',
    state,
    poolMax: options.dbKind === 'postgres' ? config.DATABASE_POOL_MAX : 1,
    desksConnected: () => desks,
    routeOf,
  });
  registerRequestLog(app, { routeOf, observe: metrics.observe });
  registerMetricsRoute(app, metrics, config.METRICS_TOKEN);

  // Liveness: the process answers. Nothing else is asked, so a slow database never gets a live process restarted.
  app.get('/health', async (_req, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));

  const expected = expectedMigration(config.MIGRATIONS_DIR);
  // Readiness: whether this process should get traffic now; 503 with what is wrong when not.
  app.get('/ready', async (_req, reply) => {
    const found = await checkDatabaseReadiness(db, config, expected);
    const clock = loopState(state.expects.clock, state.clock);
    const messages = loopState(state.expects.messages, state.messages);
    const loopsOk = [clock, messages].every((l) => l.state === 'alive' || l.state === 'off');
    const ready = !state.closing && found.database.ok && found.migrations.ok && loopsOk;
    const configured = found.messages.email || found.messages.whatsapp;
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({
        status: ready ? 'ready' : state.closing ? 'closing' : 'not-ready',
        pid: process.pid,
        startedAt: state.startedAt.toISOString(),
        checks: { database: found.database, migrations: found.migrations, clock, deliveryWorker: messages },
        messages: {
          email: { configured: found.messages.email },
          whatsapp: { configured: found.messages.whatsapp },
          ...(configured ? {} : { note: notConfiguredNote }),
        },
      });
  });

  return {
    state,
    /** The change feed, counting the desks that listen to it through this process. */
    countDesks(feed: ChangeFeed): ChangeFeed {
      return {
        close: () => feed.close(),
        subscribe(listener) {
          desks += 1;
          const unsubscribe = feed.subscribe(listener);
          let done = false;
          return () => {
            if (done) return;
            done = true;
            desks -= 1;
            unsubscribe();
          };
        },
      };
    },
  };
}
