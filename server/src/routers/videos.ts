import { messageContextOf } from '../services/messages/message-context.ts';
import {
  idInput,
  okOutput,
  removedOutput,
  videoAdminListOutput,
  videoAdminOneOutput,
  videoCreateInput,
  videoUpdateInput,
  videoByProgramOutput,
  videoByRelationInput,
  videoIdInput,
  videoListInput,
  videoListOutput,
  videoOneOutput,
  videoRateEmailInput,
  videoRateInput,
  videoUpcomingOutput,
} from '@estudio/core';
import { listProgramVideos, listUpcomingVideos, listVideos } from '../services/videos/list-videos.ts';
import { requireOnlineAccess } from '../services/videos/online-access.ts';
import { getProgram } from '../services/videos/programs.ts';
import { openVideo, queueRatingEmail, rateVideo, setVideoCompleted } from '../services/videos/video-actions.ts';
import { createVideo, listAdminVideos, removeVideo, updateVideo } from '../services/videos/manage-videos.ts';
import { adminProcedure, customerProcedure, optionalAuthProcedure, router } from '../trpc.ts';

const tags = ['videos'];
const listErrors = { 412: 'Lo sentimos, no cuentas con una membresía activa para clases online' };
const videoErrors = { 404: 'Lo sentimos, no hemos encontrado este video.', ...listErrors };

export const videosRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/videos', tags, summary: 'Biblioteca de videos con filtros, 32 por página (requiere membresía online)', errorResponses: listErrors } })
    .input(videoListInput)
    .output(videoListOutput)
    .query(async ({ ctx, input: { page, ...filters } }) => {
      const viewer = { customerId: ctx.customer.customer_id, role: ctx.customer.role };
      return listVideos(ctx.db, viewer, filters, page);
    }),

  upcoming: optionalAuthProcedure
    .meta({ openapi: { method: 'GET', path: '/videos/upcoming', tags, protect: false, summary: 'Próximos estrenos (no requiere membresía; la url del video solo para miembros online y staff)' } })
    .output(videoUpcomingOutput)
    .query(async ({ ctx }) => {
      const customer = ctx.caller?.customer;
      return { videos: await listUpcomingVideos(ctx.db, customer ? { customerId: customer.customer_id, role: customer.role } : null) };
    }),

  byTag: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/videos/tag/{id}', tags, summary: 'Videos con una etiqueta (requiere membresía online)', errorResponses: listErrors } })
    .input(videoByRelationInput)
    .output(videoListOutput)
    .query(async ({ ctx, input }) => {
      const viewer = { customerId: ctx.customer.customer_id, role: ctx.customer.role };
      return listVideos(ctx.db, viewer, { tag_id: [input.id] }, input.page);
    }),

  byProgram: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/videos/program/{id}', tags, summary: 'Videos de un programa en su orden (requiere membresía online)', errorResponses: listErrors } })
    .input(videoByRelationInput)
    .output(videoByProgramOutput)
    .query(async ({ ctx, input }) => {
      const viewer = { customerId: ctx.customer.customer_id, role: ctx.customer.role };
      await requireOnlineAccess(ctx.db, viewer);
      const program = await getProgram(ctx.db, input.id, ctx.customer.role === 'admin');
      return { ...(await listProgramVideos(ctx.db, viewer, program.program_id, input.page)), program };
    }),

  byId: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/videos/{id}', tags, summary: 'Un video; registra la reproducción (requiere membresía online)', errorResponses: videoErrors } })
    .input(videoIdInput)
    .output(videoOneOutput)
    .query(async ({ ctx, input }) => ({
      video: await openVideo(ctx.db, input.id, { customerId: ctx.customer.customer_id, role: ctx.customer.role }),
    })),

  rate: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/videos/rating', tags, summary: 'Califica un video de 1 a 5 estrellas (calificar de nuevo la reemplaza)', errorResponses: videoErrors } })
    .input(videoRateInput)
    .output(videoOneOutput)
    .mutation(async ({ ctx, input }) => ({
      video: await rateVideo(ctx.db, input.video_id, { customerId: ctx.customer.customer_id, role: ctx.customer.role }, input),
    })),

  rateEmail: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/videos/rating/email', tags, summary: 'Envía por correo la invitación a calificar un video', errorResponses: videoErrors } })
    .input(videoRateEmailInput)
    .output(okOutput)
    .mutation(async ({ ctx, input }) => {
      await queueRatingEmail(ctx.db, input.video_id, { customerId: ctx.customer.customer_id, role: ctx.customer.role }, messageContextOf(ctx.config));
      return { ok: true as const };
    }),

  complete: customerProcedure
    .meta({ openapi: { method: 'PUT', path: '/videos/{id}/complete', tags, summary: 'Marca un video como completado', errorResponses: videoErrors } })
    .input(videoIdInput)
    .output(videoOneOutput)
    .mutation(async ({ ctx, input }) => ({
      video: await setVideoCompleted(ctx.db, input.id, { customerId: ctx.customer.customer_id, role: ctx.customer.role }, true),
    })),

  uncomplete: customerProcedure
    .meta({ openapi: { method: 'PUT', path: '/videos/{id}/uncomplete', tags, summary: 'Quita la marca de completado', errorResponses: videoErrors } })
    .input(videoIdInput)
    .output(videoOneOutput)
    .mutation(async ({ ctx, input }) => ({
      video: await setVideoCompleted(ctx.db, input.id, { customerId: ctx.customer.customer_id, role: ctx.customer.role }, false),
    })),

  // The admin manages the library.
  adminList: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/videos/admin/all', tags, summary: 'Todos los videos: publicados, próximos y ocultos (admin)' } })
    .output(videoAdminListOutput)
    .query(async ({ ctx }) => ({ videos: await listAdminVideos(ctx.db) })),

  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/videos', tags, summary: 'Agrega un video: liga del reproductor, miniatura y fecha de publicación (admin)' } })
    .input(videoCreateInput)
    .output(videoAdminOneOutput)
    .mutation(async ({ ctx, input }) => ({ video: await createVideo(ctx.db, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/videos', tags, summary: 'Cambia un video; tag_ids reemplaza sus etiquetas (admin)', errorResponses: { 404: videoErrors[404] } } })
    .input(videoUpdateInput)
    .output(videoAdminOneOutput)
    .mutation(async ({ ctx, input: { video_id, ...changes } }) => ({ video: await updateVideo(ctx.db, video_id, changes) })),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/videos/{id}', tags, summary: 'Quita un video de la biblioteca; sus calificaciones y favoritos se conservan (admin)', errorResponses: { 404: videoErrors[404] } } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removeVideo(ctx.db, input.id)),
});
