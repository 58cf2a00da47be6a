import { createTRPCReact, httpBatchLink, httpLink, httpSubscriptionLink, splitLink, type TRPCLink } from '@trpc/react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { DeskRouter } from '../../service/router.ts';

export const trpc = createTRPCReact<DeskRouter>();
export type DeskOutputs = inferRouterOutputs<DeskRouter>;
export type DeskInputs = inferRouterInputs<DeskRouter>;

/**
 * The desk router answers over HTTP on the service's loopback address,
 * subscriptions over SSE: in Electron's window and in a browser (`desk:web`) alike.
 * Reads are batched; an action (a scan above all) leaves at once, on its own
 * request: a batch waits for a timer, which the render of the click itself
 * pushed back by 10–40 ms, and would have held the scan behind the reads around it.
 */
export function deskLinks(): TRPCLink<DeskRouter>[] {
  return [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url: '/trpc' }),
      false: splitLink({
        condition: (op) => op.type === 'mutation',
        true: httpLink({ url: '/trpc' }),
        false: httpBatchLink({ url: '/trpc' }),
      }),
    }),
  ];
}
