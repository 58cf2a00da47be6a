import { createServer as createHttpServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { Config } from '../../src/config.ts';
import type { Db } from '../../src/db.ts';
import { startDeliveryWorker } from '../../src/services/messages/delivery-worker.ts';
import { testConfig } from './helpers.ts';

/** A free loopback port (for a server that must come up later on a known port). */
export async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

export interface MailPart {
  headers: Map<string, string>;
  contentType: string;
  filename: string | null;
  body: string;
}

export interface ReceivedMail {
  envelopeFrom: string;
  envelopeTo: string[];
  user: string | null;
  raw: string;
  headers: Map<string, string>;
  from: string;
  to: string;
  subject: string;
  messageId: string;
  text: string;
  html: string;
  parts: MailPart[];
}

/** =?UTF-8?Q?...?= and =?UTF-8?B?...?= words of a header. */
function decodeWords(value: string): string {
  return value.replace(/\?=\s+=\?/g, '?==?').replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, enc: string, text: string) => {
    if (enc.toUpperCase() === 'B') return Buffer.from(text, 'base64').toString('utf8');
    const bytes = text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  });
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const at = line.indexOf(':');
    if (at > 0) headers.set(line.slice(0, at).trim().toLowerCase(), decodeWords(line.slice(at + 1).trim()));
  }
  return headers;
}

function decodeBody(body: string, encoding: string | undefined): string {
  if (encoding?.toLowerCase() === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding?.toLowerCase() === 'quoted-printable') {
    const bytes = body.replace(/=\r\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

/** The leaf parts of a MIME entity (enough MIME for what nodemailer writes). */
function leaves(entity: string): MailPart[] {
  const split = entity.indexOf('\r\n\r\n');
  const headers = parseHeaders(split >= 0 ? entity.slice(0, split) : entity);
  const body = split >= 0 ? entity.slice(split + 4) : '';
  const contentType = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (/^multipart\//i.test(contentType) && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((p) => !p.startsWith('--'))
      .flatMap((p) => leaves(p.replace(/^\r\n/, '').replace(/\r\n$/, '')));
  }
  const filename = /filename="?([^";]+)"?/i.exec(headers.get('content-disposition') ?? '')?.[1] ?? /name="?([^";]+)"?/i.exec(contentType)?.[1] ?? null;
  return [{ headers, contentType, filename, body: decodeBody(body, headers.get('content-transfer-encoding')) }];
}

export function parseMail(raw: string, envelope: { from: string; to: string[]; user: string | null }): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const headers = parseHeaders(raw.slice(0, split));
  const parts = leaves(raw);
  const inline = (type: string) => parts.find((p) => p.contentType.toLowerCase().startsWith(type) && !p.filename)?.body ?? '';
  return {
    envelopeFrom: envelope.from,
    envelopeTo: envelope.to,
    user: envelope.user,
    raw,
    headers,
    from: headers.get('from') ?? '',
    to: headers.get('to') ?? '',
    subject: headers.get('subject') ?? '',
    messageId: headers.get('message-id') ?? '',
    text: inline('text/plain'),
    html: inline('text/html'),
    parts,
  };
}

export interface LoopbackSmtp {
  port: number;
  received: ReceivedMail[];
  /** Messages whose DATA is being held (holdData), by Message-ID. */
  held: string[];
  close(): Promise<void>;
}

export interface LoopbackSmtpOptions {
  port?: number;
  /** Require AUTH with these credentials (PLAIN/LOGIN over plain text, as on a loopback). */
  auth?: { user: string; pass: string };
  /** RCPT TO refused with 550 for these addresses. */
  refuse?: (address: string) => boolean;
  /** Never answer DATA (a message in flight when a process is killed). */
  holdData?: (raw: string) => boolean;
  /** Answer each DATA this long after it arrives (a slow provider: sends in flight at a shutdown). */
  delayMs?: number;
}

/** A real SMTP server (smtp-server) on loopback that keeps what arrives. */
export async function startLoopbackSmtp(options: LoopbackSmtpOptions = {}): Promise<LoopbackSmtp> {
  const received: ReceivedMail[] = [];
  const held: string[] = [];
  const serverOptions: SMTPServerOptions = {
    disabledCommands: options.auth ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) return callback(null, { user: auth.username });
      return callback(Object.assign(new Error('Credenciales inválidas'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (options.refuse?.(address.address)) return callback(Object.assign(new Error('5.1.1 Mailbox does not exist'), { responseCode: 550 }));
      return callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const mail = parseMail(raw, {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : null,
        });
        if (options.holdData?.(raw)) {
          held.push(mail.messageId);
          return; // never answered: the sender waits until it is killed or times out
        }
        const accept = () => {
          received.push(mail);
          callback(null, 'Message queued');
        };
        if (options.delayMs) setTimeout(accept, options.delayMs);
        else accept();
      });
    },
  };
  const server = new SMTPServer(serverOptions);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  // A sender that goes away without QUIT (a process that exits) resets its connection: not this server's failure.
  server.on('error', () => {});
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    received,
    held,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface CloudApiRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface LoopbackCloudApi {
  base: string;
  requests: CloudApiRequest[];
  /** The next answers (status, JSON, headers), in order; then 200 with a wamid. */
  answers: { status: number; body: unknown; headers?: Record<string, string> }[];
  close(): Promise<void>;
}

/** A loopback HTTP server speaking the WhatsApp Cloud API's message endpoint. */
export async function startLoopbackCloudApi(): Promise<LoopbackCloudApi> {
  const requests: CloudApiRequest[] = [];
  const answers: LoopbackCloudApi['answers'] = [];
  let counter = 0;
  const server = createHttpServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = {};
      }
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      const answer = answers.shift() ?? {
        status: 200,
        body: { messaging_product: 'whatsapp', contacts: [{ input: body.to, wa_id: body.to }], messages: [{ id: `wamid.PRUEBA${++counter}` }] },
      };
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/v21.0`,
    requests,
    answers,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A worker's config: nothing in the environment, no polling of its own (tests call drain). */
export function workerConfig(env: Record<string, string> = {}): Config {
  // A lease of 60 s gives each send the full 20 s provider timeout: on a loaded CI machine a 3 s timeout (a 10 s lease) left a loopback send pending.
  return testConfig({ MESSAGE_POLL_MS: '60000', MESSAGE_CLAIM_LEASE_MS: '60000', ...env });
}

export const silentLog = { info: () => {}, warn: () => {}, error: () => {} };

/** One worker sends everything due now, then the worker and the loopback server close. */
export async function drainThenClose(db: Db, config: Config, smtp: LoopbackSmtp): Promise<void> {
  const worker = startDeliveryWorker({ db, config, log: silentLog });
  try {
    await worker.drain();
  } finally {
    await worker.stop();
    await smtp.close();
  }
}
