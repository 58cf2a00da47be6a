import { idInput, removedOutput, tagCreateInput, tagListInput, tagOneOutput, tagsListOutput, tagUpdateInput } from '@estudio/core';
import { createTag, getTag, listTags, removeTag, updateTag } from '../services/videos/tags.ts';
import { adminProcedure, publicProcedure, router } from '../trpc.ts';

const tags = ['videos'];

export const tagsRouter = router({
  list: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/tags', tags, protect: false, summary: 'Etiquetas, opcionalmente de un tipo (video, class)' } })
    .input(tagListInput)
    .output(tagsListOutput)
    .query(async ({ ctx, input }) => ({ tags: await listTags(ctx.db, input.type) })),

  byId: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/tags/{id}', tags, protect: false, summary: 'Una etiqueta' } })
    .input(idInput)
    .output(tagOneOutput)
    .query(async ({ ctx, input }) => ({ tag: await getTag(ctx.db, input.id) })),

  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/tags', tags, summary: 'Crea una etiqueta (admin)', errorResponses: { 409: 'Ya existe una etiqueta con ese nombre.' } } })
    .input(tagCreateInput)
    .output(tagOneOutput)
    .mutation(async ({ ctx, input }) => ({ tag: await createTag(ctx.db, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/tags', tags, summary: 'Actualiza una etiqueta (admin)', errorResponses: { 409: 'Ya existe una etiqueta con ese nombre.' } } })
    .input(tagUpdateInput)
    .output(tagOneOutput)
    .mutation(async ({ ctx, input: { tag_id, ...changes } }) => ({ tag: await updateTag(ctx.db, tag_id, changes) })),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/tags/{id}', tags, summary: 'Elimina una etiqueta y la quita de sus videos y clases (admin)' } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removeTag(ctx.db, input.id)),
});
