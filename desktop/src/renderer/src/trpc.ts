import { createTRPCReact, httpBatchLink, httpSubscriptionLink, splitLink, type TRPCLink } from '@trpc/react-query';
import { ipcLink } from 'trpc-electron/renderer';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import type { DeskRouter } from '../../service/router.ts';

export const trpc = createTRPCReact<DeskRouter>();
export type DeskOutputs = inferRouterOutputs<DeskRouter>;
export type DeskInputs = inferRouterInputs<DeskRouter>;

/**
 * Inside Electron the preload's bridge carries every call over IPC; in a
 * browser (`desk:web`) the same router answers over HTTP, subscriptions over SSE.
 */
export function deskLinks(): TRPCLink<DeskRouter>[] {
  if ('electronTRPC' in globalThis) return [ipcLink<DeskRouter>()];
  return [
    splitLink({
      condition: (op) => op.type === 'subscription',
      true: httpSubscriptionLink({ url: '/trpc' }),
      false: httpBatchLink({ url: '/trpc' }),
    }),
  ];
}
