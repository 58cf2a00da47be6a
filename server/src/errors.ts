import { TRPCError } from '@trpc/server';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server/rpc';
import { DomainError, domainErrors, fieldRefusal, unknownFieldMessage, type ApiErrorBody, type DomainErrorCode } from '@estudio/core';
import { z } from '@estudio/core';
import { isConnectionLost } from '@estudio/db/errors';

/**
 * The one place where errors become answers. Services throw DomainError; the
 * tRPC middleware below turns it into a TRPCError with the catalogue's status,
 * the error formatter puts the domain code and Spanish message into every
 * error shape, and the /api hooks in app.ts send exactly `ApiErrorBody`.
 */

type CatalogueStatus = (typeof domainErrors)[DomainErrorCode]['status'];

const trpcCodes = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  402: 'PAYMENT_REQUIRED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_SUPPORTED',
  409: 'CONFLICT',
  412: 'PRECONDITION_FAILED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'TOO_MANY_REQUESTS',
  500: 'INTERNAL_SERVER_ERROR',
  502: 'BAD_GATEWAY',
  503: 'SERVICE_UNAVAILABLE',
} as const;
/** A status added to the catalogue without a tRPC code above fails the type check here. */
const trpcCodeByStatus: Record<CatalogueStatus, TRPC_ERROR_CODE_KEY> = trpcCodes;

/** Domain code for tRPC errors that did not come from a service (transport, auth guards, parsing). */
const domainCodeByTrpcCode: Partial<Record<TRPC_ERROR_CODE_KEY, DomainErrorCode>> = {
  PARSE_ERROR: 'invalid-json',
  BAD_REQUEST: 'validation',
  UNAUTHORIZED: 'unauthenticated',
  FORBIDDEN: 'forbidden',
  NOT_FOUND: 'route-not-found',
  METHOD_NOT_SUPPORTED: 'method-not-allowed',
  PAYLOAD_TOO_LARGE: 'payload-too-large',
  UNSUPPORTED_MEDIA_TYPE: 'unsupported-media-type',
  TOO_MANY_REQUESTS: 'rate-limited',
};

/** The tRPC error of a refusal; without a stack trace, like the DomainError it carries. */
export function toTRPCError(error: DomainError): TRPCError {
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return new TRPCError({ code: trpcCodeByStatus[error.status as CatalogueStatus], message: error.message, cause: error });
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
}

export function domainError(code: DomainErrorCode): TRPCError {
  return toTRPCError(new DomainError(code));
}

function isZodError(cause: unknown): cause is z.ZodError {
  return cause instanceof z.ZodError || (cause instanceof Error && cause.name === 'ZodError' && Array.isArray((cause as z.ZodError).issues));
}

/** "Revisa el campo email: El correo electrónico no es válido." — the field is named so a client of /api knows what to fix. */
export function validationBody(error: z.ZodError): ApiErrorBody {
  const issue = error.issues[0];
  if (!issue) return { code: 'validation', message: domainErrors.validation.message };
  if (issue.code === 'unrecognized_keys') {
    // A strict input (no silent drop): name the first field it does not take, as the unknown-field check of writes does.
    const field = [...issue.path.map(String), issue.keys[0] ?? ''].filter(Boolean).join('.');
    return { code: 'validation/unknown-field', message: unknownFieldMessage(field), field };
  }
  const field = issue.path.map(String).join('.');
  if (!field) return { code: 'validation', message: `${domainErrors.validation.message} ${issue.message}` };
  return { code: 'validation', message: fieldRefusal(field, issue.message), field };
}

/** The ApiErrorBody of any error that reached tRPC. Unknown errors never show their text. */
export function apiErrorBody(error: TRPCError): ApiErrorBody {
  const cause = error.cause;
  if (cause instanceof DomainError) {
    const { decline_code: declineCode, field } = cause as { decline_code?: unknown; field?: unknown };
    return {
      code: cause.code,
      message: cause.message,
      ...(typeof field === 'string' ? { field } : {}),
      ...(typeof declineCode === 'string' ? { decline_code: declineCode } : {}),
    };
  }
  if (error.code === 'BAD_REQUEST' && isZodError(cause)) return validationBody(cause);
  const code = domainCodeByTrpcCode[error.code] ?? 'internal';
  return { code, message: domainErrors[code].message };
}

export function httpStatusOf(body: ApiErrorBody): number {
  return (domainErrors as Record<string, { status: number }>)[body.code]?.status ?? 500;
}

/** Errors raised by Fastify itself before tRPC runs (bad JSON, wrong content type, size). */
export function fastifyErrorBody(error: { code?: string; statusCode?: number }): ApiErrorBody {
  if (error instanceof DomainError) return { code: error.code, message: error.message };
  // Routes outside tRPC (webhooks, uploads) answer a lost database connection as the procedures do.
  if (isConnectionLost(error)) return { code: 'db/unavailable', message: domainErrors['db/unavailable'].message };
  const byFastifyCode: Record<string, DomainErrorCode> = {
    FST_ERR_CTP_INVALID_JSON_BODY: 'invalid-json',
    FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid-json',
    FST_ERR_CTP_BODY_TOO_LARGE: 'payload-too-large',
    FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported-media-type',
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid-json',
  };
  const fromCode = error.code ? byFastifyCode[error.code] : undefined;
  if (fromCode) return { code: fromCode, message: domainErrors[fromCode].message };
  const status = error.statusCode ?? 500;
  const byStatus: Partial<Record<number, DomainErrorCode>> = {
    400: 'validation',
    404: 'route-not-found',
    405: 'method-not-allowed',
    413: 'payload-too-large',
    415: 'unsupported-media-type',
    429: 'rate-limited',
  };
  const code = byStatus[status] ?? 'internal';
  return { code, message: domainErrors[code].message };
}

/** A NUL byte, or half of a UTF-16 surrogate pair: neither has a UTF-8 form PostgreSQL keeps as sent. */
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The dotted path of the first string (or object key) in an input that the
 * database cannot store verbatim, or null. Iterative, so a deeply nested
 * body cannot overflow the stack.
 */
export function unstorableTextPath(input: unknown): string | null {
  const stack: [unknown, string][] = [[input, '']];
  while (stack.length) {
    const [value, at] = stack.pop() as [unknown, string];
    if (typeof value === 'string') {
      if (unstorable.test(value)) return at;
    } else if (value && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        const path = at ? `${at}.${key}` : key;
        if (unstorable.test(key)) return path;
        stack.push([item, path]);
      }
    }
  }
  return null;
}

/** The validation answer for unstorable text, naming the field like any other validation error. */
export function unstorableTextError(field: string): TRPCError {
  const message = field ? fieldRefusal(field, 'El texto contiene caracteres no válidos.') : `${domainErrors.validation.message} El texto contiene caracteres no válidos.`;
  return toTRPCError(Object.assign(new DomainError('validation', message), field ? { field } : {}));
}

/** A write that carries a field its operation does not take: 400 naming the field as the client sent it. */
export function unknownFieldError(field: string): TRPCError {
  return toTRPCError(Object.assign(new DomainError('validation/unknown-field', unknownFieldMessage(field)), { field }));
}
