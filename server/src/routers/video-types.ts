import { videoTypesListOutput } from '@estudio/core';
import { listVideoTypes } from '../services/videos/programs.ts';
import { optionalAuthProcedure, router } from '../trpc.ts';

export const videoTypesRouter = router({
  list: optionalAuthProcedure
    .meta({ openapi: { method: 'GET', path: '/video_types', tags: ['videos'], protect: false, summary: 'Tipos de video' } })
    .output(videoTypesListOutput)
    .query(async ({ ctx }) => ({ video_types: await listVideoTypes(ctx.db) })),
});
