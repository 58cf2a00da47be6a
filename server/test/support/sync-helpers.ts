import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { defaultStudioTimeZone, localTimeHHmm } from '@estudio/core';
import { call } from './helpers.ts';

/** A desk's client id. */
export const newClientId = () => randomUUID();

/** tRPC query over HTTP (no transformer: the input is plain JSON in the query string). */
export function trpcQuery(app: FastifyInstance, path: string, input: unknown, token: string) {
  return call(app, 'GET', `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { token });
}

export function trpcMutation(app: FastifyInstance, path: string, input: unknown, token: string) {
  return call(app, 'POST', `/trpc/${path}`, { token, body: input });
}

/**
 * Minutes from now for a class that is on today's date in the studio's zone
 * and has already started (the usual check-in moment), except right after
 * midnight, when it starts a little later today instead.
 */
export function minutesAheadToday(): number {
  return localTimeHHmm(new Date(), defaultStudioTimeZone) < '00:20' ? 25 : -10;
}

/** Reads an SSE response body and resolves each `data:` event; `close` aborts the request. */
export function readSse(url: string, token: string) {
  const controller = new AbortController();
  const events: string[] = [];
  const errors: string[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  const done = (async () => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: controller.signal });
    if (!res.ok || !res.body) throw new Error(`SSE ${res.status}: ${await res.text()}`);
    const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) return;
      buffer += value;
      let cut: number;
      while ((cut = buffer.indexOf('\n\n')) !== -1) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const data = block
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n');
        // tRPC's own events (connected, ping, serialized-error) are named; the procedure's values are plain messages.
        const named = block.split('\n').find((line) => line.startsWith('event:'));
        if (named?.includes('serialized-error')) errors.push(data);
        if (data && !named) {
          events.push(data);
          for (const w of [...waiters]) if (events.length >= w.count) w.resolve();
        }
      }
    }
  })().catch((error: unknown) => {
    if (!controller.signal.aborted) throw error;
  });
  return {
    events,
    errors,
    /** Resolves once `count` events have arrived in total. */
    waitFor(count: number, timeoutMs = 5000): Promise<void> {
      if (events.length >= count) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`esperaba ${count} eventos, llegaron ${events.length}`)), timeoutMs);
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
    async close() {
      controller.abort();
      await done;
    },
  };
}
