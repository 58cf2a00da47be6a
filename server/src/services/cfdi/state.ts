import { fromCents, invoiceRequestDeadline, studioTimeZone, toCents, type PurchaseCfdiOutput } from '@estudio/core';
import { and, eq, inArray, ne } from 'drizzle-orm';
import { cfdi, cfdi_global_charge } from '@estudio/db/schema/cfdi';
import type { purchase } from '@estudio/db/schema/purchases';
import type { Db } from '../../db.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import { cfdiOn, paidCharges } from './charges.ts';
import { pacConfigured } from './pac-settings.ts';

type PurchaseRow = typeof purchase.$inferSelect;
type CfdiRow = typeof cfdi.$inferSelect;

const empty: PurchaseCfdiOutput = {
  state: 'none',
  cfdi_id: null,
  uuid: null,
  waiting_for_pac: false,
  failure_reason: null,
  can_request: false,
  request_until: null,
  credit_notes: [],
};

/**
 * Each purchase's invoice as Mis Compras, the order page and the desk show it
 * (decision 084): its personal invoice (the newest live one, else the last
 * cancelled), else 'global' when its charge went on a global invoice; whether
 * the customer can still ask for it (paid, not a gift, in the window, not on a
 * global invoice, not asked yet) and until when; its credit notes.
 */
export async function purchaseCfdiStates(
  db: Db,
  purchases: readonly Pick<PurchaseRow, 'purchase_id' | 'status' | 'is_gift'>[],
  now: Date = new Date(),
): Promise<Map<number, PurchaseCfdiOutput>> {
  const out = new Map<number, PurchaseCfdiOutput>();
  const ids = purchases.map((p) => p.purchase_id);
  if (ids.length === 0) return out;
  const settings = await loadStudioSettings(db);
  const tz = studioTimeZone(settings);
  const [docs, charges] = await Promise.all([db.select().from(cfdi).where(inArray(cfdi.purchase_id, ids)), paidCharges(db, ids)]);
  const chargeIds = charges.map((c) => c.charge.invoice_id);
  const onGlobal = chargeIds.length
    ? new Set((await db.select({ id: cfdi_global_charge.charge_id }).from(cfdi_global_charge).where(inArray(cfdi_global_charge.charge_id, chargeIds))).map((r) => r.id))
    : new Set<number>();
  const waitingForPac = docs.some((d) => d.status === 'pending') && !(await pacConfigured(db));
  for (const p of purchases) {
    const own = docs.filter((d) => d.purchase_id === p.purchase_id);
    const invoices = own.filter((d) => d.kind === 'invoice').sort((a, b) => b.cfdi_id - a.cfdi_id);
    const live = invoices.find((d) => d.status !== 'cancelled') ?? invoices[0] ?? null;
    const mine = charges.filter((c) => c.charge.purchase_id === p.purchase_id);
    const latest = mine[0] ?? null;
    const chargeInvoiced = new Set(invoices.filter((d) => d.status !== 'cancelled').map((d) => d.charge_id));
    const open = mine.find((c) => !chargeInvoiced.has(c.charge.invoice_id) && !onGlobal.has(c.charge.invoice_id)) ?? null;
    const deadline = open ? invoiceRequestDeadline(open.charge.paidAt ?? open.charge.createdAt, settings.cfdi_request_days, tz) : null;
    const canRequest =
      cfdiOn(settings) && open !== null && deadline !== null && deadline.getTime() > now.getTime() && !p.is_gift && p.status !== 'revoked' && p.status !== 'pending' && p.status !== 'failed';
    const credit = own
      .filter((d) => d.kind === 'credit_note')
      .map((d) => ({ cfdi_id: d.cfdi_id, uuid: d.uuid, total: d.total, state: d.status as PurchaseCfdiOutput['state'] }));
    const state: PurchaseCfdiOutput['state'] = live ? stateOf(live) : latest && onGlobal.has(latest.charge.invoice_id) ? 'global' : 'none';
    out.set(p.purchase_id, {
      ...empty,
      state,
      cfdi_id: live?.cfdi_id ?? null,
      uuid: live?.uuid ?? null,
      waiting_for_pac: live?.status === 'pending' && waitingForPac,
      failure_reason: live?.status === 'failed' ? live.failure_reason : null,
      can_request: canRequest || live?.status === 'failed',
      request_until: canRequest && deadline ? deadline.toISOString() : null,
      credit_notes: credit,
    });
  }
  return out;
}

const stateOf = (d: CfdiRow): PurchaseCfdiOutput['state'] => d.status;

/** A charge's amount less what was given back of it, in centavos (the global invoice's line). */
export const netCents = (total: string, refunded: string | null) => Math.max(0, toCents(total) - (refunded ? toCents(refunded) : 0));
export const money = fromCents;

/** Whether any live personal invoice exists for a charge (used under the charge's row lock). */
export async function liveInvoiceOf(db: Db, chargeId: number): Promise<CfdiRow | null> {
  const [row] = await db
    .select()
    .from(cfdi)
    .where(and(eq(cfdi.charge_id, chargeId), eq(cfdi.kind, 'invoice'), ne(cfdi.status, 'cancelled')));
  return row ?? null;
}
