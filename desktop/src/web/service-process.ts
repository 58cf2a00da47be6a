import { loadDeskConfig } from '../service/config.ts';
import type { DeskProcessStatus, FromDeskProcess, ToDeskProcess } from '../service/process-protocol.ts';
import { startDeskWeb } from './server.ts';

/**
 * The desk service in its own process: the entry Electron's main process
 * starts as a utility process with the service's V8 flags (decision 134).
 * It is `desk:web` on a loopback port chosen at start, with a fresh key per
 * run, and the desk's window is a browser on it.
 *
 * Environment: DESK_DATA_DIR (the replica), DESK_SERVER_URL (optional),
 * DESK_RENDERER_DIR (the built screens), DESK_PORT (0 unless a development
 * run's screens proxy to a fixed one).
 */
interface ParentChannel {
  post(message: FromDeskProcess): void;
  onMessage(listener: (message: ToDeskProcess) => void): void;
}

/** Electron's utility process talks through `process.parentPort`; Node's fork (the tests, the bench) through `process.send`. */
function parentChannel(): ParentChannel {
  const port = (process as { parentPort?: { postMessage(message: unknown): void; on(event: 'message', listener: (event: { data: unknown }) => void): void } }).parentPort;
  if (port) return { post: (message) => port.postMessage(message), onMessage: (listener) => port.on('message', (event) => listener(event.data as ToDeskProcess)) };
  const send = process.send?.bind(process);
  if (send) return { post: (message) => void send(message), onMessage: (listener) => process.on('message', (message) => listener(message as ToDeskProcess)) };
  throw new Error('The desk service process was started without a parent to talk to.');
}

const parent = parentChannel();
const distDir = process.env.DESK_RENDERER_DIR;
if (!distDir) throw new Error('DESK_RENDERER_DIR is required');

let web: Awaited<ReturnType<typeof startDeskWeb>>;
try {
  web = await startDeskWeb({ port: Number(process.env.DESK_PORT ?? 0), distDir, config: loadDeskConfig(process.env) });
} catch (error) {
  parent.post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
}

const { desk } = web;
let activeAt = 0;
const status = (): DeskProcessStatus => ({ serverUrl: desk.serverAddress().url, pending: desk.status().pending, activeAt });
const postStatus = () => parent.post({ type: 'status', ...status() });
desk.onChange((event) => {
  if (event.tables.length) activeAt = Date.now();
  postStatus();
});

let closing = false;
const close = () => {
  if (closing) return;
  closing = true;
  // The replica closed cleanly (PGlite flushes it); the outbox is durable anyway, this saves a recovery on next start.
  void web.close().finally(() => process.exit(0));
};
parent.onMessage((message) => {
  if (message.type === 'close') close();
});
// A parent gone without a word (Node's fork): the replica is not left open by an orphan.
process.once('disconnect', close);

parent.post({ type: 'ready', url: web.url, origin: `http://127.0.0.1:${web.port}`, status: status() });
