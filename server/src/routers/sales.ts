import { counterSaleOutput, counterSaleQuoteInput, counterSaleQuoteOutput, customerProductSalesOutput, deskMutationArgs, productReturnInput, productReturnOutput, z } from '@estudio/core';
import { customerProductSales, returnProduct } from '../services/products/return-product.ts';
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

  products: staffProcedure
    .meta({ openapi: { method: 'GET', path: '/sales/products', tags, summary: 'Los productos que un cliente compró en recepción, con lo que aún puede devolver' } })
    .input(z.object({ customer_id: z.coerce.number({ error: 'Debe ser un número.' }).int().positive() }))
    .output(customerProductSalesOutput)
    .query(({ ctx, input }) => customerProductSales(ctx.db, input.customer_id)),

  returnProduct: staffProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/sales/products/{product_sale_id}/return',
        tags,
        summary: 'Devuelve piezas de una venta de producto: el dinero regresa como se pagó y, si se puede vender, la pieza al anaquel (recepción y admin)',
        errorResponses: { 404: 'La venta no existe', 409: 'No quedan tantas piezas por devolver' },
      },
    })
    .input(productReturnInput)
    .output(productReturnOutput)
    .mutation(({ ctx, input }) => returnProduct(ctx.db, ctx.customer, input)),
});
