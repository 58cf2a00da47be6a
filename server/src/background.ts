import type { Config } from './config.ts';
import type { Db } from './db.ts';
import { createHeartbeat, type ProcessState } from './operations/process-state.ts';
import { defaultLeaseMs, startClock } from './services/clock/scheduler.ts';
import { startDeliveryWorker, type WorkerLog } from './services/messages/delivery-worker.ts';

/**
 * The work a server process does on its own, besides answering requests
 *: the delivery worker sends the outbox (MESSAGES_WORKER=on).
 * Every process may run it: claims keep two processes from sending one
 * message (decision 022). `stop` is awaited before the database closes: the
 * run and the sends in flight finish, and what was claimed but not started is
 * handed back (decision 076). Each loop's heartbeat goes to `state`, for the
 * process's readiness (decision 075).
 */
export function startBackgroundWork({ db, config, log, state }: { db: Db; config: Config; log: WorkerLog; state?: ProcessState }): { stop(): Promise<void> } {
  const stops: (() => Promise<void>)[] = [];
  if (config.MESSAGES_WORKER === 'on') {
    const heartbeat = createHeartbeat(config.MESSAGE_POLL_MS, config.MESSAGE_CLAIM_LEASE_MS);
    if (state) state.messages = heartbeat;
    const worker = startDeliveryWorker({ db, config, log, heartbeat });
    stops.push(() => worker.stop());
  }
  // The studio's clock (CLOCK=on): confirmations, reminders, no-shows, holds… each run once across processes (decision 021).
  if (config.CLOCK === 'on') {
    const heartbeat = createHeartbeat(config.CLOCK_TICK_MS, defaultLeaseMs);
    if (state) state.clock = heartbeat;
    const clock = startClock({ db, config, log, heartbeat });
    stops.push(() => clock.stop());
  }
  return {
    async stop() {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
