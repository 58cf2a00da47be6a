import {
  adminPurchasesInput,
  adminPurchasesOutput,
  invoicesOutput,
  purchaseCancelInput,
  purchaseIdInput,
  purchaseMarkPaidInput,
  purchaseOneOutput,
  purchaseRefundInput,
  purchaseRefundOutput,
  purchaseReleaseLimitInput,
  purchasesOutput,
  refundQuoteOutput,
  z,
} from '@estudio/core';
import { listAdminPurchases } from '../services/purchases/list-admin-purchases.ts';
import { markCashPurchasePaid } from '../services/desk/mark-purchase-paid.ts';
import { cancelPurchase, getPurchase, listOwnInvoices, listOwnPurchases } from '../services/purchases/purchases.ts';
import { messageContextOf } from '../services/messages/message-context.ts';
import { paymentProviders } from '../providers/payments/index.ts';
import { releasePurchaseLimit } from '../services/purchases/release-purchase-limit.ts';
import { refundPurchase, refundQuote } from '../services/refunds/refund-purchase.ts';
import { adminProcedure, customerProcedure, router, staffProcedure } from '../trpc.ts';

const tags = ['purchases'];

export const purchasesRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/purchases', tags, summary: 'Compras del cliente de la sesión' } })
    .input(z.object({}).optional())
    .output(purchasesOutput)
    .query(async ({ ctx }) => ({ purchases: await listOwnPurchases(ctx.db, ctx.customer.customer_id) })),

  // Decision 033: every customer's purchases of a period, as the previous panel's /myadmin/orders lists them.
  adminAll: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/purchases/admin/all',
        tags,
        summary: 'Compras de todos los clientes hechas en un rango de fechas del estudio, las más recientes primero, 30 por página; canceladas, revocadas y reembolsadas incluidas (admin)',
        errorResponses: { 400: 'Fechas inválidas o un rango mayor a 366 días' },
      },
    })
    .input(adminPurchasesInput)
    .output(adminPurchasesOutput)
    .query(({ ctx, input }) => listAdminPurchases(ctx.db, input)),

  byId: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/purchases/{id}', tags, summary: 'Una compra propia (recepción y admin: cualquiera)', errorResponses: { 404: 'No existe o no es tuya' } } })
    .input(purchaseIdInput)
    .output(purchaseOneOutput)
    .query(async ({ ctx, input }) => ({ purchase: await getPurchase(ctx.db, input.id, ctx.customer) })),

  cancel: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/purchases/cancel/{id}',
        tags,
        summary: 'Cancela una compra o suscripción propia con un motivo (sin reembolso)',
        errorResponses: { 400: 'Falta el motivo', 404: 'No existe o no es tuya', 409: 'Ya cancelada' },
      },
    })
    .input(purchaseCancelInput)
    .output(purchaseOneOutput)
    .mutation(async ({ ctx, input }) => ({
      purchase: await cancelPurchase({ db: ctx.db, config: ctx.config }, { id: input.id, reason: input.reason, customerId: ctx.customer.customer_id }),
    })),

  markPaid: staffProcedure
    .meta({ openapi: { method: 'PUT', path: '/purchases/{id}/paid', tags, summary: 'Marca pagada una compra en efectivo (cobrada en efectivo o por transferencia) y la otorga (recepción y admin)', errorResponses: { 403: 'Solo recepción y admin', 404: 'No existe', 409: 'No está pendiente' } } })
    .input(purchaseMarkPaidInput)
    .output(purchaseOneOutput)
    .mutation(async ({ ctx, input }) => {
      await markCashPurchasePaid(ctx.db, ctx.customer, { purchase_id: input.id, paid_with: input.paid_with }, messageContextOf(ctx.config));
      return { purchase: await getPurchase(ctx.db, input.id, ctx.customer) };
    }),

  releaseLimit: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/purchases/{id}/release-limit',
        tags,
        summary: 'Devuelve el uso que una compra pagada y terminada ocupa en los límites de su paquete y su código, con un motivo (admin)',
        errorResponses: { 400: 'Falta el motivo', 404: 'No existe', 409: 'Sigue vigente, nunca se pagó o ya se liberó' },
      },
    })
    .input(purchaseReleaseLimitInput)
    .output(purchaseOneOutput)
    .mutation(async ({ ctx, input }) => ({ purchase: await releasePurchaseLimit(ctx.db, ctx.customer, input) })),

  // Decision 034: an admin gives a purchase's money back.
  refundQuote: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/purchases/{id}/refund', tags, summary: 'Cuánto se puede reembolsar de una compra y cómo vuelve el dinero (admin)', errorResponses: { 404: 'No existe' } } })
    .input(purchaseIdInput)
    .output(refundQuoteOutput)
    .query(({ ctx, input }) => refundQuote(ctx.db, input.id)),

  refund: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/purchases/{id}/refund',
        tags,
        summary: 'Reembolsa una compra con un motivo: la tarjeta por el procesador, el efectivo queda registrado; sus créditos sin usar se eliminan (admin)',
        errorResponses: { 400: 'Falta el motivo o el importe no es válido', 404: 'No existe', 409: 'Ya reembolsada, no pagada, sin costo o el importe supera lo que no se ha usado' },
      },
    })
    .input(purchaseRefundInput)
    .output(purchaseRefundOutput)
    .mutation(async ({ ctx, input }) => ({ refund: await refundPurchase({ db: ctx.db, card: paymentProviders(ctx.config).card }, ctx.customer.customer_id, input) })),
});

export const invoicesRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/invoices', tags: ['invoices'], summary: 'Cargos del cliente de la sesión' } })
    .input(z.object({}).optional())
    .output(invoicesOutput)
    .query(async ({ ctx }) => ({ invoices: await listOwnInvoices(ctx.db, ctx.customer.customer_id) })),
});
