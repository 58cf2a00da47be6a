import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { personalDataInput, personalDataOutput, type z } from '@estudio/core';
import { apiErrorBody, httpStatusOf } from '../errors.ts';
import { personalDataFile } from '../services/privacy/personal-data.ts';
import { customerProcedure, router, type Context } from '../trpc.ts';

/** Mexico's data-protection rights of the signed-in customer: her copy of everything the studio keeps about her. */
export const privacyRouter = router({
  /** The file for the portal to save (it reaches the server through tRPC); REST clients download GET /api/customer/my_data. */
  personalData: customerProcedure
    .input(personalDataInput)
    .output(personalDataOutput)
    .query(({ ctx, input }) => personalDataFile(ctx.db, ctx.customer.customer_id, input.format)),
});

/**
 * GET /api/customer/my_data?format=json|csv (the signed-in customer): the same copy as a file download, through the
 * procedure above, so the session check, the validation and the errors are the procedure's own.
 */
export function registerPersonalDataDownload(app: FastifyInstance, createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => Context): void {
  app.get('/api/customer/my_data', async (req, reply) => {
    try {
      const caller = privacyRouter.createCaller(createContext({ req, res: reply }));
      const file = await caller.personalData(req.query as z.input<typeof personalDataInput>);
      return await reply
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .header('cache-control', 'no-store')
        .type(file.content_type)
        .send(file.encoding === 'base64' ? Buffer.from(file.content, 'base64') : file.content);
    } catch (error) {
      if (!(error instanceof TRPCError)) throw error;
      const body = apiErrorBody(error);
      return reply.code(httpStatusOf(body)).type('application/json; charset=utf-8').send(body);
    }
  });
}
