import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { domainErrors } from '@estudio/core';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db.ts';
import { readStudioGauges } from '../services/operations/read-gauges.ts';
import { loopState, type ProcessState } from './process-state.ts';

export interface MetricsDeps {
  db: Db;
  kind: 'pglite' | 'postgres';
  state: ProcessState;
  /** The pool's size (PostgreSQL; PGlite has one connection). */
  poolMax: number;
  /** Desks listening for pokes on this process now. */
  desksConnected: () => number;
  /** A request's route as a label: a pattern or a procedure name, never the raw URL (its cardinality is the client's to choose). */
  routeOf: (req: FastifyRequest) => string;
}

/**
 * Prometheus metrics of one process (decision 075), with prom-client: the
 * process's own (memory, event loop lag, GC), requests by route and status
 * with their latency, and, read from the database when scraped, the outbox's
 * backlog and failures by channel, each clock job's lag, the database's
 * connections; and the desks connected to this process.
 */
export function createMetrics(deps: MetricsDeps) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'estudio_http_requests_total',
    help: 'Solicitudes respondidas, por método, ruta y estado HTTP.',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'estudio_http_request_duration_seconds',
    help: 'Tiempo de respuesta, por método, ruta y clase de estado (2xx, 4xx, 5xx).',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  new Gauge({
    name: 'estudio_desks_connected',
    help: 'Recepciones conectadas a este proceso (avisos de cambios abiertos).',
    registers: [registry],
    collect() {
      this.set(deps.desksConnected());
    },
  });
  new Gauge({
    name: 'estudio_db_pool_max',
    help: 'Conexiones que el proceso puede abrir a la base de datos.',
    registers: [registry],
    collect() {
      this.set(deps.poolMax);
    },
  });
  new Gauge({
    name: 'estudio_loop_alive',
    help: 'El reloj del estudio y el envío de mensajes de este proceso: 1 vivo, 0 detenido o apagado.',
    labelNames: ['loop'] as const,
    registers: [registry],
    collect() {
      this.set({ loop: 'clock' }, loopState(deps.state.expects.clock, deps.state.clock).state === 'alive' ? 1 : 0);
      this.set({ loop: 'messages' }, loopState(deps.state.expects.messages, deps.state.messages).state === 'alive' ? 1 : 0);
    },
  });

  // The database's gauges come from one read per scrape, shared by the gauges below.
  let reading: Promise<Awaited<ReturnType<typeof readStudioGauges>> | null> | null = null;
  const studio = () => {
    reading ??= readStudioGauges(deps.db, deps.kind)
      .catch(() => null)
      .finally(() => setTimeout(() => (reading = null), 0));
    return reading;
  };
  new Gauge({
    name: 'estudio_outbox_messages',
    help: 'Mensajes por canal y estado: pending (por enviar), retrying (pendientes tras un intento fallido), failed (no se enviarán).',
    labelNames: ['channel', 'status'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const channel of ['email', 'whatsapp']) for (const status of ['pending', 'retrying', 'failed']) this.set({ channel, status }, 0);
      for (const row of (await studio())?.outbox ?? []) this.set({ channel: row.channel, status: row.status }, row.count);
    },
  });
  new Gauge({
    name: 'estudio_outbox_oldest_due_seconds',
    help: 'Antigüedad del mensaje pendiente más viejo que ya debía salir, por canal.',
    labelNames: ['channel'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const channel of ['email', 'whatsapp']) this.set({ channel }, 0);
      for (const row of (await studio())?.oldestPending ?? []) this.set({ channel: row.channel }, row.seconds);
    },
  });
  new Gauge({
    name: 'estudio_job_lag_seconds',
    help: 'Retraso de cada tarea del reloj del estudio: cuánto lleva vencida su próxima corrida (0 si no le toca).',
    labelNames: ['job'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const job of (await studio())?.jobs ?? []) this.set({ job: job.name }, job.lagSeconds);
    },
  });
  new Gauge({
    name: 'estudio_job_failing',
    help: 'Tareas del reloj cuya última corrida falló (1).',
    labelNames: ['job'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const job of (await studio())?.jobs ?? []) this.set({ job: job.name }, job.failing ? 1 : 0);
    },
  });
  new Gauge({
    name: 'estudio_db_connections',
    help: 'Conexiones de los procesos del estudio a esta base de datos, por estado (PostgreSQL).',
    labelNames: ['state'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await studio())?.connections ?? []) this.set({ state: row.state }, row.count);
    },
  });

  return {
    registry,
    /** Counts an answered request (from the request log's hook). */
    observe(req: FastifyRequest, status: number, seconds: number) {
      const route = deps.routeOf(req);
      requests.inc({ method: req.method, route, status: String(status) });
      latency.observe({ method: req.method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** `Bearer <token>` compared in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '', 'utf8');
  const wanted = Buffer.from(token, 'utf8');
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/**
 * GET /metrics, only with `Authorization: Bearer METRICS_TOKEN` (decision
 * 075): a process's numbers are not the public's. Without a token configured
 * it answers as a route that does not exist.
 */
export function registerMetricsRoute(app: FastifyInstance, metrics: Metrics, token: string | undefined): void {
  app.get('/metrics', async (req, reply) => {
    if (!token) {
      return reply.code(404).type('application/json; charset=utf-8').send({ code: 'route-not-found', message: domainErrors['route-not-found'].message });
    }
    if (!bearerMatches(req.headers.authorization, token)) {
      return reply.code(401).header('www-authenticate', 'Bearer').type('text/plain; charset=utf-8').send('Falta el token de métricas.\n');
    }
    const body = await metrics.registry.metrics();
    return reply.header('cache-control', 'no-store').type(metrics.registry.contentType).send(body);
  });
}
