import {
  adminDiscountOneOutput,
  adminDiscountsInput,
  adminDiscountsOutput,
  discountCreateInput,
  discountIdInput,
  discountRemovedOutput,
  discountUpdateInput,
  discountValidateInput,
  discountValidateOutput,
} from '@estudio/core';
import { getSellablePackage } from '../services/packages/package-output.ts';
import { createDiscount, getAdminDiscount, listAdminDiscounts, removeDiscount, updateDiscount } from '../services/discounts/admin-discounts.ts';
import { validateDiscount } from '../services/discounts/validate-discount.ts';
import { adminProcedure, customerProcedure, router } from '../trpc.ts';

const tags = ['discounts'];
const notFound = { 404: 'Descuento no encontrado.' };

export const discountsRouter = router({
  validate: customerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/discounts/code/{code}',
        tags,
        summary: 'Valida un código de descuento para un paquete y devuelve el total',
        errorResponses: { 404: 'Código inexistente, vencido o desactivado', 412: 'Agotado, o no aplica a este paquete' },
      },
    })
    .input(discountValidateInput)
    .output(discountValidateOutput)
    .query(async ({ ctx, input }) => {
      const pkg = await getSellablePackage(ctx.db, input.class_package_id);
      return validateDiscount(ctx.db, { code: input.code, pkg, customerId: ctx.customer.customer_id });
    }),

  // The admin console's discount codes.
  adminAll: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/discounts/admin/all', tags, summary: 'Códigos de descuento por página; busca por código o descripción (admin)' } })
    .input(adminDiscountsInput)
    .output(adminDiscountsOutput)
    .query(({ ctx, input }) => listAdminDiscounts(ctx.db, input)),

  byId: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/discounts/{id}', tags, summary: 'Un código de descuento con sus paquetes (admin)', errorResponses: notFound } })
    .input(discountIdInput)
    .output(adminDiscountOneOutput)
    .query(async ({ ctx, input }) => ({ discount: await getAdminDiscount(ctx.db, input.id) })),

  create: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/discounts',
        tags,
        summary: 'Crea un código de descuento (admin)',
        errorResponses: { 404: 'Un paquete elegido no existe', 409: 'El código ya existe (sin importar mayúsculas)' },
      },
    })
    .input(discountCreateInput)
    .output(adminDiscountOneOutput)
    .mutation(async ({ ctx, input }) => ({ discount: await createDiscount(ctx.db, ctx.customer.customer_id, input) })),

  update: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/discounts',
        tags,
        summary: 'Actualiza un código de descuento (admin)',
        errorResponses: { ...notFound, 409: 'El código ya existe (sin importar mayúsculas)' },
      },
    })
    .input(discountUpdateInput)
    .output(adminDiscountOneOutput)
    .mutation(async ({ ctx, input }) => ({ discount: await updateDiscount(ctx.db, ctx.customer.customer_id, input) })),

  remove: adminProcedure
    .meta({
      openapi: { method: 'DELETE', path: '/discounts/{id}', tags, summary: 'Elimina un código; si ya se usó solo se desactiva y se marca eliminado (admin)', errorResponses: notFound },
    })
    .input(discountIdInput)
    .output(discountRemovedOutput)
    .mutation(({ ctx, input }) => removeDiscount(ctx.db, ctx.customer.customer_id, input.id)),
});
