import { discountValidateInput, discountValidateOutput } from '@estudio/core';
import { getSellablePackage } from '../services/packages/package-output.ts';
import { validateDiscount } from '../services/discounts/validate-discount.ts';
import { customerProcedure, router } from '../trpc.ts';

const tags = ['discounts'];

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
});
