import { customerImportInput, customerImportOutput } from '@estudio/core';
import { importCustomersFromConsole } from '../services/import/customer-import.ts';
import { adminProcedure, router } from '../trpc.ts';

const tags = ['import'];

/** Bringing a studio's customers over from another system's CSV (decision 125): the console's dry run and real run. */
export const customerImportRouter = router({
  customers: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/import/customers',
        tags,
        summary: 'Importa clientes de un CSV de otro sistema: con dry_run dice qué haría cada línea sin guardar nada; sin él los crea (admin)',
        errorResponses: { 400: 'Un campo no es válido, o el archivo pasa de 900 KB' },
      },
    })
    .input(customerImportInput)
    .output(customerImportOutput)
    .mutation(({ ctx, input }) => importCustomersFromConsole(ctx.db, { customer_id: ctx.customer.customer_id }, input)),
});
