import { TRPCError } from '@trpc/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiErrorBody, httpStatusOf } from '../errors.ts';
import type { Context } from '../trpc.ts';

/** A file a procedure made: text as is, or bytes as base64 (a ZIP). */
export interface DownloadedFile {
  filename: string;
  content_type: string;
  content: string;
  encoding?: 'utf8' | 'base64';
}

/**
 * GET `path` as a file download of what `make` answers, `make` calling a procedure through a caller so the
 * session check, the validation and the errors are the procedure's own: a refusal answers the API's JSON error.
 */
export function registerFileDownload(
  app: FastifyInstance,
  path: string,
  createContext: (opts: { req: FastifyRequest; res: FastifyReply }) => Context,
  make: (context: Context, query: unknown) => Promise<DownloadedFile>,
): void {
  app.get(path, async (req, reply) => {
    try {
      const file = await make(createContext({ req, res: reply }), req.query);
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
