import { createTRPCClient, httpLink, TRPCClientError } from '@trpc/client';
import type { AppRouter } from '@estudio/server';
import { DomainError, isDomainErrorCode, type AuthTokens, type CustomerOutput } from '@estudio/core';

/**
 * The few calls the desk makes to the server outside sync: sign-in, token
 * refresh and "who am I". Errors become DomainErrors with the server's
 * Spanish message; a server that cannot be reached becomes
 * 'desk/server-unreachable'.
 */
export interface ServerApi {
  login(email: string, password: string): Promise<AuthTokens>;
  refresh(refreshToken: string): Promise<AuthTokens>;
  me(idToken: string): Promise<CustomerOutput>;
}

export function createServerApi(serverUrl: string, fetchImpl: typeof fetch = fetch): ServerApi {
  const client = (idToken?: string) =>
    createTRPCClient<AppRouter>({
      links: [
        httpLink({
          url: `${serverUrl}/trpc`,
          fetch: fetchImpl,
          headers: () => (idToken ? { authorization: `Bearer ${idToken}` } : {}),
        }),
      ],
    });
  const anonymous = client();
  return {
    login: (email, password) => call(() => anonymous.auth.login.mutate({ email, password })),
    refresh: (refreshToken) => call(() => anonymous.auth.refresh.mutate({ refreshToken })),
    me: async (idToken) => (await call(() => client(idToken).customer.me.query())).customer,
  };
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    throw toDomainError(error);
  }
}

/** The server's DomainError (its code travels in data.domainCode), or 'desk/server-unreachable' when no answer came. */
export function toDomainError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof TRPCClientError) {
    const data = error.data as { domainCode?: unknown; httpStatus?: unknown } | undefined;
    if (data && isDomainErrorCode(data.domainCode)) return new DomainError(data.domainCode, error.message);
    if (!data) return new DomainError('desk/server-unreachable');
  }
  return new DomainError('desk/server-unreachable');
}

/** True for a failure to reach the server (as opposed to an answer that refused). */
export function isUnreachable(error: unknown): boolean {
  return error instanceof DomainError && error.code === 'desk/server-unreachable';
}
