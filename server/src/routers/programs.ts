import { idInput, programCreateInput, programOneOutput, programsListOutput, programUpdateInput, removedOutput } from '@estudio/core';
import { createProgram, getProgram, listPrograms, removeProgram, updateProgram } from '../services/videos/programs.ts';
import { adminProcedure, optionalAuthProcedure, router } from '../trpc.ts';

const tags = ['videos'];

export const programsRouter = router({
  list: optionalAuthProcedure
    .meta({ openapi: { method: 'GET', path: '/programs', tags, protect: false, summary: 'Programas de videos' } })
    .output(programsListOutput)
    .query(async ({ ctx }) => ({ programs: await listPrograms(ctx.db, ctx.caller?.role === 'admin') })),

  byId: optionalAuthProcedure
    .meta({ openapi: { method: 'GET', path: '/programs/{id}', tags, protect: false, summary: 'Un programa' } })
    .input(idInput)
    .output(programOneOutput)
    .query(async ({ ctx, input }) => ({ program: await getProgram(ctx.db, input.id, ctx.caller?.role === 'admin') })),

  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/programs', tags, summary: 'Crea un programa (admin)' } })
    .input(programCreateInput)
    .output(programOneOutput)
    .mutation(async ({ ctx, input }) => ({ program: await createProgram(ctx.db, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/programs', tags, summary: 'Actualiza un programa; video_ids reemplaza sus videos (admin)' } })
    .input(programUpdateInput)
    .output(programOneOutput)
    .mutation(async ({ ctx, input: { program_id, ...changes } }) => ({ program: await updateProgram(ctx.db, program_id, changes) })),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/programs/{id}', tags, summary: 'Elimina un programa; sus videos siguen en la biblioteca (admin)' } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removeProgram(ctx.db, input.id)),
});
