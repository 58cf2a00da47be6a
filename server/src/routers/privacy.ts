import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  personalDataInput,
  personalDataOutput,
  privacyRequestAnsweredOutput,
  privacyRequestAnswerInput,
  privacyRequestSaveOutput,
  privacyRequestInput,
  privacyRequestsAdminInput,
  privacyRequestsAdminOutput,
  privacyRequestsOutput,
  z,
} from '@estudio/core';
import { registerFileDownload } from '../http/file-download.ts';
import { personalDataFile } from '../services/privacy/personal-data.ts';
import { answerPrivacyRequest, listOwnPrivacyRequests, listPrivacyRequests, submitPrivacyRequest } from '../services/privacy/privacy-requests.ts';
import { adminProcedure, customerProcedure, router, type Context } from '../trpc.ts';

const tags = ['privacy'];

/**
 * Mexico's data-protection rights: her copy of everything the studio keeps about her, and her requests to access,
 * rectify, cancel or oppose (ARCO), which the owner answers within the law's deadline (decisions 123, 124).
 */
export const privacyRouter = router({
  /** The file for the portal to save (it reaches the server through tRPC); REST clients download GET /api/customer/my_data. */
  personalData: customerProcedure
    .input(personalDataInput)
    .output(personalDataOutput)
    .query(({ ctx, input }) => personalDataFile(ctx.db, ctx.customer.customer_id, input.format)),

  myRequests: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/customer/privacy_requests', tags, summary: 'Las solicitudes ARCO del cliente de la sesión, con su plazo y la respuesta del estudio' } })
    .input(z.object({}))
    .output(privacyRequestsOutput)
    .query(async ({ ctx }) => ({ privacy_requests: await listOwnPrivacyRequests(ctx.db, ctx.customer.customer_id) })),

  submitRequest: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/privacy_requests',
        tags,
        summary: 'El cliente pide acceder, rectificar, cancelar u oponerse al uso de sus datos; el estudio responde en 20 días hábiles',
        errorResponses: { 400: 'Un campo no es válido o no existe', 409: 'Ya tiene 5 solicitudes sin responder' },
      },
    })
    .input(privacyRequestInput)
    .output(privacyRequestSaveOutput)
    .mutation(async ({ ctx, input }) => ({ privacy_request: await submitPrivacyRequest(ctx.db, ctx.customer.customer_id, input) })),

  requests: adminProcedure
    .meta({ openapi: { method: 'GET', path: '/privacy_requests', tags, summary: 'Las solicitudes ARCO de los clientes: las pendientes primero, por plazo, con los días hábiles que quedan (admin)' } })
    .input(privacyRequestsAdminInput)
    .output(privacyRequestsAdminOutput)
    .query(async ({ ctx, input }) => ({ privacy_requests: await listPrivacyRequests(ctx.db, input) })),

  answerRequest: adminProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/privacy_requests',
        tags,
        summary: 'Responde una solicitud ARCO y pone en la bandeja de salida el correo que se lo dice al cliente; una cancelación atendida anonimiza al cliente y conserva sus registros contables (admin)',
        errorResponses: { 400: 'Un campo no es válido o no existe', 404: 'No existe la solicitud', 409: 'Ya se respondió, o el cliente tiene reservaciones futuras' },
      },
    })
    .input(privacyRequestAnswerInput)
    .output(privacyRequestAnsweredOutput)
    .mutation(({ ctx, input }) => answerPrivacyRequest(ctx.db, ctx.config, { customer_id: ctx.customer.customer_id }, input)),
});

/**
 * GET /api/customer/my_data?format=json|csv (the signed-in customer): the same copy as a file download, through the
 * procedure above, so the session check, the validation and the errors are the procedure's own.
 */
export function registerPersonalDataDownload(app: FastifyInstance, createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => Context): void {
  registerFileDownload(app, '/api/customer/my_data', createContext, (context, query) =>
    privacyRouter.createCaller(context).personalData(query as z.input<typeof personalDataInput>),
  );
}
