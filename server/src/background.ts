import type { Config } from './config.ts';
import type { Db } from './db.ts';
import { startClock } from './services/clock/scheduler.ts';
import { startDeliveryWorker, type WorkerLog } from './services/messages/delivery-worker.ts';

/**
 * The work a server process does on its own, besides answering requests
 * (issue 17): the delivery worker sends the outbox (MESSAGES_WORKER=on).
 * Every process may run it: claims keep two processes from sending one
 * message (decision 022). `stop` is awaited before the database closes.
 */
export function startBackgroundWork({ db, config, log }: { db: Db; config: Config; log: WorkerLog }): { stop(): Promise<void> } {
  const stops: (() => Promise<void>)[] = [];
  if (config.MESSAGES_WORKER === 'on') {
    const worker = startDeliveryWorker({ db, config, log });
    stops.push(() => worker.stop());
  }
  // The studio's clock (CLOCK=on): confirmations, reminders, no-shows, holds… each run once across processes (decision 021).
  if (config.CLOCK === 'on') {
    const clock = startClock({ db, config, log });
    stops.push(() => clock.stop());
  }
  return {
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
