import { createWaitlistInput, updateWaitlistInput, waitlistIdInput, waitlistResult, waitlistsOutput, z } from '@estudio/core';
import { joinWaitlist } from '../services/waitlist/join-waitlist.ts';
import { leaveWaitlist } from '../services/waitlist/leave-waitlist.ts';
import { findWaitlistFor, listWaitlists } from '../services/waitlist/list-waitlists.ts';
import { moveWaitlist } from '../services/waitlist/move-waitlist.ts';
import { toWaitlistOutput } from '../services/waitlist/waitlist-output.ts';
import { customerProcedure, router } from '../trpc.ts';

const tags = ['waitlist'];

export const waitlistRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/waitlist', tags, summary: 'Listas de espera del cliente para clases por venir' } })
    .output(waitlistsOutput)
    .query(async ({ ctx }) => ({ waitlists: await listWaitlists(ctx.db, ctx.customer.customer_id) })),

  byId: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/waitlist/{id}', tags, summary: 'Una lista de espera propia' } })
    .input(waitlistIdInput)
    .output(waitlistResult)
    .query(async ({ ctx, input }) => ({
      waitlist: await toWaitlistOutput(ctx.db, await findWaitlistFor(ctx.db, input.id, ctx.customer)),
    })),

  create: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/waitlist',
        tags,
        summary: 'Anota al cliente (o, para recepción, al cliente indicado) en la lista de espera de una clase llena',
        errorResponses: { 409: 'Ya reservada o ya anotada', 412: 'Lista de espera desactivada o clase con lugares' },
      },
    })
    .input(createWaitlistInput)
    .output(waitlistResult)
    .mutation(async ({ ctx, input }) => ({ waitlist: await joinWaitlist(ctx.db, input, ctx.customer) })),

  update: customerProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/waitlist',
        tags,
        summary: 'Cambia una lista de espera a otra clase llena',
        errorResponses: { 404: 'No existe o no es tuya', 409: 'Ya reservada o ya anotada', 412: 'Lista de espera desactivada o clase con lugares' },
      },
    })
    .input(updateWaitlistInput)
    .output(waitlistResult)
    .mutation(async ({ ctx, input }) => ({ waitlist: await moveWaitlist(ctx.db, input, ctx.customer) })),

  remove: customerProcedure
    .meta({ openapi: { method: 'DELETE', path: '/waitlist/{id}', tags, summary: 'Sale de una lista de espera', errorResponses: { 404: 'No existe o no es tuya' } } })
    .input(waitlistIdInput)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(async ({ ctx, input }) => {
      await leaveWaitlist(ctx.db, input.id, ctx.customer);
      return { ok: true as const };
    }),
});
