import FacturapiModule, { FacturapiError } from 'facturapi';

/**
 * The SDK's class. Node loads the package's CommonJS build, whose default
 * export is the module object with the class as its `default` (vite and the
 * bundler read the ES build, where it is the class itself).
 */
const Facturapi = ((FacturapiModule as unknown as { default?: typeof FacturapiModule }).default ?? FacturapiModule) as typeof FacturapiModule;

/**
 * The PAC behind the studio's CFDI 4.0 invoices (decision 084): facturapi's
 * official SDK. `baseUrl` points it at the tests' loopback fake (the SDK's
 * BASE_URL setter); the key is the studio's secret key (test or live).
 */

/** An invoice as facturapi answers it: what the product keeps. */
export interface PacInvoice {
  id: string;
  uuid: string | null;
  status: string;
  cancellation_status: string | null;
  series: string | null;
  folio_number: string | null;
  total: number;
}

/**
 * A refusal or failure of the PAC. `permanent`: the document itself is wrong
 * (a 4xx other than rate limits and conflicts) and will fail again until
 * someone fixes it; otherwise it is retried later. `reason` is Spanish:
 * facturapi writes its messages for people, in Spanish.
 */
export class PacFailure extends Error {
  constructor(
    readonly reason: string,
    readonly permanent: boolean,
    readonly code: string | null,
    readonly detailCodes: string[],
  ) {
    super(reason);
    this.name = 'PacFailure';
  }
}

export interface PacClient {
  createInvoice(body: Record<string, unknown>): Promise<PacInvoice>;
  cancelInvoice(id: string, motive: string, substitution?: string): Promise<PacInvoice>;
  retrieveInvoice(id: string): Promise<PacInvoice>;
  downloadPdf(id: string): Promise<Buffer>;
  downloadXml(id: string): Promise<string>;
  /** Verifies a webhook's Facturapi-Signature (HMAC-SHA256 of the raw body) and answers the event. */
  validateWebhook(secret: string, signature: string, payload: string): Promise<{ id?: string; type: string; data: { type: string; object: Record<string, unknown> } }>;
}

function invoiceOf(value: unknown): PacInvoice {
  const v = value as Record<string, unknown>;
  return {
    id: String(v.id),
    uuid: typeof v.uuid === 'string' ? v.uuid : null,
    status: String(v.status ?? ''),
    cancellation_status: typeof v.cancellation_status === 'string' ? v.cancellation_status : null,
    series: typeof v.series === 'string' && v.series ? v.series : null,
    folio_number: v.folio_number === undefined || v.folio_number === null ? null : String(v.folio_number),
    total: Number(v.total ?? 0),
  };
}

/** facturapi's error as a PacFailure: its Spanish message, permanent unless the PAC or the network was the problem. */
export function pacFailureOf(err: unknown): PacFailure {
  if (err instanceof FacturapiError) {
    const status = err.status ?? 0;
    const permanent = status >= 400 && status < 500 && status !== 408 && status !== 409 && status !== 429;
    const details = (err.errors ?? []).map((e) => String((e as { code?: unknown }).code ?? '')).filter(Boolean);
    return new PacFailure(err.message || 'El proveedor de facturación rechazó el documento.', permanent, err.code ?? null, details);
  }
  return new PacFailure('No hubo respuesta del proveedor de facturación.', false, null, []);
}

async function bytesOf(value: unknown): Promise<Buffer> {
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value);
  if (typeof Blob !== 'undefined' && value instanceof Blob) return Buffer.from(await value.arrayBuffer());
  if (typeof value === 'string') return Buffer.from(value, 'utf8');
  // Node: a Readable stream.
  const chunks: Buffer[] = [];
  for await (const chunk of value as AsyncIterable<Buffer | string>) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    throw pacFailureOf(err);
  }
}

export function createFacturapiClient(key: string, baseUrl: string): PacClient {
  const client = new Facturapi(key);
  client.BASE_URL = baseUrl.replace(/\/$/, '');
  return {
    createInvoice: (body) => guarded(async () => invoiceOf(await client.invoices.create(body as never))),
    cancelInvoice: (id, motive, substitution) =>
      guarded(async () => invoiceOf(await client.invoices.cancel(id, { motive, ...(substitution ? { substitution } : {}) } as never))),
    retrieveInvoice: (id) => guarded(async () => invoiceOf(await client.invoices.retrieve(id))),
    downloadPdf: (id) => guarded(async () => bytesOf(await client.invoices.downloadPdf(id))),
    downloadXml: (id) => guarded(async () => (await bytesOf(await client.invoices.downloadXml(id))).toString('utf8')),
    validateWebhook: async (secret, signature, payload) =>
      (await client.webhooks.validateSignature({ secret, signature, payload })) as unknown as Awaited<ReturnType<PacClient['validateWebhook']>>,
  };
}
