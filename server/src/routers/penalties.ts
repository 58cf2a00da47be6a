import { penaltiesListInput, penaltiesOutput, penaltyIdInput, penaltyResult } from '@estudio/core';
import { getPenalty, listPenalties } from '../services/penalties/list-penalties.ts';
import { customerProcedure, router } from '../trpc.ts';

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
});
