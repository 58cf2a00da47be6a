import { idInput, instructorCreateInput, instructorOneOutput, instructorsListOutput, instructorUpdateInput, removalOutput, removedOutput } from '@estudio/core';
import {
  createInstructor,
  getInstructor,
  listHomeInstructors,
  listInstructors,
  instructorRemovalVerdict,
  removeInstructor,
  updateInstructor,
} from '../services/instructors/instructors.ts';
import { adminProcedure, optionalAuthProcedure, publicProcedure, router, type Caller } from '../trpc.ts';

const tags = ['instructors'];
/** Staff and admins read a coach's whole birthdate; the public site, day and month. */
const readerOf = (caller: Caller | null) => ({ staff: caller?.role === 'staff' || caller?.role === 'admin' });

/** Coaches: public reads (unavailable ones only for admins), admin writes; removal is a soft delete. */
export const instructorsRouter = router({
  list: optionalAuthProcedure
    .meta({ openapi: { method: 'GET', path: '/instructors', tags, protect: false, summary: 'Coaches' } })
    .output(instructorsListOutput)
    .query(async ({ ctx }) => ({ instructors: await listInstructors(ctx.db, ctx.caller?.role === 'admin', readerOf(ctx.caller)) })),

  home: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/instructors/home/all', tags, protect: false, summary: 'Coaches de la página de inicio, con foto, bio y frase' } })
    .output(instructorsListOutput)
    .query(async ({ ctx }) => ({ instructors: await listHomeInstructors(ctx.db) })),

  byId: optionalAuthProcedure
    .meta({ openapi: { method: 'GET', path: '/instructors/{id}', tags, protect: false, summary: 'Un coach' } })
    .input(idInput)
    .output(instructorOneOutput)
    .query(async ({ ctx, input }) => ({ instructor: await getInstructor(ctx.db, input.id, ctx.caller?.role === 'admin', readerOf(ctx.caller)) })),

  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/instructors', tags, summary: 'Crea un coach (admin)' } })
    .input(instructorCreateInput)
    .output(instructorOneOutput)
    .mutation(async ({ ctx, input }) => ({ instructor: await createInstructor(ctx.db, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/instructors/{id}', tags, summary: 'Actualiza un coach (admin)' } })
    .input(instructorUpdateInput)
    .output(instructorOneOutput)
    .mutation(async ({ ctx, input: { id, ...changes } }) => ({ instructor: await updateInstructor(ctx.db, id, changes) })),

  removal: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/instructors/{id}/removal', tags, summary: 'Qué haría dar de baja al coach y por qué, antes de confirmar (admin)' } })
    .input(idInput)
    .output(removalOutput)
    .query(async ({ ctx, input }) => instructorRemovalVerdict(ctx.db, input.id)),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/instructors/{id}', tags, summary: 'Da de baja a un coach (admin); uno con clases por venir es 409', errorResponses: { 409: 'Tiene clases programadas: no se cambia nada' } } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removeInstructor(ctx.db, input.id)),
});
