import { createTRPCReact } from '@trpc/react-query';
import type { inferRouterInputs, inferRouterOutputs } from '@trpc/server';
import { TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@estudio/server';
import { createContext } from 'react';

/**
 * The admin console's client: typed with the server's AppRouter, every op
 * sent through the desk (serverLink), which adds the token. Its own React
 * context, so it lives beside the desk's `trpc` client without sharing hooks.
 */
export const api = createTRPCReact<AppRouter>({ context: createContext(null) });
export type ApiOutputs = inferRouterOutputs<AppRouter>;
export type ApiInputs = inferRouterInputs<AppRouter>;

/** The field a server refusal named (validation), if any. */
export function errorField(error: unknown): string | null {
  if (!(error instanceof TRPCClientError)) return null;
  const field = (error.data as { field?: unknown } | undefined)?.field;
  return typeof field === 'string' ? field : null;
}
