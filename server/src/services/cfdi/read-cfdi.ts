import { DomainError, type z } from '@estudio/core';
import type { cfdiDocumentOutput, cfdiFileOutput, cfdiListInput, cfdiListOutput } from '@estudio/core';
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { cfdi } from '@estudio/db/schema/cfdi';
import type { Db } from '../../db.ts';
import { purchase } from '@estudio/db/schema/purchases';
import { pacConfigured } from './pac-settings.ts';
import { purchaseCfdiStates } from './state.ts';
import { getTaxProfile } from './tax-profile.ts';

type CfdiRow = typeof cfdi.$inferSelect;

export function cfdiOutputOf(row: CfdiRow, waitingForPac: boolean): z.infer<typeof cfdiDocumentOutput> {
  return {
    cfdi_id: row.cfdi_id,
    kind: row.kind,
    status: row.status,
    purchase_id: row.purchase_id,
    total: row.total,
    uuid: row.uuid,
    series: row.series,
    folio: row.folio,
    receiver: { rfc: row.receiver.rfc, legal_name: row.receiver.legal_name },
    failure_reason: row.failure_reason,
    cancel_motive: row.cancel_motive,
    waiting_for_pac: row.status === 'pending' && waitingForPac,
    createdAt: row.createdAt.toISOString(),
    stampedAt: row.stampedAt?.toISOString() ?? null,
  };
}

export async function cfdiOutput(db: Db, row: CfdiRow) {
  return { cfdi: cfdiOutputOf(row, !(await pacConfigured(db))) };
}

/**
 * GET /api/cfdi/{id}/file?format=pdf|xml: a stamped document's PDF or XML, as
 * the customer downloads it from Mis Compras (her own only: 404 otherwise) or
 * staff at the desk. Before it is stamped there is no file (409).
 */
export async function cfdiFile(db: Db, id: number, format: 'pdf' | 'xml', viewer: { customer_id: number; role: string }): Promise<z.infer<typeof cfdiFileOutput>> {
  const staff = viewer.role === 'staff' || viewer.role === 'admin';
  const [row] = await db.select().from(cfdi).where(staff ? eq(cfdi.cfdi_id, id) : and(eq(cfdi.cfdi_id, id), eq(cfdi.customer_id, viewer.customer_id)));
  if (!row) throw new DomainError('invoice/not-found');
  if (!row.uuid || (format === 'pdf' ? !row.pdf_base64 : !row.xml)) throw new DomainError('invoice/not-stamped');
  const base = `${row.series ?? ''}${row.folio ?? row.cfdi_id}`;
  return format === 'pdf'
    ? { filename: `${base}.pdf`, content_type: 'application/pdf', base64: row.pdf_base64 as string }
    : { filename: `${base}.xml`, content_type: 'application/xml', base64: Buffer.from(row.xml as string, 'utf8').toString('base64') };
}

/** GET /api/cfdi (admin): the studio's documents, newest first, 30 a page. */
export async function listCfdis(db: Db, input: z.infer<typeof cfdiListInput>): Promise<z.infer<typeof cfdiListOutput>> {
  const where = and(input.kind ? eq(cfdi.kind, input.kind) : undefined, input.status ? eq(cfdi.status, input.status) : undefined) as SQL | undefined;
  const [rows, [total], configured] = await Promise.all([
    db.select().from(cfdi).where(where).orderBy(desc(cfdi.cfdi_id)).limit(30).offset((input.page - 1) * 30),
    db.select({ n: count() }).from(cfdi).where(where),
    pacConfigured(db),
  ]);
  return { cfdis: rows.map((r) => cfdiOutputOf(r, !configured)), total: total?.n ?? 0 };
}

/** POST /api/cfdi/{id}/retry (staff): a document the PAC refused goes again, as it is now (a profile fixed meanwhile is not re-read: ask again from the purchase). */
export async function retryCfdi(db: Db, id: number, now: Date = new Date()) {
  const [row] = await db
    .update(cfdi)
    .set({ status: 'pending', failure_reason: null, next_attempt_at: now, updatedAt: now })
    .where(and(eq(cfdi.cfdi_id, id), eq(cfdi.status, 'failed')))
    .returning();
  if (!row) {
    const [exists] = await db.select().from(cfdi).where(eq(cfdi.cfdi_id, id));
    if (!exists) throw new DomainError('invoice/not-found');
    return cfdiOutput(db, exists);
  }
  return cfdiOutput(db, row);
}

/** GET /api/cfdi/customer/{id} (staff): the customer's tax profile and the invoice state of each of her purchases, for the desk. */
export async function cfdiForCustomer(db: Db, customerId: number) {
  const rows = await db
    .select({ purchase_id: purchase.purchase_id, status: purchase.status, is_gift: purchase.is_gift })
    .from(purchase)
    .where(eq(purchase.customer_id, customerId));
  const states = await purchaseCfdiStates(db, rows);
  return { ...(await getTaxProfile(db, customerId)), purchases: rows.map((r) => ({ purchase_id: r.purchase_id, cfdi: states.get(r.purchase_id)! })) };
}
