import { productCreateInput, productIdInput, productOneOutput, productRemovedOutput, productsOutput, productUpdateInput, z } from '@estudio/core';
import { createProduct, listProducts, removeProduct, updateProduct } from '../services/products/admin-products.ts';
import { adminProcedure, router, staffProcedure } from '../trpc.ts';

const tags = ['products'];
const notFound = { 404: 'Producto no encontrado' };
const nameTaken = { 409: 'Ya hay un producto con ese nombre (sin importar mayúsculas)' };

// What the studio sells at the counter besides classes: Recepción reads the list to sell; the owner keeps it.
export const productsRouter = router({
  list: staffProcedure
    .meta({ openapi: { method: 'GET', path: '/products', tags, summary: 'Productos a la venta en recepción, por nombre, con sus existencias y piezas vendidas' } })
    .input(z.strictObject({}))
    .output(productsOutput)
    .query(async ({ ctx }) => ({ products: await listProducts(ctx.db) })),

  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/products', tags, summary: 'Crea un producto (admin)', errorResponses: nameTaken } })
    .input(productCreateInput)
    .output(productOneOutput)
    .mutation(async ({ ctx, input }) => ({ product: await createProduct(ctx.db, ctx.customer.customer_id, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/products', tags, summary: 'Actualiza un producto (admin)', errorResponses: { ...notFound, ...nameTaken } } })
    .input(productUpdateInput)
    .output(productOneOutput)
    .mutation(async ({ ctx, input }) => ({ product: await updateProduct(ctx.db, ctx.customer.customer_id, input) })),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/products/{id}', tags, summary: 'Elimina un producto; si ya se vendió solo se oculta y se marca eliminado (admin)', errorResponses: notFound } })
    .input(productIdInput)
    .output(productRemovedOutput)
    .mutation(({ ctx, input }) => removeProduct(ctx.db, ctx.customer.customer_id, input.id)),
});
