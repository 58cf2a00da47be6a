import { cardPaymentsCheckInput, cardPaymentsCheckOutput, documentTemplatesInput, setupStepSkipInput, studioPublicationInput, studioSetupOutput } from '@estudio/core';
import { checkCardPayments } from '../services/setup/check-card-payments.ts';
import { createDocumentTemplates, getStudioSetup, publishStudio, skipSetupStep } from '../services/setup/studio-setup.ts';
import { adminProcedure, router } from '../trpc.ts';

const tags = ['setup'];

/** A new studio's first run: its steps read from the data, the steps skipped for now, and the portal opened (decision 129). */
export const studioSetupRouter = router({
  status: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/setup', tags, summary: 'Primeros pasos del estudio: cada paso, si está listo u omitido, y si el estudio está publicado (admin)' } })
    .output(studioSetupOutput)
    .query(({ ctx }) => getStudioSetup(ctx.db, ctx.config)),
  skipStep: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/setup/steps/{step}', tags, summary: 'Omite por ahora un paso de Primeros pasos, o lo retoma (skipped: false) (admin)', errorResponses: { 400: 'El paso no existe' } } })
    .input(setupStepSkipInput)
    .output(studioSetupOutput)
    .mutation(({ ctx, input }) => skipSetupStep(ctx.db, ctx.config, ctx.customer.customer_id, input.step, input.skipped)),
  publish: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/setup/publication', tags, summary: 'Publica el estudio (el portal se abre al público) o deja de publicarlo («Próximamente») (admin)' } })
    .input(studioPublicationInput)
    .output(studioSetupOutput)
    .mutation(({ ctx, input }) => publishStudio(ctx.db, ctx.config, ctx.customer.customer_id, input.published)),
  documentTemplates: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/setup/document_templates', tags, summary: 'Crea los términos y el aviso de privacidad que falten desde su plantilla, obligatorios, para completarlos en Páginas (admin)' } })
    .input(documentTemplatesInput)
    .output(studioSetupOutput)
    .mutation(({ ctx }) => createDocumentTemplates(ctx.db, ctx.config)),
  checkCardPayments: adminProcedure
    .meta({ openapi: { method: 'POST', path: '/setup/payments/check', tags, summary: 'Prueba la llave de Stripe del servidor con Stripe y revisa lo que la acompaña; no cobra ni cambia nada (admin)' } })
    .input(cardPaymentsCheckInput)
    .output(cardPaymentsCheckOutput)
    .mutation(({ ctx }) => checkCardPayments(ctx.db, ctx.config)),
});
