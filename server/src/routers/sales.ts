import { counterSaleOutput, counterSaleQuoteInput, counterSaleQuoteOutput, deskMutationArgs } from '@estudio/core';
import { messageContextOf } from '../services/messages/message-context.ts';
import { quoteAtDesk, sellAtDesk } from '../services/desk/sell-at-desk.ts';
import { router, staffProcedure } from '../trpc.ts';

const tags = ['sales'];

// Sales at the counter: packages and products in one cart; desks reach the same service through sync.push.
export const salesRouter = router({
  sell: staffProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/sales',
        tags,
        summary: 'Vende en recepción paquetes y productos en una sola cuenta, con un código de descuento opcional (recepción y admin)',
        errorResponses: { 404: 'El cliente, un paquete, un producto o la forma de pago no existen', 409: 'No hay piezas suficientes', 412: 'El código no aplica' },
      },
    })
    .input(deskMutationArgs.sellAtDesk.strict())
    .output(counterSaleOutput)
    .mutation(({ ctx, input }) => sellAtDesk(ctx.db, ctx.customer, input, messageContextOf(ctx.config))),

  quote: staffProcedure
    .meta({ openapi: { method: 'POST', path: '/sales/quote', tags, summary: 'Lo que un código de descuento quita a los paquetes de una cuenta, antes de cobrar', errorResponses: { 404: 'El código no existe', 412: 'El código no aplica' } } })
    .input(counterSaleQuoteInput)
    .output(counterSaleQuoteOutput)
    .mutation(({ ctx, input }) => quoteAtDesk(ctx.db, input)),
});
