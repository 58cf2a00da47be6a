/**
 * The desk service in its own process (Electron's utility process, decision
 * 134): what it and Electron's main process say to each other.
 */

/**
 * V8 set up for the desk service; flags are fixed when a process starts, so
 * the service runs in a process the desk starts with them (and `desk:web`
 * with the same, package.json).
 * - The young generation held small: its collections copy less each time, and
 *   those copies were the slow tail of a scan (semi-spaces of 16 MB: p95
 *   6.6 ms at 20,000 customers; of 1 MB: 3.9 ms, bench/README).
 * - PGlite's WebAssembly compiled once, by the baseline compiler (decision
 *   142): V8 otherwise keeps two machine-code copies of PostgreSQL's hot
 *   functions, about 70 MB of the desk's memory, for a scan no faster.
 */
export const deskServiceV8Flags: readonly string[] = ['--max-semi-space-size=1', '--liftoff-only'];

/** What the service needs from its parent: only to close (the replica flushed) before the desk quits. */
export type ToDeskProcess = { type: 'close' };

/** For the updater: the studio's server, unsent changes and when staff last did something. */
export interface DeskProcessStatus {
  serverUrl: string | null;
  pending: number;
  activeAt: number;
}

export type FromDeskProcess =
  /** Listening on loopback: the window opens `url` (it carries this run's key once); the status as it starts. */
  | { type: 'ready'; url: string; origin: string; status: DeskProcessStatus }
  | ({ type: 'status' } & DeskProcessStatus)
  /** The service could not start (the replica cannot be opened): said to staff in the main process's dialog. */
  | { type: 'failed'; message: string };

/** A development run (electron-vite dev): the service listens here and the screens' server passes the router's calls to it. */
export const deskDevServicePort = 3401;
