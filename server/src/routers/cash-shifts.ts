import { cashShiftCloseInput, cashShiftCurrentOutput, cashShiftEnvelope, cashShiftListInput, cashShiftOpenInput, cashShiftsOutput, z } from '@estudio/core';
import { closeCashShift, currentCashShift, listCashShifts, openCashShift } from '../services/cash/cash-shifts.ts';
import { router, staffProcedure } from '../trpc.ts';

const tags = ['cash'];

// The shifts at the cash drawer: Recepción opens and closes its own; an administrator reads and closes any.
export const cashShiftsRouter = router({
  list: staffProcedure
    .meta({ openapi: { method: 'GET', path: '/cash_shifts', tags, summary: 'Turnos de caja de un rango de días (recepción: los suyos; admin: todos)' } })
    .input(cashShiftListInput)
    .output(cashShiftsOutput)
    .query(async ({ ctx, input }) => ({ cash_shifts: await listCashShifts(ctx.db, ctx.customer, input) })),

  current: staffProcedure
    .meta({ openapi: { method: 'GET', path: '/cash_shifts/current', tags, summary: 'Tu caja abierta con lo que lleva, o null' } })
    .input(z.strictObject({}))
    .output(cashShiftCurrentOutput)
    .query(async ({ ctx }) => ({ cash_shift: await currentCashShift(ctx.db, ctx.customer) })),

  open: staffProcedure
    .meta({ openapi: { method: 'POST', path: '/cash_shifts', tags, summary: 'Abre tu caja con el fondo inicial', errorResponses: { 400: 'Fondo inválido', 409: 'Ya tienes una caja abierta' } } })
    .input(cashShiftOpenInput)
    .output(cashShiftEnvelope)
    .mutation(async ({ ctx, input }) => ({ cash_shift: await openCashShift(ctx.db, ctx.customer, input) })),

  close: staffProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/cash_shifts/{id}/close',
        tags,
        summary: 'Cierra una caja con el efectivo contado; si no cuadra, con la explicación (recepción: la suya; admin: cualquiera)',
        errorResponses: { 400: 'Importe inválido o falta la explicación', 403: 'La caja es de otra persona', 404: 'No existe', 409: 'Ya se cerró' },
      },
    })
    .input(cashShiftCloseInput)
    .output(cashShiftEnvelope)
    .mutation(async ({ ctx, input }) => ({ cash_shift: await closeCashShift(ctx.db, ctx.customer, input) })),
});
