import {
  checkoutAttemptInput,
  checkoutAttemptOutput,
  checkoutCaptureInput,
  checkoutConfirmInput,
  checkoutCreateInput,
  checkoutPaypalInput,
  checkoutPaypalOutput,
  checkoutOptionsOutput,
  checkoutVoucherInput,
  purchaseIdOutput,
  z,
} from '@estudio/core';
import { checkoutAttempt, checkoutCapture, checkoutConfirm, checkoutCreate, checkoutPaypal } from '../services/checkout/checkout.ts';
import { checkoutOptions, checkoutVoucher } from '../services/checkout/start-voucher.ts';
import { customerProcedure, publicProcedure, router } from '../trpc.ts';

const tags = ['checkout'];
const errors = {
  400: 'Sin método de pago',
  402: 'Tarjeta rechazada (decline_code en el cuerpo)',
  404: 'Paquete inexistente',
  409: 'Límite de compras por cliente',
  412: 'Límite de personas, inscripción pendiente o descuento agotado',
};

export const checkoutRouter = router({
  attempt: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/checkout/attempt', tags, summary: 'Inicia una compra: {clientSecret, purchase_id}, {purchase_id} o {session: {url}}', errorResponses: errors } })
    .input(checkoutAttemptInput)
    .output(checkoutAttemptOutput)
    .mutation(({ ctx, input }) => checkoutAttempt({ db: ctx.db, config: ctx.config, customerId: ctx.customer.customer_id, log: ctx.log }, input)),

  create: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/checkout', tags, summary: 'Paquete gratis (Obtener Oferta) o compra en efectivo', errorResponses: errors } })
    .input(checkoutCreateInput)
    .output(purchaseIdOutput)
    .mutation(({ ctx, input }) => checkoutCreate({ db: ctx.db, config: ctx.config, customerId: ctx.customer.customer_id, log: ctx.log }, input)),

  confirm: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/checkout/confirm', tags, summary: 'Confirma un pago con tarjeta con el token del navegador', errorResponses: { 402: errors[402], 404: 'Pago inexistente' } } })
    .input(checkoutConfirmInput)
    .output(purchaseIdOutput)
    .mutation(({ ctx, input }) => checkoutConfirm({ db: ctx.db, config: ctx.config, customerId: ctx.customer.customer_id, log: ctx.log }, input)),

  // Decision 080: an OXXO voucher or a SPEI transfer to the customer's own CLABE, through Stripe.
  voucher: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/checkout/voucher', tags, summary: 'Compra con ficha OXXO o transferencia SPEI: {purchase_id}; la orden muestra la ficha o la CLABE', errorResponses: errors } })
    .input(checkoutVoucherInput)
    .output(purchaseIdOutput)
    .mutation(({ ctx, input }) => checkoutVoucher({ db: ctx.db, config: ctx.config, customerId: ctx.customer.customer_id, log: ctx.log }, input)),

  options: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/checkout/options', tags, summary: 'Formas de pago de México que ofrece el estudio: OXXO, SPEI y desde cuánto meses sin intereses' } })
    .input(z.object({}).optional())
    .output(checkoutOptionsOutput)
    .query(({ ctx }) => checkoutOptions(ctx.db, ctx.config)),

  paypal: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/checkout/paypal', tags, summary: 'Compra con PayPal: {orderID} o {plan_id}', errorResponses: errors } })
    .input(checkoutPaypalInput)
    .output(checkoutPaypalOutput)
    .mutation(({ ctx, input }) => checkoutPaypal({ db: ctx.db, config: ctx.config, customerId: ctx.customer.customer_id, log: ctx.log }, input)),

  capture: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/checkout/capture', tags, summary: 'Captura el pago aprobado en PayPal', errorResponses: { 404: 'Compra inexistente', 412: 'Pago no aprobado' } } })
    .input(checkoutCaptureInput)
    .output(purchaseIdOutput)
    .mutation(({ ctx, input }) => checkoutCapture({ db: ctx.db, config: ctx.config, customerId: ctx.customer.customer_id, log: ctx.log }, input)),
});
