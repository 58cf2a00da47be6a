import { TRPCClientError, type TRPCClient, type TRPCLink } from '@trpc/client';
import { observable } from '@trpc/server/observable';
import type { AppRouter } from '@estudio/server';
import type { DeskRouter } from '../../service/router.ts';

/**
 * A terminating link for a client typed with the server's AppRouter: every
 * query and mutation goes to the desk's `server.query` / `server.mutation`
 * procedures (over IPC in Electron, over HTTP in desk:web), which forward it
 * to the server with the desk's token. The answer is the server's own; an
 * error keeps the server's Spanish message and `data.field`.
 */
export function serverLink(desk: TRPCClient<DeskRouter>): TRPCLink<AppRouter> {
  return () =>
    ({ op }) =>
      observable((observer) => {
        const args = { path: op.path, input: op.input };
        const call =
          op.type === 'query'
            ? desk.server.query.query(args, { signal: op.signal ?? undefined })
            : op.type === 'mutation'
              ? desk.server.mutation.mutate(args, { signal: op.signal ?? undefined })
              : Promise.reject(new TRPCClientError('La consola no recibe suscripciones del servidor.'));
        call.then(
          (data) => {
            observer.next({ result: { type: 'data', data } });
            observer.complete();
          },
          (error: unknown) => observer.error(TRPCClientError.from(error instanceof Error ? error : new Error(String(error)))),
        );
        return () => undefined;
      });
}
