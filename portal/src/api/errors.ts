import { TRPCClientError } from '@trpc/client';
import { domainErrors, isDomainErrorCode, readFieldRefusal, texts } from '@estudio/core';
import { AuthError } from '../session/auth-client.ts';

interface ErrorFacts {
  /** The domain code ('auth/wrong-password', 'customer/phone-taken', ...), when the server sent one. */
  code?: string;
  /** HTTP status of the answer, when known. */
  status?: number;
  /** The Spanish message to show alone (an alert): never an API key such as `last_name`. */
  message: string;
  /** The field a validation answer names ('last_name', 'address.city'), when it names one. */
  field?: string;
  /** That field's own message, for under the field: 'Puede tener hasta 100 caracteres.'. */
  fieldMessage?: string;
}

const asRecord = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;

/** A domain code looks like 'auth/wrong-password' or is one of the catalogue's. */
const isDomainLike = (value: unknown): value is string =>
  typeof value === 'string' && (isDomainErrorCode(value) || /^[a-z-]+\/[a-z0-9-]+$/.test(value));

/**
 * Reads an error from the server, the sign-in provider or the network. The
 * server puts `{code, message}` (ApiErrorBody) into the tRPC error's data; its
 * exact nesting is read defensively so either placement works.
 */
export function errorFacts(error: unknown): ErrorFacts {
  if (error instanceof AuthError) return { code: error.code, message: error.message, ...(error.field ? { field: error.field.key, fieldMessage: error.field.message } : {}) };
  if (error instanceof TRPCClientError) {
    const data = asRecord(error.data);
    const shape = asRecord(error.shape);
    const nested = [asRecord(data?.apiError), asRecord(data?.error), asRecord(data?.body), data, asRecord(shape?.data), shape];
    let code: string | undefined;
    for (const candidate of nested) {
      const value = candidate?.domainCode ?? candidate?.code;
      if (isDomainLike(value)) {
        code = value;
        break;
      }
    }
    const status = typeof data?.httpStatus === 'number' ? data.httpStatus : undefined;
    const serverMessage = error.message && !/^(fetch failed|Failed to fetch|Unexpected token)/i.test(error.message) ? error.message : undefined;
    const message = serverMessage ?? (code && isDomainErrorCode(code) ? domainErrors[code].message : texts.shell.networkError);
    const field = typeof data?.field === 'string' && data.field ? data.field : undefined;
    if (field) {
      // The server names the field by its key for API clients; people read its message under the field, or its label.
      const { own, alone } = readFieldRefusal(message, field);
      return { code, status, field, fieldMessage: own, message: alone };
    }
    return { code, status, message };
  }
  if (error instanceof Error && error.message) return { message: error.message };
  return { message: domainErrors.internal.message };
}

export const errorCode = (error: unknown): string | undefined => errorFacts(error).code;
export const errorMessage = (error: unknown): string => errorFacts(error).message;

/** Turns a failed auth.* procedure call into the provider-neutral AuthError. */
export function toAuthError(error: unknown): AuthError {
  if (error instanceof AuthError) return error;
  const facts = errorFacts(error);
  return new AuthError(facts.code ?? 'auth/internal-error', facts.message, facts.field ? { key: facts.field, message: facts.fieldMessage ?? facts.message } : undefined);
}
