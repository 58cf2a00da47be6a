import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cfdiUseOf, genericRfcs, regimeOf, rfcKind, rfcProblem } from '@estudio/core';

/**
 * A facturapi-speaking HTTP server on loopback for tests and the bench: the
 * official `facturapi` SDK talks to it (its BASE_URL). It answers the calls
 * the product makes (create an invoice, cancel it, read it, download its PDF
 * and XML) with facturapi's shapes and its error shape ({ok, message, status,
 * code, path, errors}), checks the Bearer key, replays an idempotency_key's
 * invoice, checks the receiver as the SAT would (RFC, regime and use), and
 * sends webhooks signed as facturapi signs them (Facturapi-Signature: the
 * HMAC-SHA256 of the raw body with the webhook secret, hex).
 */
export interface FacturapiFake {
  /** The SDK's base URL: http://127.0.0.1:<port>/v2 */
  baseUrl: string;
  key: string;
  webhookSecret: string;
  webhookUrl: string | null;
  invoices: Map<string, Record<string, unknown>>;
  requests: { method: string; path: string; body: unknown }[];
  /** RFCs the SAT "does not find" (a stamping refusal, permanent). */
  unknownRfcs: Set<string>;
  /** Answer 503 to every request (a PAC outage). */
  down: boolean;
  /** Invoices to persons whose cancellation waits for the receiver (CFDI 4.0: over $1,000 MXN). */
  receiverAcceptsAbove: number;
  sendEvent(type: string, invoiceId: string): Promise<number>;
  close(): Promise<void>;
}

const minimalPdf = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj 3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const error = (status: number, code: string, message: string, extra: { path?: string; errors?: unknown[] } = {}) => ({
  status,
  body: { ok: false, message, status, code, ...(extra.path ? { path: extra.path, location: 'body' } : {}), ...(extra.errors ? { errors: extra.errors } : {}) },
});

