import {
  adminSingleClassResult,
  singleClassCancelOutput,
  singleClassCancelPreviewOutput,
  singleClassCreateInput,
  singleClassCancelInput,
  singleClassRepeatInput,
  singleClassRepeatOutput,
  singleClassSubstituteInput,
  singleClassSubstituteOutput,
  singleClassUpdateInput,
  singleClassUpdateOutput,
  seriesCancelInput,
  seriesCancelOutput,
  seriesCancelPreviewOutput,
} from '@estudio/core';
import { cancelSingleClass, previewCancelSingleClass } from '../services/admin-schedule/cancel-class.ts';
import { messageContextOf } from '../services/messages/message-context.ts';
import { repeatSchedule } from '../services/admin-schedule/repeat-schedule.ts';
import { createSingleClass, updateSingleClass } from '../services/admin-schedule/save-class.ts';
import { substituteCoach } from '../services/admin-schedule/substitute-coach.ts';
import { cancelSeries, previewCancelSeries } from '../services/admin-schedule/cancel-series.ts';
import { getSingleClass } from '../services/schedule/get-single-class.ts';
import { adminProcedure, router } from '../trpc.ts';

const tags = ['schedule'];

/** The admin's schedule. The public GET /single_class routes stay in schedule.ts. */
export const adminScheduleRouter = router({
  create: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/single_class',
        tags,
        summary: 'Crea una clase en una fecha y hora locales del estudio (admin)',
        errorResponses: { 404: 'La sucursal, el tipo de clase, el paquete o un coach no existe', 409: 'Se cruza con otra clase en el mismo lugar o con el mismo coach (allow_overlap la confirma)' },
      },
    })
    .input(singleClassCreateInput)
    .output(adminSingleClassResult)
    .mutation(async ({ ctx, input }) => ({ single_class: await createSingleClass(ctx.db, input, { customerId: ctx.customer.customer_id }) })),

  update: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/single_class',
        tags,
        summary: 'Cambia una clase, o con scope esta y las siguientes de su serie o toda la serie; moverla conserva sus reservaciones y avisa a quienes reservaron (admin)',
        errorResponses: {
          400: 'Cambio de fecha en una serie, o scope en una clase sin serie',
          404: 'La clase o una referencia no existe',
          409: 'Clase cancelada, cupo menor que los lugares reservados, o se cruza con otra clase (allow_overlap la confirma)',
        },
      },
    })
    .input(singleClassUpdateInput)
    .output(singleClassUpdateOutput)
    .mutation(async ({ ctx, input }) => {
      const updated = await updateSingleClass(ctx.db, input, { customerId: ctx.customer.customer_id }, messageContextOf(ctx.config));
      return { single_class: updated.singleClass, single_class_ids: updated.singleClassIds, messages_queued: updated.messagesQueued };
    }),

  cancelPreview: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/single_class/{id}/cancel_preview',
        tags,
        summary: 'Lo que haría cancelar una clase: reservaciones, créditos que se devolverían, lista de espera y el mensaje que recibiría cada grupo, con la nota (admin)',
        errorResponses: { 404: 'La clase no existe', 409: 'La clase ya estaba cancelada' },
      },
    })
    .input(singleClassCancelInput)
    .output(singleClassCancelPreviewOutput)
    .query(async ({ ctx, input }) => {
      const preview = await previewCancelSingleClass(ctx.db, input.id, messageContextOf(ctx.config), input.note);
      return { reservations: preview.reservations, credits_returned: preview.creditsReturned, waitlisted: preview.waitlisted, messages: preview.messages };
    }),

  cancel: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/single_class/{id}/cancel',
        tags,
        summary: 'Cancela una clase: devuelve los créditos, avisa a cada cliente (con la nota del estudio, si la hay) y vacía la lista de espera (admin)',
        errorResponses: { 404: 'La clase no existe', 409: 'La clase ya estaba cancelada' },
      },
    })
    .input(singleClassCancelInput)
    .output(singleClassCancelOutput)
    .mutation(async ({ ctx, input }) => {
      const result = await cancelSingleClass(ctx.db, input.id, { customerId: ctx.customer.customer_id }, messageContextOf(ctx.config), { note: input.note });
      return {
        single_class: await getSingleClass(ctx.db, input.id, null),
        reservations_cancelled: result.reservationsCancelled,
        credits_returned: result.creditsReturned,
        messages_queued: result.messagesQueued,
        waitlist_removed: result.waitlistRemoved,
      };
    }),

  repeat: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/single_class/repeat',
        tags,
        summary: 'Repite una plantilla semanal entre dos fechas; lo que ya existe no se duplica (admin)',
        errorResponses: { 404: 'La sucursal, el tipo de clase, el paquete o un coach no existe', 409: 'Alguna clase se cruza con otra en el mismo lugar o con el mismo coach (allow_overlap la confirma)' },
      },
    })
    .input(singleClassRepeatInput)
    .output(singleClassRepeatOutput)
    .mutation(async ({ ctx, input }) => {
      const result = await repeatSchedule(ctx.db, input, { customerId: ctx.customer.customer_id });
      return { class_series_id: result.classSeriesId, single_class_ids: result.singleClassIds, created: result.created, skipped: result.skipped };
    }),

  seriesCancelPreview: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/single_class_series/{class_series_id}/cancel_preview',
        tags,
        summary: 'Lo que haría cancelar las clases de una serie entre dos fechas (o terminarla): cada clase, reservaciones, créditos y el mensaje de cada grupo (admin)',
        errorResponses: { 404: 'La serie no existe o no tiene clases por venir en esas fechas' },
      },
    })
    .input(seriesCancelInput)
    .output(seriesCancelPreviewOutput)
    .query(async ({ ctx, input }) => previewCancelSeries(ctx.db, input, messageContextOf(ctx.config))),

  seriesCancel: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/single_class_series/cancel',
        tags,
        summary: 'Cancela las clases de una serie entre dos fechas, o la termina: cada clase como una cancelación sola, con la nota (admin)',
        errorResponses: { 404: 'La serie no existe o no tiene clases por venir en esas fechas' },
      },
    })
    .input(seriesCancelInput)
    .output(seriesCancelOutput)
    .mutation(async ({ ctx, input }) => cancelSeries(ctx.db, input, { customerId: ctx.customer.customer_id }, messageContextOf(ctx.config))),

  substitute: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/single_class/substitute',
        tags,
        summary: 'Otro coach da una clase, o todas las de un coach entre dos fechas; con notify avisa a quienes reservaron (admin)',
        errorResponses: { 404: 'Un coach no existe, o el coach no da ninguna clase por venir en lo elegido', 409: 'El coach que sustituye ya da otra clase a esa hora' },
      },
    })
    .input(singleClassSubstituteInput)
    .output(singleClassSubstituteOutput)
    .mutation(async ({ ctx, input }) => {
      const result = await substituteCoach(ctx.db, input, { customerId: ctx.customer.customer_id }, messageContextOf(ctx.config));
      return { single_class_ids: result.singleClassIds, messages_queued: result.messagesQueued };
    }),
});
