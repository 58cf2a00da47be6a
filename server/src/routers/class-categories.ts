import {
  classCategoriesListOutput,
  classCategoryCreateInput,
  classCategoryOneOutput,
  classCategoryUpdateInput,
  idInput,
  removalOutput,
  removedOutput,
} from '@estudio/core';
import {
  createClassCategory,
  getClassCategory,
  listClassCategories,
  classCategoryRemovalVerdict,
  removeClassCategory,
  updateClassCategory,
} from '../services/catalogue/class-categories.ts';
import { adminProcedure, publicProcedure, router } from '../trpc.ts';

const tags = ['catalogue'];

export const classCategoriesRouter = router({
  list: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/class_categories', tags, protect: false, summary: 'Categorías de clase (todas)' } })
    .output(classCategoriesListOutput)
    .query(async ({ ctx }) => ({ class_categories: await listClassCategories(ctx.db, false) })),

  // Declared before byId so /class_categories/available is not read as an id.
  available: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/class_categories/available', tags, protect: false, summary: 'Categorías de clase disponibles' } })
    .output(classCategoriesListOutput)
    .query(async ({ ctx }) => ({ class_categories: await listClassCategories(ctx.db, true) })),

  byId: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/class_categories/{id}', tags, protect: false, summary: 'Una categoría de clase' } })
    .input(idInput)
    .output(classCategoryOneOutput)
    .query(async ({ ctx, input }) => ({ class_category: await getClassCategory(ctx.db, input.id) })),

  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/class_categories', tags, summary: 'Crea una categoría (admin); disponible por omisión' } })
    .input(classCategoryCreateInput)
    .output(classCategoryOneOutput)
    .mutation(async ({ ctx, input }) => ({ class_category: await createClassCategory(ctx.db, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/class_categories', tags, summary: 'Actualiza una categoría (admin)' } })
    .input(classCategoryUpdateInput)
    .output(classCategoryOneOutput)
    .mutation(async ({ ctx, input: { class_category_id, ...changes } }) => ({
      class_category: await updateClassCategory(ctx.db, class_category_id, changes),
    })),

  removal: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/class_categories/{id}/removal', tags, summary: 'Qué haría eliminar la categoría y por qué, antes de confirmar (admin)' } })
    .input(idInput)
    .output(removalOutput)
    .query(async ({ ctx, input }) => classCategoryRemovalVerdict(ctx.db, input.id)),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/class_categories/{id}', tags, summary: 'Elimina una categoría sin tipos de clase ni videos (admin)', errorResponses: { 409: 'Tiene tipos de clase o videos: no se cambia nada' } } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removeClassCategory(ctx.db, input.id)),
});
