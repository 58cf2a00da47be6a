import { guestNameInput, reservationResult, scheduleInput, scheduleOutput, singleClassByIdInput, singleClassByIdOutput } from '@estudio/core';
import { getSingleClass } from '../services/schedule/get-single-class.ts';
import { readWeek } from '../http/week-cache.ts';
import { updateGuestName } from '../services/schedule/update-guest.ts';
import { customerProcedure, optionalAuthProcedure, router } from '../trpc.ts';

const tags = ['schedule'];

export const scheduleRouter = router({
  list: optionalAuthProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/single_class',
        tags,
        protect: false,
        summary: 'Clases entre dos fechas locales del estudio; con sesión, incluye las reservaciones y listas de espera propias',
      },
    })
    .input(scheduleInput)
    .output(scheduleOutput)
    .query(async ({ ctx, input }) => ({
      // From memory while the database has not changed (decision 041); GET /api/single_class has a faster door in app.ts.
      single_classes: await readWeek(ctx.db, input, ctx.caller?.customer?.customer_id ?? null),
    })),

  byId: optionalAuthProcedure
    .meta({ openapi: { method: 'GET', path: '/single_class/single/{id}', tags, protect: false, summary: 'Una clase' } })
    .input(singleClassByIdInput)
    .output(singleClassByIdOutput)
    .query(async ({ ctx, input }) => ({
      single_class: await getSingleClass(ctx.db, input.id, ctx.caller?.customer?.customer_id ?? null),
    })),

  updateGuest: customerProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/single_class/guest',
        tags,
        summary: 'Cambia el nombre del invitado de una reservación',
        errorResponses: { 404: 'La reservación no existe o no es tuya', 409: 'La reservación fue cancelada', 412: 'Sin invitados o clase llena' },
      },
    })
    .input(guestNameInput)
    .output(reservationResult)
    .mutation(async ({ ctx, input }) => ({
      class_reservation: await updateGuestName(ctx.db, input, { customer_id: ctx.customer.customer_id, role: ctx.customer.role }),
    })),
});
