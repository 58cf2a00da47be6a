import { idInput, removedOutput, videoTypeCreateInput, videoTypeOneOutput, videoTypesListOutput, videoTypeUpdateInput } from '@estudio/core';
import { createVideoType, removeVideoType, updateVideoType } from '../services/videos/manage-videos.ts';
import { listVideoTypes } from '../services/videos/programs.ts';
import { adminProcedure, optionalAuthProcedure, router } from '../trpc.ts';

const tags = ['videos'];

export const videoTypesRouter = router({
  list: optionalAuthProcedure
    .meta({ openapi: { method: 'GET', path: '/video_types', tags, protect: false, summary: 'Tipos de video' } })
    .output(videoTypesListOutput)
    .query(async ({ ctx }) => ({ video_types: await listVideoTypes(ctx.db) })),

  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/video_types', tags, summary: 'Crea un tipo de video (admin)' } })
    .input(videoTypeCreateInput)
    .output(videoTypeOneOutput)
    .mutation(async ({ ctx, input }) => ({ video_type: await createVideoType(ctx.db, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/video_types', tags, summary: 'Actualiza un tipo de video (admin)' } })
    .input(videoTypeUpdateInput)
    .output(videoTypeOneOutput)
    .mutation(async ({ ctx, input: { video_type_id, ...changes } }) => ({ video_type: await updateVideoType(ctx.db, video_type_id, changes) })),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/video_types/{id}', tags, summary: 'Elimina un tipo de video sin videos; con videos se rechaza (admin)', errorResponses: { 409: 'Este tipo de video tiene videos: cámbialos de tipo antes de eliminarlo.' } } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removeVideoType(ctx.db, input.id)),
});
