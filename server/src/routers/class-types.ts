import { classTypeCreateInput, classTypeOneOutput, classTypesListOutput, classTypeUpdateInput, idInput, removedOutput } from '@estudio/core';
import { createClassType, getClassType, listClassTypes, removeClassType, updateClassType } from '../services/catalogue/class-types.ts';
import { adminProcedure, optionalAuthProcedure, router } from '../trpc.ts';

const tags = ['catalogue'];

export const classTypesRouter = router({
  list: optionalAuthProcedure
    .meta({ openapi: { method: 'GET', path: '/class_types', tags, protect: false, summary: 'Tipos de clase' } })
    .output(classTypesListOutput)
    .query(async ({ ctx }) => ({ class_types: await listClassTypes(ctx.db, ctx.caller?.role === 'admin') })),

  byId: optionalAuthProcedure
    .meta({ openapi: { method: 'GET', path: '/class_types/{id}', tags, protect: false, summary: 'Un tipo de clase' } })
    .input(idInput)
    .output(classTypeOneOutput)
    .query(async ({ ctx, input }) => ({ class_type: await getClassType(ctx.db, input.id, ctx.caller?.role === 'admin') })),

  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/class_types', tags, summary: 'Crea un tipo de clase (admin)' } })
    .input(classTypeCreateInput)
    .output(classTypeOneOutput)
    .mutation(async ({ ctx, input }) => ({ class_type: await createClassType(ctx.db, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/class_types', tags, summary: 'Actualiza un tipo de clase (admin)' } })
    .input(classTypeUpdateInput)
    .output(classTypeOneOutput)
    .mutation(async ({ ctx, input: { class_type_id, ...changes } }) => ({ class_type: await updateClassType(ctx.db, class_type_id, changes) })),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/class_types/{id}', tags, summary: 'Elimina un tipo de clase sin clases (admin)' } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removeClassType(ctx.db, input.id)),
});
