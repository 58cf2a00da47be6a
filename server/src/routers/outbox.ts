import { outboxIdInput, outboxListInput, outboxListOutput, outboxMessageResult } from '@estudio/core';
import { listOutbox, retryOutboxMessage } from '../services/outbox/outbox-admin.ts';
import { adminProcedure, router } from '../trpc.ts';

const tags = ['outbox'];

/** The messages the studio sends (WhatsApp, e-mail), waiting, sent or failed. */
export const outboxRouter = router({
  list: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/outbox', tags, summary: 'Mensajes por estado y canal, los más recientes primero, 50 por página (admin)' } })
    .input(outboxListInput)
    .output(outboxListOutput)
    .query(({ ctx, input }) => listOutbox(ctx.db, input)),

  retry: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/outbox/{id}/retry',
        tags,
        summary: 'Vuelve a poner en espera un mensaje fallido; conserva sus intentos (admin)',
        errorResponses: { 404: 'El mensaje no existe', 409: 'El mensaje ya fue enviado o aún está en espera' },
      },
    })
    .input(outboxIdInput)
    .output(outboxMessageResult)
    .mutation(async ({ ctx, input }) => ({ outbox_message: await retryOutboxMessage(ctx.db, input.id, { customerId: ctx.customer.customer_id }) })),
});
