/**
 * What a server process knows about itself, for its readiness answer and its
 * metrics (decision 075): whether it is closing, and the heartbeat of each
 * loop it runs besides requests (the studio's clock, the delivery worker).
 */

export type LoopState = 'alive' | 'stalled' | 'off' | 'starting';

export interface Heartbeat {
  /** A tick began (called by the loop). */
  start(): void;
  /** A tick ended, well or not (called by the loop). */
  end(): void;
  state(now?: number): { state: LoopState; lastTickAt: string | null };
}

/**
 * A loop that ticks every `everyMs`: alive while its last tick ended within
 * three intervals (and at least 30 s), or while a tick is running for less
 * than `longestTickMs` (a job may take a while; one that hangs is stalled).
 */
export function createHeartbeat(everyMs: number, longestTickMs: number): Heartbeat {
  let running: number | null = null;
  let last: number | null = null;
  const quiet = Math.max(3 * everyMs, 30_000);
  return {
    start: () => void (running = Date.now()),
    end() {
      running = null;
      last = Date.now();
    },
    state(now = Date.now()) {
      const lastTickAt = last === null ? null : new Date(last).toISOString();
      if (running !== null) return { state: now - running < longestTickMs ? 'alive' : 'stalled', lastTickAt };
      if (last === null) return { state: 'starting', lastTickAt };
      return { state: now - last < quiet ? 'alive' : 'stalled', lastTickAt };
    },
  };
}

export interface ProcessState {
  readonly startedAt: Date;
  /** Set by the shutdown: readiness answers 503 from then on. */
  closing: boolean;
  /** null: this process does not run it (CLOCK=off, MESSAGES_WORKER=off), or not yet. */
  clock: Heartbeat | null;
  messages: Heartbeat | null;
  /** The configuration asks for them, so readiness waits for them to tick. */
  expects: { clock: boolean; messages: boolean };
}

export function createProcessState(expects: ProcessState['expects'] = { clock: false, messages: false }): ProcessState {
  return { startedAt: new Date(), closing: false, clock: null, messages: null, expects };
}

/** A loop's state as readiness reports it: off when this process does not run it. */
export function loopState(expected: boolean, beat: Heartbeat | null): { state: LoopState; lastTickAt: string | null } {
  if (!expected) return { state: 'off', lastTickAt: null };
  return beat ? beat.state() : { state: 'starting', lastTickAt: null };
}
