import {
  calendarLinkOutput,
  DomainError,
  domainErrors,
  messagePreferencesInput,
  messagePreferencesOutput,
  messageStopInput,
  messageStopOutput,
  messageStopPreviewInput,
  z,
} from '@estudio/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../trpc.ts';
import { customerProcedure, publicProcedure, router } from '../trpc.ts';
import { calendarFeedOf } from '../services/messages/calendar-feed.ts';
import { messageContextOf } from '../services/messages/message-context.ts';
import { messagePreferences, renewCalendarLink, stopMessages, stopPreview, updateMessagePreferences } from '../services/messages/preferences.ts';
import type { CallLimits } from '../services/rate-limit/call-limits.ts';
import { stopUrlOf } from '../services/messages/queue-message.ts';

const tags = ['messages'];

/** The customer's channels, the stop link of optional messages, and the private calendar feed. */
export const messagePreferencesRouter = router({
  preferences: customerProcedure
    .meta({ openapi: { method: 'GET', path: '/customer/messages', tags, summary: 'Por dónde recibe el cliente de la sesión sus mensajes opcionales, y su calendario privado' } })
    .output(messagePreferencesOutput)
    .query(({ ctx }) => messagePreferences(ctx.db, messageContextOf(ctx.config), ctx.customer.customer_id)),

  updatePreferences: customerProcedure
    .meta({
      openapi: {
        method: 'PUT',
        path: '/customer/messages',
        tags,
        summary: 'Enciende o apaga el correo y WhatsApp de los mensajes opcionales (recordatorios, lista de espera, avisos); los transaccionales siempre llegan',
        errorResponses: { 400: 'Un campo no es válido o no existe' },
      },
    })
    .input(messagePreferencesInput)
    .output(messagePreferencesOutput)
    .mutation(({ ctx, input }) => updateMessagePreferences(ctx.db, messageContextOf(ctx.config), ctx.customer.customer_id, input)),

  renewCalendarLink: customerProcedure
    .meta({
      openapi: { method: 'POST', path: '/customer/messages/calendar', tags, summary: 'Cambia el enlace privado del calendario; el anterior deja de funcionar' },
    })
    .input(z.strictObject({}))
    .output(calendarLinkOutput)
    .mutation(({ ctx }) => renewCalendarLink(ctx.db, messageContextOf(ctx.config), ctx.customer.customer_id)),

  stopPreview: publicProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/messages/stop',
        tags,
        protect: false,
        summary: 'Lo que apagaría el enlace para dejar de recibir mensajes (no cambia nada)',
        errorResponses: { 404: 'El enlace no es válido o ya cambió' },
      },
    })
    .input(messageStopPreviewInput)
    .output(messageStopOutput)
    .query(({ ctx, input }) => stopPreview(ctx.db, input.token)),

  stop: publicProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/messages/stop',
        tags,
        protect: false,
        summary: 'Apaga los mensajes opcionales del dueño del enlace, en un canal o en ambos',
        errorResponses: { 404: 'El enlace no es válido o ya cambió' },
      },
    })
    .input(messageStopInput)
    .output(messageStopOutput)
    .mutation(({ ctx, input }) => stopMessages(ctx.db, input.token, input.channel)),
});

/** The feed is read by calendar servers (Google's fetch many customers' feeds from few addresses): a generous per-address limit. */
export const calendarFeedsPerMinute = 120;

function sendDomainError(reply: FastifyReply, code: 'messages/stop-link-invalid' | 'not-found' | 'validation' | 'rate-limited') {
  return reply.code(domainErrors[code].status).type('application/json; charset=utf-8').send({ code, message: domainErrors[code].message });
}

/** The one-click body of RFC 8058: `List-Unsubscribe=One-Click`, form-encoded or as a multipart field. */
function saysOneClick(req: FastifyRequest): boolean {
  const body = typeof req.body === 'string' ? req.body : '';
  if (String(req.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
    return /name="?List-Unsubscribe"?\s*\r?\n(?:[^\r\n]+\r?\n)*\r?\n\s*One-Click\s*(?:\r?\n|$)/i.test(body);
  }
  return new URLSearchParams(body).get('List-Unsubscribe') === 'One-Click';
}

const tokenOf = (req: FastifyRequest) => {
  const token = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof token === 'string' && token.trim() !== '' && token.length <= 200 ? token.trim() : null;
};

/**
 * Plain Fastify routes (not JSON, so not tRPC):
 *   GET  /api/calendar/<token>.ics         the customer's calendar feed (text/calendar)
 *   POST /api/messages/one-click?token=…   RFC 8058 one-click stop (the e-mails' List-Unsubscribe)
 *   GET  /api/messages/one-click?token=…   303 to the portal's page, which asks first
 */
export async function registerMessageRoutes(app: FastifyInstance, deps: Pick<AppDeps, 'db' | 'config'> & { limits: CallLimits }): Promise<void> {
  const ctx = messageContextOf(deps.config);

  await app.register(async (routes) => {
    routes.addContentTypeParser(['application/x-www-form-urlencoded', 'multipart/form-data'], { parseAs: 'string', bodyLimit: 16 * 1024 }, (_req, body, done) =>
      done(null, body),
    );

    const rateLimit = { max: calendarFeedsPerMinute, timeWindow: 60_000, errorResponseBuilder: () => new DomainError('rate-limited') };
    routes.get<{ Params: { file: string } }>('/api/calendar/:file', { config: { rateLimit } }, async (req, reply) => {
      const match = /^([A-Za-z0-9_-]{1,200})\.ics$/.exec(req.params.file);
      const feed = match?.[1] ? await calendarFeedOf(deps.db, ctx, match[1]) : null;
      if (feed === null) return sendDomainError(reply, 'not-found');
      return reply
        .header('cache-control', 'private, max-age=300')
        .header('content-disposition', 'inline; filename="mis-clases.ics"')
        .type('text/calendar; charset=utf-8')
        .send(feed);
    });

    routes.get('/api/messages/one-click', async (req, reply) => {
      const token = tokenOf(req);
      return reply.redirect(token ? stopUrlOf(ctx, token) : `${ctx.publicUrl}/mensajes/baja`, 303);
    });

    routes.post('/api/messages/one-click', async (req, reply) => {
      // A guess at a stop token counts like any other public token call (decision 012).
      const retryAfter = await deps.limits.take('signin', req.ip);
      if (retryAfter !== null) {
        void reply.header('retry-after', String(retryAfter));
        return sendDomainError(reply, 'rate-limited');
      }
      const token = tokenOf(req);
      if (!token || !saysOneClick(req)) return sendDomainError(reply, 'validation');
      try {
        return await stopMessages(deps.db, token);
      } catch (error) {
        if (error instanceof DomainError && error.code === 'messages/stop-link-invalid') return sendDomainError(reply, 'messages/stop-link-invalid');
        throw error;
      }
    });
  });
}
