import { bookingImportInput, bookingImportOutput, creditImportInput, creditImportOutput, customerImportInput, customerImportOutput } from '@estudio/core';
import { importBookingsFromConsole } from '../services/import/booking-import.ts';
import { importCreditsFromConsole } from '../services/import/credit-import.ts';
import { importCustomersFromConsole } from '../services/import/customer-import.ts';
import { adminProcedure, router } from '../trpc.ts';

const tags = ['import'];

/** Bringing a studio's customers, their credits and their bookings over from another system's CSV (decisions 125, 127). */
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
  credits: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/import/credits',
        tags,
        summary: 'Importa de un CSV las clases que les quedan a los clientes y sus membresías ilimitadas; con dry_run dice qué haría cada línea (admin)',
        errorResponses: { 400: 'Un campo no es válido, o el archivo pasa de 900 KB' },
      },
    })
    .input(creditImportInput)
    .output(creditImportOutput)
    .mutation(({ ctx, input }) => importCreditsFromConsole(ctx.db, { customer_id: ctx.customer.customer_id }, input)),
  bookings: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/import/bookings',
        tags,
        summary: 'Importa de un CSV las reservaciones futuras de los clientes en las clases del horario; con dry_run dice qué haría cada línea (admin)',
        errorResponses: { 400: 'Un campo no es válido, o el archivo pasa de 900 KB' },
      },
    })
    .input(bookingImportInput)
    .output(bookingImportOutput)
    .mutation(({ ctx, input }) => importBookingsFromConsole(ctx.db, { customer_id: ctx.customer.customer_id }, input)),
});
