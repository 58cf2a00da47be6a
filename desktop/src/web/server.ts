import fastifyStatic from '@fastify/static';
import { fastifyTRPCPlugin, type FastifyTRPCPluginOptions } from '@trpc/server/adapters/fastify';
import Fastify from 'fastify';
import { loadDeskConfig, type DeskConfig } from '../service/config.ts';
import type { DeskService } from '../service/desk-service.ts';
import { startDeskService } from '../service/index.ts';
import { deskRouter, type DeskRouter } from '../service/router.ts';

export interface DeskWeb {
  port: number;
  desk: DeskService;
  /** Stops listening and closes the desk service (unless keepDesk: a desk passed in by the caller stays open). */
  close(options?: { keepDesk?: boolean }): Promise<void>;
}

/**
 * Serves the built renderer and the desk router (tRPC at /trpc, subscriptions
 * over SSE) on 127.0.0.1 only: the desk holds every customer's data and
 * answers without a token, so it must never listen on the network.
 */
export async function startDeskWeb(options: { port: number; distDir: string; config?: DeskConfig; desk?: DeskService }): Promise<DeskWeb> {
  const desk = options.desk ?? (await startDeskService(options.config ?? loadDeskConfig()));
  // forceCloseConnections: open SSE subscriptions of a browser tab must not hold a shutdown.
  const app = Fastify({ logger: false, forceCloseConnections: true });
  // Another site open in the same browser could post to 127.0.0.1 (CSRF) or rebind a name to it (DNS rebinding):
  // only this origin, under a loopback host name, may call the router.
  app.addHook('onRequest', async (req, reply) => {
    const host = req.headers.host ?? '';
    const loopback = /^(127\.0\.0\.1|localhost|\[::1\])(:\d+)?$/.test(host);
    const origin = req.headers.origin;
    if (!loopback || (origin !== undefined && origin !== `http://${host}`)) {
      return reply.code(403).send({ code: 'forbidden', message: 'Solo la recepción de este equipo puede usar esta dirección.' });
    }
  });
  await app.register(fastifyTRPCPlugin, {
    prefix: '/trpc',
    trpcOptions: {
      router: deskRouter,
      createContext: () => ({ desk }),
      onError: ({ error, path }) => {
        if (error.code === 'INTERNAL_SERVER_ERROR') console.error(`desk ${path ?? ''}:`, error.cause ?? error);
      },
    } satisfies FastifyTRPCPluginOptions<DeskRouter>['trpcOptions'],
  });
  await app.register(fastifyStatic, { root: options.distDir, index: 'index.html' });
  await app.listen({ host: '127.0.0.1', port: options.port });
  const address = app.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : options.port,
    desk,
    close: async ({ keepDesk = false } = {}) => {
      await app.close();
      if (!keepDesk) await desk.close();
    },
  };
}
