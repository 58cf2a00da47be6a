import { DomainError, drawerDifferenceCents, splitLineTitle, drawerNoteMissing, fromCents, mayHandleCashShift, studioDayRange, studioTimeZone, toCents, type CashShiftOutput } from '@estudio/core';
import type { DbOrTx } from '@estudio/db';
import { cash_shift } from '@estudio/db/schema/cash';
import { customer } from '@estudio/db/schema/customer';
import { product_return, product_sale } from '@estudio/db/schema/products';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import { and, asc, desc, eq, gte, inArray, isNotNull, isNull, lt, lte, sql } from 'drizzle-orm';
import { isUniqueViolation, type Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { roleOf, type StaffActor } from '../permissions/staff-permissions.ts';
import { paymentKindOf, productSaleKindOf } from '../reports/payment-kind.ts';
import { productLineTitle, productReturnTitle } from '../reports/product-sales.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

type ShiftRow = typeof cash_shift.$inferSelect;

/**
 * The shift at the cash drawer that a staff member's money goes into: theirs,
 * opened no later than `at` (the desk's clock for an action kept offline) and
 * still open. Locked for share, so a close waits for the sale being written and
 * a sale written after the close finds no open drawer (its cash then counts
 * only in the day's cash-up). Null: no drawer open.
 */
export async function openShiftFor(tx: DbOrTx, staffId: number, at: Date): Promise<number | null> {
  const [row] = await tx
    .select({ id: cash_shift.cash_shift_id })
    .from(cash_shift)
    .where(and(eq(cash_shift.staff_id, staffId), isNull(cash_shift.closedAt), lte(cash_shift.openedAt, at)))
    .for('share')
    .limit(1);
  return row?.id ?? null;
}

/** Recepción opens its drawer with the float in it (POST /cash_shifts); one open drawer per person. */
export async function openCashShift(db: Db, actor: StaffActor, input: { opening_float: string }, now: Date = new Date()): Promise<CashShiftOutput> {
  try {
    const id = await db.transaction(async (tx) => {
      const [open] = await tx.select({ id: cash_shift.cash_shift_id }).from(cash_shift).where(and(eq(cash_shift.staff_id, actor.customer_id), isNull(cash_shift.closedAt)));
      if (open) throw new DomainError('cash-shift/already-open');
      const [row] = await tx
        .insert(cash_shift)
        .values({ staff_id: actor.customer_id, openedAt: now, opening_float: input.opening_float })
        .returning({ id: cash_shift.cash_shift_id });
      if (!row) throw new Error('cash_shift insert returned no row');
      await recordAudit(tx, { ...auditedBy(actor), action: 'cash_shift.open', entity: 'cash_shift', entityId: row.id, changes: { opening_float: input.opening_float } });
      return row.id;
    });
    return (await shiftsOutput(db, [await shiftRow(db, id)]))[0]!;
  } catch (error) {
    // Two "Abrir caja" at once: the database's one-open-drawer index lets one through.
    if (isUniqueViolation(error)) throw new DomainError('cash-shift/already-open');
    throw error;
  }
}

/** The caller's open drawer with what it holds so far (GET /cash_shifts/current); null when none is open. */
export async function currentCashShift(db: DbOrTx, actor: StaffActor): Promise<CashShiftOutput | null> {
  const [row] = await db.select().from(cash_shift).where(and(eq(cash_shift.staff_id, actor.customer_id), isNull(cash_shift.closedAt)));
  return row ? (await shiftsOutput(db, [row]))[0]! : null;
}

/**
 * Closes a drawer with the cash counted (PUT /cash_shifts/{id}/close). What
 * was expected is summed in this transaction, with the shift locked: a sale
 * still being written is waited for, one after it finds the drawer closed.
 * A count that differs needs a word on why; the close, the count and the
 * difference go to Actividad. Recepción closes its own; an administrator any.
 */
export async function closeCashShift(
  db: Db,
  actor: StaffActor,
  input: { id: number; counted_cash: string; note?: string | null | undefined },
  now: Date = new Date(),
): Promise<CashShiftOutput> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(cash_shift).where(eq(cash_shift.cash_shift_id, input.id)).for('update');
    if (!row) throw new DomainError('cash-shift/not-found');
    const role = await roleOf(tx, actor);
    // Another person's drawer reads as absent to Recepción: its existence is not theirs to learn.
    if (!mayHandleCashShift(role, row, actor.customer_id)) throw new DomainError(row.staff_id === null ? 'cash-shift/not-found' : 'permission/cash-shift-not-yours');
    if (row.closedAt !== null) throw new DomainError('cash-shift/closed');
    const [summary] = await shiftsOutput(tx, [row]);
    const expected = summary!.expected_cash;
    const difference = drawerDifferenceCents(input.counted_cash, expected);
    if (drawerNoteMissing(difference, input.note)) throw new DomainError('cash-shift/note-required');
    const note = input.note?.trim() || null;
    await tx
      .update(cash_shift)
      .set({ closedAt: now, closed_by: actor.customer_id, expected_cash: expected, counted_cash: input.counted_cash, note })
      .where(eq(cash_shift.cash_shift_id, row.cash_shift_id));
    await recordAudit(tx, {
      ...auditedBy(actor),
      action: 'cash_shift.close',
      entity: 'cash_shift',
      entityId: row.cash_shift_id,
      changes: {
        staff_id: row.staff_id,
        staff_name: row.staff_id === actor.customer_id ? null : summary!.staff_name,
        opening_float: row.opening_float,
        expected_cash: expected,
        counted_cash: input.counted_cash,
        difference: fromCents(difference),
        note,
      },
    });
  });
  return (await shiftsOutput(db, [await shiftRow(db, input.id)]))[0]!;
}

