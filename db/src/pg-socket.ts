import net from 'node:net';

/** ReadyForQuery, status "in a failed transaction": what the server would send after an error. */
const readyAfterError = Buffer.from([0x5a, 0, 0, 0, 5, 0x45]);

/**
 * postgres.js 3.4.9 sends small messages on a later turn of the event loop
 * (setImmediate). When the connection drops in the middle of a transaction,
 * the query in flight is rejected from the driver's 'close' handler, which
 * has just set its socket to null; the transaction's ROLLBACK is then queued
 * that way and runs on the null socket: an uncaught TypeError that ends the
 * process (porsager/postgres#1154, #1208; found by
 * server/test/platform/faults.postgres.test.ts). Had the close cancelled a queued
 * write instead, the write would stay buffered and poison that connection of
 * the pool for good. And the server's last message (FATAL "terminating
 * connection") is kept by the driver as pending, so it failed the first
 * query after the reconnection too.
 *
 * The driver accepts a socket of our own (its undocumented `socket` option).
 * When this one closes, it first reports an error while the driver still
 * holds it (the query in flight is rejected then, and its ROLLBACK meets a
 * destroyed socket: an ordinary error for its caller), then, when the
 * query's last answer was that error, the ReadyForQuery that clears it (message
 * boundaries are tracked for this), and reports the 'close' itself two turns later, when the
 * driver's write buffer is empty. A cancel request's connection (no byte
 * ever read) and a TLS one (the driver then listens to its own TLS socket)
 * close as usual.
 */
class LateCloseSocket extends net.Socket {
  /** Header bytes of the message being received, while fewer than five. */
  private header: number[] = [];
  /** Bytes of the current message's body still to come. */
  private bodyLeft = 0;
  /** False once the stream is not plain protocol messages (the one-byte answer to an SSLRequest). */
  private framed = true;
  /** Type byte of the last message that began. */
  private lastType = 0;
  /** Something was written since the last ReadyForQuery: a query is in flight. */
  private inFlight = false;

  /** Notes every write from now on (connect() resets an own `write`, so this is called once connected). */
  watchWrites(): void {
    const write = this.write.bind(this);
    this.write = ((...args: Parameters<typeof write>) => {
      this.inFlight = true;
      return write(...args);
    }) as typeof write;
  }

  private track(chunk: Buffer): void {
    if (this.bytesRead === chunk.length && chunk.length === 1) this.framed = false;
    for (let i = 0; i < chunk.length && this.framed; ) {
      if (this.bodyLeft > 0) {
        const n = Math.min(this.bodyLeft, chunk.length - i);
        this.bodyLeft -= n;
        i += n;
        continue;
      }
      this.header.push(chunk[i] ?? 0);
      i += 1;
      if (this.header.length === 5) {
        this.lastType = this.header[0] ?? 0;
        if (this.lastType === 0x5a) this.inFlight = false;
        this.bodyLeft = Buffer.from(this.header).readUInt32BE(1) - 4;
        this.header = [];
      }
    }
  }

  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'data' && Buffer.isBuffer(args[0])) this.track(args[0]);
    if (event !== 'close') return super.emit(event, ...args);
    if (this.bytesRead > 0 && this.listenerCount('error') > 0) {
      // A close with an error (a reset) was preceded by its 'error' already.
      if (args[0] !== true) super.emit('error', Object.assign(new Error('la conexión con PostgreSQL se cerró'), { code: 'CONNECTION_CLOSED' }));
      // Only when a query got a whole ErrorResponse ('E') as its last answer: the error the driver keeps pending.
      const errorPending = this.inFlight && this.framed && this.lastType === 0x45 && this.bodyLeft === 0 && this.header.length === 0;
      if (errorPending && this.listenerCount('data') > 0) super.emit('data', readyAfterError);
    }
    // Reported without its error: the driver then rejects whatever it sent in the meantime instead of leaving it waiting.
    const emitClose = () => super.emit('close', false);
    setImmediate(() => setImmediate(emitClose));
    return this.listenerCount('close') > 0;
  }
}

/** What postgres.js hands its `socket` option: the parsed connection options. */
interface SocketOptions {
  host: string[];
  port: number[];
  path?: string | false;
  connect_timeout?: number;
}

/** A connected socket for postgres.js (the driver does not connect a socket it is given). */
export function openPgSocket(options: SocketOptions): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = new LateCloseSocket();
    const timeout = setTimeout(() => socket.destroy(Object.assign(new Error('connect timeout'), { code: 'CONNECT_TIMEOUT' })), (options.connect_timeout ?? 30) * 1000);
    const failed = (error: Error) => {
      clearTimeout(timeout);
      reject(error);
    };
    socket.once('error', failed);
    socket.once('connect', () => {
      clearTimeout(timeout);
      socket.off('error', failed);
      socket.watchWrites();
      resolve(socket);
    });
    if (options.path) socket.connect(options.path);
    else socket.connect(options.port[0] ?? 5432, options.host[0] ?? 'localhost');
  });
}
