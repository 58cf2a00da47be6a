import {
  customFieldOneOutput,
  customFieldsListInput,
  customFieldsListOutput,
  formCreateInput,
  formOneOutput,
  formsListOutput,
  formUpdateInput,
  idInput,
  removedOutput,
} from '@estudio/core';
import { createForm, getCustomField, getForm, listCustomFields, listForms, removeForm, updateForm } from '../services/forms/forms.ts';
import { adminProcedure, publicProcedure, router } from '../trpc.ts';

const tags = ['forms'];

/** Form definitions are public (the sign-up and profile screens render them); admins write. Clients show the spec's 'Form saved.' / 'Form deleted.' in Spanish. */
export const formsRouter = router({
  list: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/forms', tags, protect: false, summary: 'Formularios con sus campos por paso y orden' } })
    .output(formsListOutput)
    .query(async ({ ctx }) => ({ forms: await listForms(ctx.db) })),

  byId: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/forms/{id}', tags, protect: false, summary: 'Un formulario' } })
    .input(idInput)
    .output(formOneOutput)
    .query(async ({ ctx, input }) => ({ form: await getForm(ctx.db, input.id) })),

  create: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/forms', tags, summary: 'Crea un formulario (admin)' } })
    .input(formCreateInput)
    .output(formOneOutput)
    .mutation(async ({ ctx, input }) => ({ form: await createForm(ctx.db, input) })),

  update: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/forms', tags, summary: 'Actualiza un formulario; form_fields reemplaza los campos (admin)' } })
    .input(formUpdateInput)
    .output(formOneOutput)
    .mutation(async ({ ctx, input: { form_id, ...changes } }) => ({ form: await updateForm(ctx.db, form_id, changes) })),

  remove: adminProcedure
    .meta({ openapi: { method: 'DELETE', path: '/forms/{id}', tags, summary: 'Elimina un formulario (admin)' } })
    .input(idInput)
    .output(removedOutput)
    .mutation(async ({ ctx, input }) => removeForm(ctx.db, input.id)),
});

export const customFieldsRouter = router({
  list: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/custom_fields', tags, protect: false, summary: 'Campos personalizados, por tipo de objeto' } })
    .input(customFieldsListInput)
    .output(customFieldsListOutput)
    .query(async ({ ctx, input }) => ({ custom_fields: await listCustomFields(ctx.db, input.object) })),

  byId: publicProcedure
    .meta({ openapi: { method: 'GET', path: '/custom_fields/{id}', tags, protect: false, summary: 'Un campo personalizado' } })
    .input(idInput)
    .output(customFieldOneOutput)
    .query(async ({ ctx, input }) => ({ custom_field: await getCustomField(ctx.db, input.id) })),
});
