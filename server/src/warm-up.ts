import type { FastifyInstance } from 'fastify';
import { studioTimeZone, weekOf } from '@estudio/core';
import type { DbHandle } from '@estudio/db';
import { loadStudioSettings } from './services/schedule/studio-settings.ts';

/** Reads of each warmed route: V8 compiles a function for speed only after it has run many times. */
const rounds = 40;

export interface WarmUp {
  /** Connections of the pool opened before the first request (0 on PGlite, which has one). */
  connections: number;
  /** Requests the process answered itself before it listened. */
  requests: number;
  ms: number;
}

/** Opens every connection of a PostgreSQL pool now rather than on the first requests; the number opened (0 on PGlite). */
export async function openPool(handle: DbHandle): Promise<number> {
  if (handle.kind !== 'postgres') return 0;
  const size = handle.client.options.max;
  // A statement asked for while every open connection is busy opens another, up to the pool's size.
  await Promise.all(Array.from({ length: size }, () => handle.client`select 1`));
  return size;
}

/**
 * Readies a new server process before it listens (decision 057):
 * a process started while the studio's traffic goes on answered its first
 * seconds slowest of all (bench/load.ts at 200 req/s: p95 about 500 ms in
 * the first 30 s, under 40 ms after), because everything was still to do on
 * the first requests at once: the pool's connections opened (a SCRAM
 * handshake each, computed synchronously by postgres.js), every statement
 * prepared, the week read, and the request path still interpreted by V8.
 *
 * So the pool's connections are opened together, and the process reads this
 * week and the next, the way the portal and /api ask for them, `rounds`
 * times each: the week cache holds them and V8 has compiled the path they
 * take. Nothing is written. It adds about a second to a start (0.9 s on
 * PostgreSQL, 1.7 s on PGlite here).
 */
export async function warmUp(app: FastifyInstance, handle: DbHandle): Promise<WarmUp> {
  const started = performance.now();
  let connections = 0;
  try {
    connections = await openPool(handle);
  } catch (error) {
    // A database that will not give the whole pool now (max_connections reached) still serves with fewer.
    app.log.warn({ err: error }, 'no se pudieron abrir todas las conexiones al iniciar');
  }
  let requests = 0;
  // The warm-up's own requests are not the studio's traffic: kept out of the request log.
  const level = app.log.level;
  app.log.level = 'warn';
  try {
    const thisWeek = weekOf(new Date(), studioTimeZone(await loadStudioSettings(handle.db)));
    const nextWeek = weekOf(new Date(Date.parse(`${thisWeek.end_date}T12:00:00Z`) + 2 * 86_400_000), 'UTC');
    const urls = [thisWeek, nextWeek].flatMap((week) => [
      `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`,
      `/trpc/schedule.list?input=${encodeURIComponent(JSON.stringify(week))}`,
    ]);
    for (let round = 0; round < rounds; round++) {
      await Promise.all(
        urls.map(async (url) => {
          const res = await app.inject({ method: 'GET', url, headers: { 'accept-encoding': round % 2 ? 'br, gzip' : 'identity' } });
          requests++;
          // A week that cannot be read now will say so to its first visitor; the server still starts.
          if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode}`);
        }),
      );
    }
  } catch (error) {
    app.log.warn({ err: error }, 'el calentamiento no pudo leer la semana');
  } finally {
    app.log.level = level;
  }
  return { connections, requests, ms: Math.round(performance.now() - started) };
}
