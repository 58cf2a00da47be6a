import {
  metodoPagoCreateInput,
  metodosPagoOutput,
  okOutput,
  paymentMethodCreateInput,
  paymentMethodIdInput,
  paymentMethodResult,
  paymentMethodsOutput,
  paymentMethodUpdateInput,
  paymentSourceCreateInput,
  paymentSourceIdInput,
  paymentSourceOneOutput,
  paymentSourceSetupOutput,
  paymentSourcesOutput,
  z,
} from '@estudio/core';
import { listPaymentMethods, listPaymentSources, removePaymentSource, saveCardForCustomer, startCardSetup } from '../services/payments/payment-sources.ts';
import { paymentProviders } from '../providers/payments/index.ts';
import { createPaymentMethod, getPaymentMethod, removePaymentMethod, updatePaymentMethod } from '../services/payments/payment-methods-admin.ts';
import { adminProcedure, customerProcedure, publicProcedure, router } from '../trpc.ts';

const empty = z.object({}).optional();

export const paymentMethodsRouter = router({
  list: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/payment_methods', tags: ['payments'], protect: false, summary: 'Formas de pago del checkout (1 Tarjeta, Efectivo, PayPal según la configuración)' } })
    .input(empty)
    .output(paymentMethodsOutput)
    .query(async ({ ctx }) => ({ payment_methods: await listPaymentMethods(ctx.db), card_provider: paymentProviders(ctx.config).card.name })),

  byId: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/payment_methods/{id}', tags: ['payments'], summary: 'Una forma de pago (admin), disponible o no' } })
    .input(paymentMethodIdInput)
    .output(paymentMethodResult)
    .query(async ({ ctx, input }) => ({ payment_method: await getPaymentMethod(ctx.db, input.id) })),

  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/payment_methods', tags: ['payments'], summary: 'Crea una forma de pago (admin)' } })
    .input(paymentMethodCreateInput)
    .output(paymentMethodResult)
    .mutation(async ({ ctx, input }) => ({ payment_method: await createPaymentMethod(ctx.db, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/payment_methods', tags: ['payments'], summary: 'Cambia una forma de pago (admin)' } })
    .input(paymentMethodUpdateInput)
    .output(paymentMethodResult)
    .mutation(async ({ ctx, input }) => {
      const { payment_method_id, ...changes } = input;
      return { payment_method: await updatePaymentMethod(ctx.db, payment_method_id, changes) };
    }),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/payment_methods/{id}', tags: ['payments'], summary: 'Elimina una forma de pago sin compras (admin)', errorResponses: { 404: 'No existe', 409: 'Tiene compras' } } })
    .input(paymentMethodIdInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await removePaymentMethod(ctx.db, input.id);
      return { ok: true as const };
    }),
});

const tags = ['payment_sources'];

export const paymentSourcesRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/payment_sources', tags, summary: 'Tarjetas guardadas del cliente' } })
    .input(empty)
    .output(paymentSourcesOutput)
    .query(async ({ ctx }) => ({ payment_sources: await listPaymentSources(ctx.db, ctx.config, ctx.customer.customer_id) })),

  setup: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/payment_sources/setup', tags, summary: 'Empieza a guardar una tarjeta: el secreto del SetupIntent de Stripe (null en modo de pruebas)', errorResponses: { 412: 'Guardar tarjetas no está disponible' } } })
    .input(empty)
    .output(paymentSourceSetupOutput)
    .mutation(({ ctx }) => startCardSetup({ db: ctx.db, config: ctx.config, customerId: ctx.customer.customer_id })),

  create: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/payment_sources', tags, summary: 'Guarda una tarjeta a partir del token del navegador', errorResponses: { 402: 'Tarjeta rechazada', 412: 'Guardar tarjetas no está disponible' } } })
    .input(paymentSourceCreateInput)
    .output(paymentSourceOneOutput)
    .mutation(async ({ ctx, input }) => ({
      payment_source: await saveCardForCustomer(
        { db: ctx.db, config: ctx.config, customerId: ctx.customer.customer_id },
        { token: input.payment_method_token, card_type: input.card_type, last_digits: input.last_digits },
      ),
    })),

  remove: customerProcedure
    .meta({ openapi: { method: 'DELETE', path: '/payment_sources/{id}', tags, summary: 'Elimina una tarjeta guardada', errorResponses: { 404: 'No existe o no es tuya' } } })
    .input(paymentSourceIdInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await removePaymentSource({ db: ctx.db, config: ctx.config, customerId: ctx.customer.customer_id }, input.id);
      return { ok: true as const };
    }),
});

/** The legacy names of the same saved cards (spec: /metodosPago, response metodos_pago). */
export const metodosPagoRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/metodosPago', tags, summary: 'Tarjetas guardadas (nombre heredado)' } })
    .input(empty)
    .output(metodosPagoOutput)
    .query(async ({ ctx }) => ({ metodos_pago: await listPaymentSources(ctx.db, ctx.config, ctx.customer.customer_id) })),

  create: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/metodosPago', tags, summary: 'Guarda una tarjeta (token_id del navegador); responde la lista', errorResponses: { 402: 'Tarjeta rechazada', 412: 'Guardar tarjetas no está disponible' } } })
    .input(metodoPagoCreateInput)
    .output(metodosPagoOutput)
    .mutation(async ({ ctx, input }) => {
      const deps = { db: ctx.db, config: ctx.config, customerId: ctx.customer.customer_id };
      await saveCardForCustomer(deps, { token: input.token_id, card_type: input.card_type, last_digits: input.last_digits });
      return { metodos_pago: await listPaymentSources(ctx.db, ctx.config, ctx.customer.customer_id) };
    }),

  remove: customerProcedure
    .meta({ openapi: { method: 'DELETE', path: '/metodosPago/{id}', tags, summary: 'Elimina una tarjeta guardada; responde la lista', errorResponses: { 404: 'No existe o no es tuya' } } })
    .input(paymentSourceIdInput)
    .output(metodosPagoOutput)
    .mutation(async ({ ctx, input }) => {
      await removePaymentSource({ db: ctx.db, config: ctx.config, customerId: ctx.customer.customer_id }, input.id);
      return { metodos_pago: await listPaymentSources(ctx.db, ctx.config, ctx.customer.customer_id) };
    }),
});
