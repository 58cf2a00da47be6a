import { createTRPCUntypedClient, httpLink, TRPCClientError } from '@trpc/client';
import { DomainError, isDomainErrorCode } from '@estudio/core';

/**
 * The admin console's way to the server: the renderer never holds a token, so
 * every admin call goes through the desk service, which adds the signed-in
 * account's ID token and forwards it to the server's tRPC as it came.
 */
export type ProxyCallType = 'query' | 'mutation';

/** A refusal of the server, with the field it named (validation), so a form can show it under that field. */
export class ServerAnswerError extends DomainError {
  readonly field: string | undefined;
  constructor(error: DomainError, field: string | undefined) {
    super(error.code, error.message);
    this.field = field;
  }
}

/**
 * Paths the renderer may not reach through the proxy: `auth.*` answers with
 * tokens (they stay in the desk service), `sync.*` belongs to the sync client.
 */
const reservedPrefixes = ['auth.', 'sync.'];
const pathPattern = /^[a-zA-Z][a-zA-Z0-9]*(\.[a-zA-Z][a-zA-Z0-9]*)+$/;

export function isProxyPath(path: string): boolean {
  return pathPattern.test(path) && !reservedPrefixes.some((prefix) => path.startsWith(prefix));
}

export type ServerCall = (type: ProxyCallType, path: string, input: unknown, idToken: string) => Promise<unknown>;

export function createServerCall(serverUrl: string, fetchImpl: typeof fetch = fetch): ServerCall {
  return async (type, path, input, idToken) => {
    const client = createTRPCUntypedClient({
      links: [httpLink({ url: `${serverUrl}/trpc`, fetch: fetchImpl, headers: { authorization: `Bearer ${idToken}` } })],
    });
    try {
      return await (type === 'query' ? client.query(path, input) : client.mutation(path, input));
    } catch (error) {
      throw toServerAnswerError(error);
    }
  };
}

/** The server's Spanish refusal (its domain code and field travel in data), or 'desk/server-unreachable' when no answer came. */
export function toServerAnswerError(error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof TRPCClientError) {
    const data = error.data as { domainCode?: unknown; field?: unknown } | undefined;
    if (data && isDomainErrorCode(data.domainCode)) {
      return new ServerAnswerError(new DomainError(data.domainCode, error.message), typeof data.field === 'string' ? data.field : undefined);
    }
  }
  return new DomainError('desk/server-unreachable');
}
