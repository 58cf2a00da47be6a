import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { domainErrors } from '@estudio/core';
import type { Config } from './config.ts';
import { appRouter } from './router.ts';

const statusOfTrpcCode: Record<string, number> = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 412,
  TOO_MANY_REQUESTS: 429,
  INTERNAL_SERVER_ERROR: 500,
};

/**
 * The OpenAPI document of /api. trpc-to-openapi describes errors with its own
 * body ({message, code: tRPC code, issues}); the server answers ApiErrorBody,
 * so the error schemas are replaced by that shape, listing the domain codes
 * each status can carry.
 */
export function buildOpenApiDocument(config: Config): OpenAPIObject {
  const doc = generateOpenApiDocument(appRouter, {
    title: 'Estudio API',
    description:
      'Rutas REST del estudio (las mismas que /trpc). Autenticación: `Authorization: Bearer <idToken>`. ' +
      'Todo error responde `{code, message, field?}`: `code` es el código de dominio (p. ej. `auth/wrong-password`) y `message` el texto en español.',
    version: '1.0.0',
    baseUrl: `${config.PUBLIC_URL}/api`,
    tags: ['health', 'appconfig', 'auth', 'customer', 'pages'],
  });
  const schemas = doc.components?.schemas ?? {};
  for (const name of Object.keys(schemas)) {
    if (!name.startsWith('error.')) continue;
    const status = statusOfTrpcCode[name.slice('error.'.length)];
    const codes = Object.entries(domainErrors).filter(([, e]) => e.status === status);
    const example = codes[0] ? { code: codes[0][0], message: codes[0][1].message } : undefined;
    schemas[name] = {
      type: 'object',
      title: `Error ${status ?? ''}`.trim(),
      properties: {
        code: { type: 'string', description: 'Código de dominio', ...(codes.length ? { enum: codes.map(([c]) => c) } : {}) },
        message: { type: 'string', description: 'Mensaje en español para mostrar al usuario' },
        field: { type: 'string', description: 'Campo inválido (ruta con puntos), en errores de validación' },
      },
      required: ['code', 'message'],
      ...(example ? { example } : {}),
    };
  }
  return doc;
}
