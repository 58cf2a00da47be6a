import { customerInvitationsInput, customerInvitationsOutput, customerInvitationsPreviewInput } from '@estudio/core';
import { inviteCustomers, previewCustomerInvitations } from '../services/import/invite-imported.ts';
import { adminProcedure, router } from '../trpc.ts';

const tags = ['import'];

/** "Crea tu contraseña" for the customers brought over or registered at the desk, in runs the owner chooses (decision 128). */
export const customerInvitationsRouter = router({
  preview: adminProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/import/invitations',
        tags,
        summary: 'Cuántos clientes sin contraseña esperan la invitación a crearla, cuántos invitaría este límite y si el estudio envía correos (admin)',
      },
    })
    .input(customerInvitationsPreviewInput)
    .output(customerInvitationsOutput)
    .query(({ ctx, input }) => previewCustomerInvitations(ctx.db, ctx.config, input)),
  send: adminProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/import/invitations',
        tags,
        summary: 'Pone en la bandeja de salida el correo «Crea tu contraseña» para hasta `limit` clientes sin contraseña que no lo han recibido (admin)',
        errorResponses: { 400: 'Un campo no es válido', 409: 'El estudio no envía correos todavía, o inicia sesión con Firebase' },
      },
    })
    .input(customerInvitationsInput)
    .output(customerInvitationsOutput)
    .mutation(({ ctx, input }) => inviteCustomers(ctx.db, ctx.config, { customer_id: ctx.customer.customer_id }, input)),
});
