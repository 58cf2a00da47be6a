import {
  acceptedPagesListOutput,
  acceptPageInput,
  acceptPageOutput,
  idInput,
  pageBySlugInput,
  pageBySlugOutput,
  pageCreateInput,
  pagesListOutput,
  pageSaveOutput,
  pageUpdateInput,
  removalOutput,
  removedOutput,
} from '@estudio/core';
import { domainError } from '../errors.ts';
import { acceptPage, listAcceptedPages } from '../services/pages/accepted-pages.ts';
import { getPageBySlug, listPages } from '../services/pages/list-pages.ts';
import { createPage, pageRemovalVerdict, removePage, updatePage } from '../services/pages/save-page.ts';
import { adminProcedure, customerProcedure, publicProcedure, router } from '../trpc.ts';

export const pagesRouter = router({
  list: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/pages', tags: ['pages'], protect: false, summary: 'Páginas de información' } })
    .output(pagesListOutput)
    .query(async ({ ctx }) => ({ pages: await listPages(ctx.db) })),

  bySlug: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/pages/{slug}', tags: ['pages'], protect: false, summary: 'Una página por su slug' } })
    .input(pageBySlugInput)
    .output(pageBySlugOutput)
    .query(async ({ ctx, input }) => ({ page: await getPageBySlug(ctx.db, input.slug) })),

  // Save pattern of the spec: a record without a numeric id is created (POST), otherwise updated (PUT).
  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/pages', tags: ['pages'], summary: 'Crea una página (admin); el HTML se guarda tal cual' } })
    .input(pageCreateInput)
    .output(pageSaveOutput)
    .mutation(async ({ ctx, input }) => ({ page: await createPage(ctx.db, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/pages', tags: ['pages'], summary: 'Actualiza una página (admin)' } })
    .input(pageUpdateInput)
    .output(pageSaveOutput)
    .mutation(async ({ ctx, input: { page_id, new_version, ...changes } }) => ({ page: await updatePage(ctx.db, page_id, changes, { newVersion: new_version }) })),

  removal: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/pages/{id}/removal', tags: ['pages'], summary: 'Qué haría eliminar la página y por qué, antes de confirmar (admin)' } })
    .input(idInput)
    .output(removalOutput)
    .query(async ({ ctx, input }) => pageRemovalVerdict(ctx.db, input.id)),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/pages/{id}', tags: ['pages'], summary: 'Elimina una página (admin); una obligatoria o ya aceptada por clientes es 409', errorResponses: { 409: 'Obligatoria o aceptada: se conservan las aceptaciones' } } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removePage(ctx.db, input.id)),
});

export const acceptedPagesRouter = router({
  list: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/accepted_pages', tags: ['pages'], summary: 'Páginas aceptadas por el cliente de la sesión' } })
    .output(acceptedPagesListOutput)
    .query(async ({ ctx }) => ({ accepted_pages: await listAcceptedPages(ctx.db, ctx.customer.customer_id) })),

  accept: customerProcedure
    .meta({ openapi: { method: 'POST', path: '/accepted_pages', tags: ['pages'], summary: 'Acepta una página requerida' } })
    .input(acceptPageInput)
    .output(acceptPageOutput)
    .mutation(async ({ ctx, input }) => {
      // A customer accepts only for themself; another customer's id is not theirs to touch.
      if (input.customer_id !== undefined && input.customer_id !== ctx.customer.customer_id) throw domainError('forbidden');
      return { accepted_page: await acceptPage(ctx.db, ctx.customer.customer_id, input.page_id, input.version) };
    }),
});
