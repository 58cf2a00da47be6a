import { adminCustomersInput, adminPurchasesInput, customerCreateInput, customerProfileFields, deskMutationArgs, DomainError, reportRangeInput, texts, z } from '@estudio/core';
import { adminCustomerRowsOf, listAdminCustomers } from '../services/customer/admin-customers.ts';
import { createCustomer } from '../services/customer/create-customer.ts';
import { toCustomerOutput } from '../services/customer/customer-output.ts';
import { paidTotalsOf } from '../services/customer/paid-totals.ts';
import { listStaffAccounts } from '../services/customer/staff-accounts.ts';
import { giveAccess } from '../services/desk/give-access.ts';
import { moveReservation } from '../services/desk/move-reservation.ts';
import { findUsableDiscount, toDiscountOutput } from '../services/discounts/validate-discount.ts';
import { messageContextOf } from '../services/messages/message-context.ts';
import { cancelPurchase, getPurchase } from '../services/purchases/purchases.ts';
import { getReservationWithCustomer, searchReservationsWithCustomer } from '../services/admin-reservations/search-reservations.ts';
import { coachPhotoSrc } from '../services/instructors/instructors.ts';
import { paidChargesOf } from '../services/purchases/customer-charges.ts';
import { listAdminPurchases } from '../services/purchases/list-admin-purchases.ts';
import { customersReport } from '../services/reports/customers-report.ts';
import { toReservationOutput } from '../services/reservations/reservation-output.ts';
import { adminProcedure, createCallerFactory, customerProcedure, knowInputsOf, publicProcedure, router, staffProcedure } from '../trpc.ts';
import { panelCustomerRow, panelOrder } from './panel-views.ts';

/**
 * Decision 040: what the previous panel asks that the spec's procedures do
 * not offer in the panel's terms, as procedures of their own, so the route
 * guards, limits and the unknown-field refusal of trpc.ts apply as to any
 * call. Each is a few lines over a product service; the rules stay there.
 * Not in the app router: only the adapter (legacy-admin.ts) calls them.
 */

/** The reason recorded when an Administrador takes something away from the panel, which has no reason field. */
export const panelReason = 'Sin motivo (panel anterior)';

const id = z.coerce.number().int().positive().max(2_147_483_647);
/** A peso amount as the panel types it ("1500.00", "1500"): two decimals at most, not negative. */
const total = z
  .union([z.string(), z.number()])
  .transform((v) => String(v).trim())
  .pipe(z.string().regex(/^\d{1,7}(\.\d{1,2})?$/, { error: 'Escribe el total en pesos, por ejemplo 1500.00.' }));

