import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { domainErrors } from '@estudio/core';

/**
 * At most `max` open connections from one address (decision 076): a client
 * that opens thousands of sockets and trickles a body through each (a
 * slow-body attack) holds a few of the studio's, not all. A connection over
 * the cap has its first request answered 429, before any other hook or
 * handler runs, and is closed. Behind a proxy every connection comes from the
 * proxy: the cap is the proxy's (deploy/nginx, limit_conn), and this one is off.
 */
export function capConnectionsPerAddress(app: FastifyInstance, max: number): { open(address: string): number } {
  const open = new Map<string, number>();
  const over = new WeakSet<Socket>();
  app.server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = (open.get(address) ?? 0) + 1;
    open.set(address, count);
    if (count > max) over.add(socket);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  });
  app.addHook('onRequest', async (req, reply) => {
    if (!over.has(req.raw.socket)) return;
    return reply
      .code(429)
      .header('connection', 'close')
      .header('retry-after', '5')
      .type('application/json; charset=utf-8')
      .send({ code: 'too-many-connections', message: domainErrors['too-many-connections'].message });
  });
  return { open: (address) => open.get(address) ?? 0 };
}