/** GET /cash_shifts: the shifts opened in a range of studio days, the newest first; Recepción's own only. */
export async function listCashShifts(db: DbOrTx, actor: StaffActor, input: { from?: string | undefined; to?: string | undefined; staff_id?: number | undefined }) {
  const role = await roleOf(db, actor);
  const staffId = role === 'admin' ? input.staff_id : actor.customer_id;
  const zone = studioTimeZone(await loadStudioSettings(db));
  const range = input.from || input.to ? studioDayRange(input.from ?? input.to!, input.to ?? input.from!, zone) : null;
  const rows = await db
    .select()
    .from(cash_shift)
    .where(
      and(
        staffId === undefined ? undefined : eq(cash_shift.staff_id, staffId),
        range ? gte(cash_shift.openedAt, range.from) : undefined,
        range ? lt(cash_shift.openedAt, range.to) : undefined,
      ),
    )
    .orderBy(desc(cash_shift.openedAt), desc(cash_shift.cash_shift_id))
    .limit(200);
  return shiftsOutput(db, rows);
}

async function shiftRow(db: DbOrTx, id: number): Promise<ShiftRow> {
  const [row] = await db.select().from(cash_shift).where(eq(cash_shift.cash_shift_id, id));
  if (!row) throw new DomainError('cash-shift/not-found');
  return row;
}

/**
 * Shifts as staff read them: every sale and refund the drawer's owner made in
 * it, line by line; only those paid in cash are drawer money (the cash-up's
 * one rule, paymentKindOf). A closed shift says what was expected as it stood
 * at the close.
 */
