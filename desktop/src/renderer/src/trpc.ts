import { createTRPCReact, httpBatchLink, httpSubscriptionLink, splitLink, type TRPCLink } from '@trpc/react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { DeskRouter } from '../../service/router.ts';

export const trpc = createTRPCReact<DeskRouter>();
export type DeskOutputs = inferRouterOutputs<DeskRouter>;
export type DeskInputs = inferRouterInputs<DeskRouter>;

/**
 * The desk router answers over HTTP on the service's loopback address,
 * subscriptions over SSE: in Electron's window and in a browser (`desk:web`) alike.
 */
export function deskLinks(): TRPCLink<DeskRouter>[] {
  return [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url: '/trpc' }),
      false: httpBatchLink({ url: '/trpc' }),
    }),
  ];
}
