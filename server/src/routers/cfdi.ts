import {
  cfdiFileInput,
  cfdiForCustomerOutput,
  cfdiFileOutput,
  cfdiListInput,
  cfdiListOutput,
  cfdiOneOutput,
  cfdiRequestInput,
  deskCfdiInput,
  pacSettingsOutput,
  pacSettingsUpdateInput,
  purchaseIdInput,
  taxProfileInput,
  taxProfileOutput,
  z,
} from '@estudio/core';
import { getPacSettings, updatePacSettings } from '../services/cfdi/pac-settings.ts';
import { cfdiFile, cfdiForCustomer, cfdiOutput, listCfdis, retryCfdi } from '../services/cfdi/read-cfdi.ts';
import { requestInvoice } from '../services/cfdi/request-invoice.ts';
import { deleteTaxProfile, getTaxProfile, saveTaxProfile } from '../services/cfdi/tax-profile.ts';
import { adminProcedure, customerProcedure, router, staffProcedure } from '../trpc.ts';

const tags = ['cfdi'];

/** CFDI 4.0 invoices (decisions 084-086): the customer's tax profile, "Solicitar factura", the desk's issue, the PAC account. */
export const cfdiRouter = router({
  taxProfile: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/customer/tax_profile', tags, summary: 'Datos fiscales del cliente de la sesión (null si no tiene)' } })
    .input(z.object({}).optional())
    .output(taxProfileOutput)
    .query(({ ctx }) => getTaxProfile(ctx.db, ctx.customer.customer_id)),

  saveTaxProfile: customerProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/customer/tax_profile',
        tags,
        summary: 'Guarda los datos fiscales propios: RFC con dígito verificador, régimen y uso de CFDI del catálogo del SAT y congruentes, código postal',
        errorResponses: { 400: 'Un dato no es válido (el mensaje dice cuál y por qué)' },
      },
    })
    .input(taxProfileInput)
    .output(taxProfileOutput)
    .mutation(({ ctx, input }) => saveTaxProfile(ctx.db, ctx.customer.customer_id, input)),

  deleteTaxProfile: customerProcedure
    .meta({ openapi: { method: 'DELETE', path: '/customer/tax_profile', tags, summary: 'Quita los datos fiscales propios (las facturas emitidas no cambian)' } })
    .input(z.object({}).optional())
    .output(taxProfileOutput)
    .mutation(({ ctx }) => deleteTaxProfile(ctx.db, ctx.customer.customer_id)),

  request: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/purchases/{purchase_id}/cfdi',
        tags,
        summary: 'Solicitar factura de una compra propia pagada, dentro del plazo del estudio; sin PAC configurado queda pendiente',
        errorResponses: { 404: 'No existe o no es tuya', 409: 'No pagada, sin costo, fuera de plazo o en la factura global', 412: 'Sin datos fiscales' },
      },
    })
    .input(cfdiRequestInput)
    .output(cfdiOneOutput)
    .mutation(async ({ ctx, input }) =>
      cfdiOutput(ctx.db, await requestInvoice(ctx.db, { purchaseId: input.purchase_id, ownerId: ctx.customer.customer_id, actorId: ctx.customer.customer_id })),
    ),

  file: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/cfdi/{id}/file', tags, summary: 'PDF o XML de una factura timbrada (propia; recepción y admin: cualquiera), en base64', errorResponses: { 404: 'No existe o no es tuya', 409: 'Aún no timbrada' } } })
    .input(cfdiFileInput)
    .output(cfdiFileOutput)
    .query(({ ctx, input }) => cfdiFile(ctx.db, input.id, input.format, ctx.customer)),

  deskIssue: staffProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/cfdi/desk',
        tags,
        summary: 'Recepción emite la factura de la compra de un cliente, con sus datos fiscales o los que se escriben en el mostrador (auditado)',
        errorResponses: { 404: 'Compra inexistente', 409: 'No pagada, sin costo, fuera de plazo o en la factura global', 412: 'El cliente no tiene datos fiscales' },
      },
    })
    .input(deskCfdiInput)
    .output(cfdiOneOutput)
    .mutation(async ({ ctx, input }) =>
      cfdiOutput(ctx.db, await requestInvoice(ctx.db, { purchaseId: input.purchase_id, ownerId: null, actorId: ctx.customer.customer_id, profile: input.tax_profile })),
    ),

  forCustomer: staffProcedure
    .meta({ openapi: { method: 'GET', path: '/cfdi/customer/{id}', tags, summary: 'Datos fiscales de un cliente y el estado de la factura de cada una de sus compras (recepción y admin)' } })
    .input(purchaseIdInput)
    .output(cfdiForCustomerOutput)
    .query(({ ctx, input }) => cfdiForCustomer(ctx.db, input.id)),

  retry: staffProcedure
    .meta({ openapi: { method: 'POST', path: '/cfdi/{id}/retry', tags, summary: 'Envía de nuevo al PAC un documento que rechazó (recepción y admin)', errorResponses: { 404: 'No existe' } } })
    .input(purchaseIdInput)
    .output(cfdiOneOutput)
    .mutation(({ ctx, input }) => retryCfdi(ctx.db, input.id)),

  list: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/cfdi', tags, summary: 'Facturas, facturas globales y notas de crédito del estudio, 30 por página (admin)' } })
    .input(cfdiListInput)
    .output(cfdiListOutput)
    .query(({ ctx, input }) => listCfdis(ctx.db, input)),

  pac: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/cfdi/pac', tags, summary: 'Cuenta del PAC (facturapi): si hay llave y secreto de webhook, sin mostrarlos; facturas pendientes (admin)' } })
    .input(z.object({}).optional())
    .output(pacSettingsOutput)
    .query(({ ctx }) => getPacSettings(ctx.db)),

  updatePac: adminProcedure
    .meta({ openapi: { method: 'PUT', path: '/cfdi/pac', tags, summary: "Escribe la llave de facturapi y el secreto del webhook ('' los borra); nunca se leen de vuelta (admin)" } })
    .input(pacSettingsUpdateInput)
    .output(pacSettingsOutput)
    .mutation(({ ctx, input }) => updatePacSettings(ctx.db, ctx.customer.customer_id, input)),
});