async function shiftsOutput(db: DbOrTx, rows: ShiftRow[]): Promise<CashShiftOutput[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.cash_shift_id);
  const who = sql<string>`${customer.name} || ' ' || ${customer.last_name}`;
  const staffIds = [...new Set(rows.flatMap((r) => (r.staff_id === null ? [] : [r.staff_id])))];
  const [sales, products, refunds, returns, staff] = await Promise.all([
    db
      .select({
        shift: purchase.cash_shift_id,
        at: purchase.paidAt,
        purchase_id: purchase.purchase_id,
        product_sale_id: sql<number | null>`null`,
        customer: who,
        title: purchase.title,
        amount: purchase.total_payment,
        method: paymentKindOf,
        last4: purchase.terminal_last4,
        authorization: purchase.terminal_auth,
        cash_part: purchase.cash_part,
      })
      .from(purchase)
      .innerJoin(customer, eq(customer.customer_id, purchase.customer_id))
      .where(and(inArray(purchase.cash_shift_id, ids), isNotNull(purchase.paidAt)))
      .orderBy(asc(purchase.paidAt), asc(purchase.purchase_id)),
    db
      .select({
        shift: product_sale.cash_shift_id,
        at: product_sale.paidAt,
        purchase_id: sql<number | null>`null`,
        product_sale_id: product_sale.product_sale_id,
        customer: who,
        title: productLineTitle,
        amount: product_sale.total,
        method: productSaleKindOf,
        last4: product_sale.terminal_last4,
        authorization: product_sale.terminal_auth,
        cash_part: product_sale.cash_part,
      })
      .from(product_sale)
      .innerJoin(customer, eq(customer.customer_id, product_sale.customer_id))
      .where(inArray(product_sale.cash_shift_id, ids))
      .orderBy(asc(product_sale.paidAt), asc(product_sale.product_sale_id)),
    db
      .select({
        shift: invoice.cash_shift_id,
        at: invoice.paidAt,
        purchase_id: purchase.purchase_id,
        product_sale_id: sql<number | null>`null`,
        customer: who,
        title: purchase.title,
        amount: invoice.total_payment,
        method: paymentKindOf,
        last4: sql<string | null>`null`,
        authorization: sql<string | null>`null`,
        cash_part: sql<string | null>`null`,
      })
      .from(invoice)
      .innerJoin(purchase, eq(purchase.purchase_id, invoice.purchase_id))
      .innerJoin(customer, eq(customer.customer_id, purchase.customer_id))
      .where(and(inArray(invoice.cash_shift_id, ids), eq(invoice.status, 'refunded')))
      .orderBy(asc(invoice.paidAt), asc(invoice.invoice_id)),
    db
      .select({
        shift: product_return.cash_shift_id,
        at: product_return.returnedAt,
        purchase_id: sql<number | null>`null`,
        product_sale_id: product_sale.product_sale_id,
        customer: who,
        title: productReturnTitle,
        amount: product_return.amount,
        method: productSaleKindOf,
        last4: product_sale.terminal_last4,
        authorization: product_sale.terminal_auth,
        cash_part: product_return.cash_part,
      })
      .from(product_return)
      .innerJoin(product_sale, eq(product_sale.product_sale_id, product_return.product_sale_id))
      .innerJoin(customer, eq(customer.customer_id, product_sale.customer_id))
      .where(inArray(product_return.cash_shift_id, ids))
      .orderBy(asc(product_return.returnedAt), asc(product_return.product_return_id)),
    staffIds.length
      ? db.select({ id: customer.customer_id, name: who }).from(customer).where(inArray(customer.customer_id, staffIds))
      : Promise.resolve([] as { id: number; name: string }[]),
  ]);
  const names = new Map(staff.map((s) => [s.id, s.name]));
  return rows.map((row) => {
    const lines = [
      ...[...sales, ...products]
        .filter((s) => s.shift === row.cash_shift_id && toCents(s.amount) > 0)
        // A split payment is two lines: its cash part in the drawer, the rest on the card beside it.
        .flatMap(({ cash_part, ...s }) =>
          cash_part === null
            ? [s]
            : [
                { ...s, title: splitLineTitle(s.title), amount: cash_part, method: 'cash' as const, last4: null, authorization: null },
                { ...s, title: splitLineTitle(s.title), amount: fromCents(toCents(s.amount) - toCents(cash_part)) },
              ].filter((part) => toCents(part.amount) > 0),
        )
        .map((s) => ({ kind: 'sale' as const, ...s })),
      ...refunds.filter((r) => r.shift === row.cash_shift_id).map(({ cash_part: _none, ...r }) => ({ kind: 'refund' as const, ...r })),
      // A product brought back: the cash handed back from the drawer, and what went back on the card beside it.
      ...returns
        .filter((r) => r.shift === row.cash_shift_id)
        .flatMap(({ cash_part, ...r }) => [
          { ...r, amount: cash_part, method: 'cash' as const, last4: null, authorization: null },
          { ...r, amount: fromCents(toCents(r.amount) - toCents(cash_part)) },
        ])
        .filter((r) => toCents(r.amount) > 0)
        .map((r) => ({ kind: 'refund' as const, ...r })),
    ]
      .map(({ shift: _shift, at, last4, authorization, ...line }) => ({
        ...line,
        at: (at ?? row.openedAt).toISOString(),
        terminal: last4 && authorization ? { last4, authorization } : null,
        in_drawer: line.method === 'cash',
      }))
      .sort((a, b) => a.at.localeCompare(b.at));
    const sum = (kind: 'sale' | 'refund', inDrawer: boolean) => {
      const picked = lines.filter((l) => l.kind === kind && l.in_drawer === inDrawer);
      return { count: picked.length, cents: picked.reduce((n, l) => n + toCents(l.amount), 0) };
    };
    const cashSales = sum('sale', true);
    const cashRefunds = sum('refund', true);
    const otherSales = sum('sale', false);
    const live = fromCents(toCents(row.opening_float) + cashSales.cents - cashRefunds.cents);
    const expected = row.closedAt !== null && row.expected_cash !== null ? row.expected_cash : live;
    return {
      cash_shift_id: row.cash_shift_id,
      staff_id: row.staff_id,
      staff_name: row.staff_id === null ? null : (names.get(row.staff_id) ?? null),
      opened_at: row.openedAt.toISOString(),
      opening_float: fromCents(toCents(row.opening_float)),
      closed_at: row.closedAt?.toISOString() ?? null,
      closed_by: row.closed_by,
      cash_sales: { count: cashSales.count, total: fromCents(cashSales.cents) },
      cash_refunds: { count: cashRefunds.count, total: fromCents(cashRefunds.cents) },
      other_sales: { count: otherSales.count, total: fromCents(otherSales.cents) },
      expected_cash: fromCents(toCents(expected)),
      counted_cash: row.counted_cash === null ? null : fromCents(toCents(row.counted_cash)),
      difference: row.counted_cash === null ? null : fromCents(drawerDifferenceCents(row.counted_cash, expected)),
      note: row.note,
      lines,
    };
  });
}