export async function startFacturapiFake(options: { key?: string; webhookSecret?: string } = {}): Promise<FacturapiFake> {
  const invoices = new Map<string, Record<string, unknown>>();
  const byIdempotency = new Map<string, string>();
  const requests: FacturapiFake['requests'] = [];
  let folio = 0;

  function validateReceiver(body: Record<string, unknown>) {
    const customer = body.customer as Record<string, unknown> | undefined;
    if (!customer || typeof customer !== 'object') return error(400, 'invalid_request', 'El campo "customer" es requerido.', { path: 'customer' });
    const taxId = String(customer.tax_id ?? '');
    const generic = taxId === genericRfcs.publicoEnGeneral;
    if (!generic && rfcProblem(taxId)) return error(400, 'invalid_request', `El RFC "${taxId}" no es válido.`, { path: 'customer.tax_id', errors: [{ code: 'invalid_format', source: 'facturapi', path: 'customer.tax_id', message: 'RFC inválido.' }] });
    if (fake.unknownRfcs.has(taxId)) {
      return error(400, 'invoice_stamping_validation_error', `No se encontró el RFC [${taxId}] en la Lista de Contribuyentes Obligados.`, { errors: [{ code: '402', source: 'pac', message: 'RFC no encontrado.' }] });
    }
    const regime = regimeOf(String(customer.tax_system ?? ''));
    const kind = generic ? 'fisica' : rfcKind(taxId);
    if (!regime || !kind || !regime[kind]) return error(400, 'invoice_stamping_validation_error', 'El régimen fiscal del receptor no corresponde a su RFC.', { errors: [{ code: 'CFDI40158', source: 'sat', message: 'Régimen no corresponde.' }] });
    const use = cfdiUseOf(String(body.use ?? 'G01'));
    if (!use || !use.regimes.includes(regime.code)) return error(400, 'invoice_stamping_validation_error', 'El uso de CFDI no corresponde al régimen del receptor.', { errors: [{ code: 'CFDI40161', source: 'sat', message: 'Uso no permitido.' }] });
    return null;
  }

  function create(body: Record<string, unknown>) {
    const items = body.items as { quantity?: number; product: { price: number } }[] | undefined;
    if (!Array.isArray(items) || items.length === 0) return error(400, 'invalid_request', 'El campo "items" es requerido.', { path: 'items' });
    if (items.length > 5000) {
      return error(400, body.global ? 'global_invoice_too_many_items' : 'invalid_request', 'La factura excede el máximo de 5,000 conceptos. Divídela en varias.');
    }
    if (!body.payment_form) return error(400, 'invalid_request', 'El campo "payment_form" es requerido.', { path: 'payment_form' });
    const refused = validateReceiver(body);
    if (refused) return refused;
    const key = typeof body.idempotency_key === 'string' ? body.idempotency_key : null;
    const existing = key ? byIdempotency.get(key) : undefined;
    if (existing) return { status: 200, body: invoices.get(existing) };
    const id = randomBytes(12).toString('hex');
    const total = Math.round(items.reduce((n, i) => n + (i.quantity ?? 1) * Number(i.product.price), 0) * 100) / 100;
    const invoice = {
      id,
      object: 'invoice',
      livemode: false,
      created_at: new Date().toISOString(),
      date: new Date().toISOString(),
      status: 'valid',
      cancellation_status: 'none',
      type: body.type ?? 'I',
      uuid: randomUUID().toUpperCase(),
      series: (body.series as string | undefined) ?? '',
      folio_number: ++folio,
      total,
      use: body.use,
      payment_form: body.payment_form,
      customer: body.customer,
      global: body.global ?? null,
      items_count: items.length,
      related_documents: body.related_documents ?? [],
      external_id: body.external_id ?? null,
      idempotency_key: key,
    };
    invoices.set(id, invoice);
    if (key) byIdempotency.set(key, id);
    return { status: 200, body: invoice };
  }

  function route(method: string, path: string, query: URLSearchParams, body: unknown) {
    const parts = path.split('/').filter(Boolean); // ['v2', 'invoices', id, 'pdf']
    const [version, kind, id, action] = parts;
    if (version !== 'v2') return error(404, 'not_found', 'Ruta no encontrada.');
    if (kind === 'invoices' && method === 'POST' && !id) return create(body as Record<string, unknown>);
    if (kind === 'invoices' && id) {
      const invoice = invoices.get(id);
      if (!invoice) return error(404, 'invoice_not_found', 'No se encontró la factura.');
      if (method === 'GET' && !action) return { status: 200, body: invoice };
      if (method === 'GET' && action === 'pdf') return { status: 200, raw: minimalPdf, type: 'application/pdf' };
      if (method === 'GET' && action === 'xml') {
        return {
          status: 200,
          raw: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?><cfdi:Comprobante Version="4.0" Total="${String(invoice.total)}"><tfd:TimbreFiscalDigital UUID="${String(invoice.uuid)}"/></cfdi:Comprobante>`),
          type: 'application/xml',
        };
      }
      if (method === 'DELETE' && !action) {
        const motive = query.get('motive');
        if (!motive || !['01', '02', '03', '04'].includes(motive)) return error(400, 'invalid_request', 'El motivo de cancelación es requerido.', { path: 'motive' });
        if (invoice.status !== 'valid') return error(400, 'invoice_not_cancelable', 'La factura no puede cancelarse.');
        if (invoice.cancellation_status === 'pending' || invoice.cancellation_status === 'verifying') return error(409, 'invoice_cancellation_in_progress', 'La factura ya tiene una solicitud de cancelación en proceso.');
        const toPerson = (invoice.customer as { tax_id?: string }).tax_id !== genericRfcs.publicoEnGeneral;
        if (toPerson && Number(invoice.total) > fake.receiverAcceptsAbove && invoice.type === 'I') invoice.cancellation_status = 'pending';
        else {
          invoice.status = 'canceled';
          invoice.cancellation_status = 'accepted';
        }
        invoice.cancellation = { motive, requested_at: new Date().toISOString() };
        return { status: 200, body: invoice };
      }
    }
    return error(404, 'not_found', 'Ruta no encontrada.');
  }

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const raw = await readBody(req);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      let body: unknown = null;
      try {
        body = raw ? JSON.parse(raw) : null;
      } catch {
        body = null;
      }
      requests.push({ method: req.method ?? 'GET', path: url.pathname, body });
      const reply = fake.down
        ? error(503, 'invoice_stamping_service_unavailable', 'El servicio de timbrado no está disponible.')
        : req.headers.authorization !== `Bearer ${fake.key}`
          ? error(401, 'api_key_invalid', 'La llave secreta no es válida.')
          : route(req.method ?? 'GET', url.pathname, url.searchParams, body);
      if ('raw' in reply && reply.raw) {
        res.writeHead(reply.status, { 'content-type': reply.type, 'x-facturapi-log-id': randomBytes(6).toString('hex') });
        res.end(reply.raw);
        return;
      }
      res.writeHead(reply.status, { 'content-type': 'application/json; charset=utf-8', 'x-facturapi-log-id': randomBytes(6).toString('hex') });
      res.end(JSON.stringify((reply as { body: unknown }).body));
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const fake: FacturapiFake = {
    baseUrl: `http://127.0.0.1:${port}/v2`,
    key: options.key ?? 'sk_test_facturapi_fake',
    webhookSecret: options.webhookSecret ?? 'wh_sec_estudio_prueba',
    webhookUrl: null,
    invoices,
    requests,
    unknownRfcs: new Set(),
    down: false,
    receiverAcceptsAbove: 1000,
    async sendEvent(type, invoiceId) {
      if (!fake.webhookUrl) throw new Error('webhookUrl is not set');
      const payload = JSON.stringify({ id: `evt_${randomBytes(8).toString('hex')}`, created_at: new Date().toISOString(), livemode: false, organization: 'org_fake', type, data: { type: 'invoice', object: invoices.get(invoiceId) } });
      const signature = createHmac('sha256', fake.webhookSecret).update(payload).digest('hex');
      const res = await fetch(fake.webhookUrl, { method: 'POST', body: payload, headers: { 'content-type': 'application/json', 'facturapi-signature': signature } });
      return res.status;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return fake;
}

/** A receiver accepts (or rejects) a pending cancellation, as the SAT's buzón tributario does. */
export function answerCancellation(fake: FacturapiFake, invoiceId: string, accept: boolean): void {
  const invoice = fake.invoices.get(invoiceId);
  if (!invoice) throw new Error(`no invoice ${invoiceId}`);
  invoice.cancellation_status = accept ? 'accepted' : 'rejected';
  if (accept) invoice.status = 'canceled';
}
