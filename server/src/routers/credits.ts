import { availableClassesOutput, availableClassIdInput, availableClassResult, grantCreditsInput, removeCreditsInput, updateCreditsInput, z } from '@estudio/core';
import { grantCredits } from '../services/credits/grant-credits.ts';
import { getCredit, listCredits } from '../services/credits/list-credits.ts';
import { removeCredits } from '../services/credits/remove-credits.ts';
import { updateCredits } from '../services/credits/update-credits.ts';
import { customerProcedure, router, staffProcedure } from '../trpc.ts';

const tags = ['credits'];

export const creditsRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/available_classes', tags, summary: 'Créditos vigentes del cliente de la sesión' } })
    .output(availableClassesOutput)
    .query(async ({ ctx }) => listCredits(ctx.db, ctx.customer.customer_id)),

  history: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/available_classes/date/all', tags, summary: 'Todos los créditos del cliente, vencidos y agotados incluidos' } })
    .output(availableClassesOutput)
    .query(async ({ ctx }) => listCredits(ctx.db, ctx.customer.customer_id, { history: true })),

  byId: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/available_classes/{id}', tags, summary: 'Un registro de créditos propio', errorResponses: { 404: 'No existe o no es tuyo' } } })
    .input(availableClassIdInput)
    .output(availableClassResult)
    .query(async ({ ctx, input }) => ({ available_class: await getCredit(ctx.db, input.id, ctx.customer) })),

  grant: staffProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/available_classes',
        tags,
        summary: 'Otorga créditos a un cliente con un motivo (recepción dentro del límite de regalos; admin)',
        errorResponses: { 400: 'Falta el motivo', 403: 'Solo recepción y admin, o pasa del límite de Recepción', 404: 'Cliente o tipo de clase inexistente' },
      },
    })
    .input(grantCreditsInput)
    .output(availableClassResult)
    .mutation(async ({ ctx, input }) => ({ available_class: await grantCredits(ctx.db, ctx.customer, input) })),

  update: staffProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/available_classes/{id}',
        tags,
        summary: 'Corrige un registro de créditos con un motivo (recepción dentro del límite de regalos; admin)',
        errorResponses: { 400: 'Falta el motivo', 403: 'Solo recepción y admin, o pasa del límite de Recepción', 404: 'No existe' },
      },
    })
    .input(updateCreditsInput)
    .output(availableClassResult)
    .mutation(async ({ ctx, input }) => ({ available_class: await updateCredits(ctx.db, ctx.customer, input) })),

  remove: staffProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/available_classes/{id}', tags, summary: 'Retira un registro de créditos con un motivo (?reason=…; recepción y admin)', errorResponses: { 400: 'Falta el motivo', 403: 'Solo recepción y admin', 404: 'No existe' } },
    })
    .input(removeCreditsInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await removeCredits(ctx.db, ctx.customer, input);
      return { ok: true as const };
    }),
});
