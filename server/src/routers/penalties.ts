import { penaltiesListInput, penaltiesOutput, penaltyIdInput, penaltyLiftInput, penaltyResult } from '@estudio/core';
import { getPenalty, listPenalties, toPenaltyOutput } from '../services/penalties/list-penalties.ts';
import { liftPenalty } from '../services/penalties/lift-penalty.ts';
import { adminProcedure, customerProcedure, router } from '../trpc.ts';

const tags = ['penalties'];

export const penaltiesRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/class_reservation_penaltys', tags, summary: 'Penalizaciones del cliente (recepción: de cualquier cliente)' } })
    .input(penaltiesListInput)
    .output(penaltiesOutput)
    .query(async ({ ctx, input }) => ({ class_reservation_penaltys: await listPenalties(ctx.db, ctx.customer, input) })),

  byId: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/class_reservation_penaltys/{id}', tags, summary: 'Una penalización', errorResponses: { 404: 'No existe o no es tuya' } } })
    .input(penaltyIdInput)
    .output(penaltyResult)
    .query(async ({ ctx, input }) => ({ class_reservation_penalty: await getPenalty(ctx.db, input.id, ctx.customer) })),

  lift: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/class_reservation_penaltys/{id}/lift',
        tags,
        summary: 'Quita una penalización activa antes de que termine, con el motivo (admin)',
        errorResponses: { 400: 'Sin motivo', 404: 'No existe', 409: 'Ya terminó o ya se quitó' },
      },
    })
    .input(penaltyLiftInput)
    .output(penaltyResult)
    .mutation(async ({ ctx, input }) => ({ class_reservation_penalty: toPenaltyOutput(await liftPenalty(ctx.db, ctx.customer, input)) })),
});
