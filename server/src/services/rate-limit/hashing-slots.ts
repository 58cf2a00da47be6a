import os from 'node:os';
import { DomainError } from '@estudio/core';
import type { Config } from '../../config.ts';

/** Runs password hashing (scrypt) a few at a time. */
export interface HashingSlots {
  /** Runs `work` in a slot: at once, after the calls queued before it, or not at all ('busy', 503) when the queue is full. */
  run<T>(work: () => Promise<T>): Promise<T>;
}

/**
 * A semaphore in front of password hashing (the local identity provider's
 * scrypt: sign-in, sign-up, reset, change, e-mail change). scrypt runs on
 * libuv's thread pool (4 threads), where an unbounded backlog also delays file
 * and DNS work: three batched requests of guesses once delayed a normal
 * sign-in by 28 s. At most `concurrency` run at once, `queue` more wait their
 * turn in order, and any more are refused at once with 'busy', so a wait is
 * never longer than about (queue / concurrency) hashes. Per process: the work
 * it bounds is this process's CPU.
 */
export function createHashingSlots({ concurrency, queue }: { concurrency: number; queue: number }): HashingSlots {
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run(work) {
      if (running < concurrency) running++;
      else if (waiting.length < queue) await new Promise<void>((resolve) => waiting.push(resolve));
      else throw new DomainError('busy');
      try {
        return await work();
      } finally {
        // The slot passes straight to the next in line; `running` only drops when nobody waits.
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
  };
}

/** The process's slots as configured: PASSWORD_HASH_CONCURRENCY (default: the CPUs) and PASSWORD_HASH_QUEUE. */
export function hashingSlotsFor(config: Config): HashingSlots {
  return createHashingSlots({ concurrency: config.PASSWORD_HASH_CONCURRENCY ?? Math.max(1, os.availableParallelism()), queue: config.PASSWORD_HASH_QUEUE });
}
