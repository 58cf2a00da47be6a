import { fileByIdOutput, filesListOutput, fileUpdateInput, idInput, removedOutput } from '@estudio/core';
import { getFile, listFiles, removeFile, renameFile } from '../services/files/files.ts';
import { customerProcedure, router } from '../trpc.ts';

const tags = ['files'];

/** The JSON side of files (uploads are multipart routes in files-upload.ts). Own files; staff and admins all. */
export const filesRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/files', tags, summary: 'Archivos del cliente (todos para recepción y admin)' } })
    .output(filesListOutput)
    .query(async ({ ctx }) => ({ files: await listFiles(ctx.db, ctx.customer) })),

  byId: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/files/{id}', tags, summary: 'Un archivo' } })
    .input(idInput)
    .output(fileByIdOutput)
    .query(async ({ ctx, input }) => ({ file: await getFile(ctx.db, ctx.customer, input.id) })),

  update: customerProcedure
    .meta({ openapi: { method: 'PUT', path: '/files', tags, summary: 'Cambia el nombre de un archivo' } })
    .input(fileUpdateInput)
    .output(fileByIdOutput)
    .mutation(async ({ ctx, input }) => ({ file: await renameFile(ctx.db, ctx.customer, input.file_id, input.name) })),

  remove: customerProcedure
    .meta({ openapi: { method: 'DELETE', path: '/files/{id}', tags, summary: 'Elimina un archivo' } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removeFile(ctx.db, ctx.config, ctx.customer, input.id)),
});