const panel = router({
  /** The customer list with what each has paid in all (the panel shows it to admins as "Valor"). */
  customersWithValue: adminProcedure.input(adminCustomersInput).query(async ({ ctx, input }) => {
    const page = await listAdminCustomers(ctx.db, input);
    const totals = await paidTotalsOf(ctx.db, page.customers.map((c) => c.customer_id));
    return { ...page, customers: page.customers.map((c) => ({ ...c, value: totals.get(c.customer_id) ?? '0.00' })) };
  }),

  /** Órdenes: the admins' purchase list, each row with the customer's paid charges (the panel stars a first purchase). */
  orders: adminProcedure.input(adminPurchasesInput).query(async ({ ctx, input }) => {
    const page = await listAdminPurchases(ctx.db, input);
    const charges = await paidChargesOf(ctx.db, [...new Set(page.purchases.map((p) => p.customer_id))]);
    return {
      ...page,
      purchases: page.purchases.map((p) =>
        panelOrder(p, { name: p.customer_first_name, last_name: p.customer_last_name }, (charges.get(p.customer_id) ?? []) as unknown as Record<string, unknown>[]),
      ),
    };
  }),

  /** The customers report with each customer as the panel's rows read them (phone, birthday, what they have paid). */
  customersReport: adminProcedure.input(reportRangeInput).query(async ({ ctx, input }) => {
    const report = await customersReport(ctx.db, input);
    const ids = [...new Set([...report.nuevos, ...report.activos, ...report.cancelados].map((c) => c.customer_id))];
    const [rows, totals] = await Promise.all([adminCustomerRowsOf(ctx.db, ids), paidTotalsOf(ctx.db, ids)]);
    const withRow = (list: typeof report.nuevos) => list.map((c) => panelCustomerRow({ ...c, ...rows.get(c.customer_id) }, totals.get(c.customer_id)));
    return { nuevos: withRow(report.nuevos), activos: withRow(report.activos), cancelados: withRow(report.cancelados) };
  }),

  /** Everyone booked in a class (live reservations), every page of the reservation search. */
  roster: staffProcedure.input(z.object({ single_class_id: id })).query(async ({ ctx, input }) => {
    const found = await searchReservationsWithCustomer(ctx.db, { single_class_id: input.single_class_id, status: 'live', page: 1 });
    const all = [...found.class_reservations];
    for (let page = 2; all.length < found.total && page <= 100; page++) {
      all.push(...(await searchReservationsWithCustomer(ctx.db, { single_class_id: input.single_class_id, status: 'live', page })).class_reservations);
    }
    return { total: found.total, class_reservations: all };
  }),

  /** Where a coach's photo is (the panel shows /adjuntos/{file id}); 404 for any file that is not a coach's photo. */
  coachPhoto: publicProcedure.input(z.object({ id })).query(async ({ ctx, input }) => {
    const src = await coachPhotoSrc(ctx.db, input.id);
    if (!src) throw new DomainError('file/not-found');
    return { src };
  }),

  /** Who works at the studio (Usuarios): the accounts with a role other than Cliente. */
  staffAccounts: adminProcedure.input(adminCustomersInput).query(({ ctx, input }) => listStaffAccounts(ctx.db, input)),

  /** The caller's role, for the adapter's choices that depend on it (a reason written for an Administrador). */
  role: customerProcedure.query(({ ctx }) => ctx.customer.role),

  /** giveAccess with the total typed in the panel: another amount than the list price only for an Administrador (checked in the sale's transaction). */
  giveAccessAtTotal: staffProcedure.input(deskMutationArgs.giveAccess.extend({ total })).mutation(async ({ ctx, input }) => {
    const { total: typed, ...args } = input;
    const purchase = await giveAccess(ctx.db, ctx.customer, args, messageContextOf(ctx.config), new Date(), { total: typed });
    return { message: texts.desk.accessAdded, purchase_id: purchase.purchase_id, purchase: await getPurchase(ctx.db, purchase.purchase_id, ctx.customer) };
  }),

  /** An Administrador cancels a customer's purchase (the customer's own cancellation rule), with the panel's fixed reason; logged in Actividad. */
  cancelPurchaseFor: adminProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    const { customer_id: owner } = await getPurchase(ctx.db, input.id, ctx.customer);
    return { purchase: await cancelPurchase({ db: ctx.db, config: ctx.config }, { id: input.id, reason: panelReason, customerId: owner, staffId: ctx.customer.customer_id }) };
  }),

  /** A customer registered from the panel (she is not at the counter): the required documents stay pending, asked at her first sign-in to the portal. */
  createCustomerDocumentsPending: staffProcedure
    .input(customerCreateInput.extend({ instagram: customerProfileFields.instagram, birthdate: customerProfileFields.birthdate, signup_reason: customerProfileFields.signup_reason }))
    .mutation(async ({ ctx, input }) => {
      const { instagram, birthdate, signup_reason, ...data } = input;
      return { customer: toCustomerOutput(await createCustomer(ctx.db, ctx.customer.customer_id, data, { documentsPending: true, profile: { instagram, birthdate, signup_reason } })) };
    }),

  /** PUT /class_reservations with another single_class_id: the desk's move (same rules, same audit row). */
  moveReservation: staffProcedure.input(z.object({ class_reservation_id: id, single_class_id: id, spot: id.nullable().default(null) })).mutation(async ({ ctx, input }) => {
    const current = await getReservationWithCustomer(ctx.db, input.class_reservation_id);
    const moved = await moveReservation(
      ctx.db,
      ctx.customer,
      { ...input, customer_id: current.customer_id, from_single_class_id: current.single_class_id },
      new Date(),
      messageContextOf(ctx.config),
    );
    return { class_reservation: toReservationOutput(moved) };
  }),

  /** A code checked for no package: whether it can be used now (exists, on, in its dates, uses left); no total without a package. */
  discountUsable: customerProcedure.input(z.object({ code: z.string().trim().min(1, { error: 'Escribe un código de descuento.' }).max(64) })).query(async ({ ctx, input }) => {
    const discount = toDiscountOutput(await findUsableDiscount(ctx.db, input.code));
    return { discount, descuento: { ...discount, usable: true } };
  }),
});

export const legacyRouter = router({ legacy: panel });
// The unknown-field refusal (decision 032) knows these inputs, as it knows the app router's.
knowInputsOf(legacyRouter);

export const legacyCaller = createCallerFactory(legacyRouter);

