import type { DeskProcessStatus, FromDeskProcess, ToDeskProcess } from '../service/process-protocol.ts';

/** The part of Electron's UtilityProcess the desk uses (or a test's wrapper of Node's fork). */
export interface DeskProcessChild {
  postMessage(message: ToDeskProcess): void;
  on(event: 'message', listener: (message: FromDeskProcess) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  kill(): boolean;
}

export interface DeskProcess {
  /** The link the window opens: it sets this run's key as a cookie and leaves it out of the address. */
  url: string;
  /** The service's own address, for telling the window's own pages from other sites. */
  origin: string;
  /** The latest status the service sent (for the updater). */
  status(): DeskProcessStatus;
  /** Asks the service to close its replica and waits for it to end (killed after `graceMs`). */
  close(graceMs?: number): Promise<void>;
}

/**
 * Starts the desk service's process and waits until it listens. Rejects with
 * the service's own message when it cannot start (the replica cannot be
 * opened). `onExit` hears of an exit nobody asked for (a crash), after ready.
 */
export function startDeskProcess(fork: () => DeskProcessChild, onExit: (code: number) => void): Promise<DeskProcess> {
  const child = fork();
  let status: DeskProcessStatus = { serverUrl: null, pending: 0, activeAt: 0 };
  let exited: Promise<void> | null = null;
  let closing = false;
  return new Promise((resolve, reject) => {
    let ready = false;
    let failure: string | null = null;
    const ended = new Promise<number>((done) => child.on('exit', done));
    void ended.then((code) => {
      if (!ready) reject(new Error(failure ?? `El servicio de la recepción terminó al iniciar (código ${code}).`));
      else if (!closing) onExit(code);
    });
    child.on('message', (message) => {
      if (message.type === 'status') status = { serverUrl: message.serverUrl, pending: message.pending, activeAt: message.activeAt };
      else if (message.type === 'failed') failure = message.message;
      else if (message.type === 'ready' && !ready) {
        ready = true;
        status = message.status;
        resolve({
          url: message.url,
          origin: message.origin,
          status: () => status,
          close: (graceMs = 10_000) => {
            closing = true;
            exited ??= new Promise<void>((done) => {
              const timer = setTimeout(() => child.kill(), graceMs);
              void ended.then(() => {
                clearTimeout(timer);
                done();
              });
              child.postMessage({ type: 'close' });
            });
            return exited;
          },
        });
      }
    });
  });
}
