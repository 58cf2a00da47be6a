import { generateOpenApiDocument, type OpenAPIObject } from 'trpc-to-openapi';
import { domainErrors } from '@estudio/core';
import type { Config } from './config.ts';
import { legacyRoutes } from './legacy/legacy-admin.ts';
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
      'Rutas REST del estudio (las mismas que /trpc). Autenticación: `Authorization: Bearer <idToken>` (también se acepta el token solo, `Authorization: <idToken>`). ' +
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
  addPlainRoutes(doc);
  addLegacyRoutes(doc);
  return doc;
}

const errorBody = {
  description: 'Error: `{code, message}` en español',
  content: { 'application/json': { schema: { $ref: '#/components/schemas/error.BAD_REQUEST' } } },
};

/**
 * Routes served by Fastify directly (multipart uploads, the raw-body Stripe
 * webhook) rather than through tRPC, described by hand so the document lists
 * every route of /api.
 */
type Operation = NonNullable<NonNullable<OpenAPIObject['paths']>[string]['post']>;

function addPlainRoutes(doc: OpenAPIObject): void {
  doc.paths ??= {};
  const upload = (summary: string): Operation => ({
    summary,
    tags: ['files'],
    security: [{ Authorization: [] }],
    requestBody: {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            properties: {
              file: { type: 'string', format: 'binary', description: 'El archivo; su tipo se revisa por contenido, no por nombre.' },
              kind: { type: 'string', enum: ['image'], description: 'image: solo acepta imágenes' },
              data: { type: 'string', description: 'JSON opcional, p. ej. {"kind":"image"}' },
            },
          },
        },
      },
    },
    responses: {
      200: {
        description: '{file_id, file}',
        content: { 'application/json': { schema: { type: 'object', properties: { file_id: { type: 'integer' }, file: { type: 'object' } } } } },
      },
      400: errorBody,
      401: errorBody,
      413: errorBody,
      415: errorBody,
      429: errorBody,
    },
  });
  doc.paths['/files'] = { ...doc.paths['/files'], post: upload('Sube un archivo al almacenamiento configurado (files_location)') };
  doc.paths['/files/s3'] = { ...doc.paths['/files/s3'], post: upload('Sube un archivo a S3') };
  // Decision 046: a video file, streamed (the body is the file itself, not multipart).
  doc.paths['/files/video'] = {
    ...doc.paths['/files/video'],
    post: {
      summary: 'Sube un archivo de video (MP4, WEBM o MOV) al almacenamiento configurado (files_location); solo personal y administradores',
      tags: ['files'],
      security: [{ Authorization: [] }],
      parameters: [{ name: 'x-file-name', in: 'header', required: false, schema: { type: 'string' }, description: 'El nombre del archivo, codificado como URI' }],
      requestBody: {
        required: true,
        content: {
          'video/mp4': { schema: { type: 'string', format: 'binary' } },
          'video/webm': { schema: { type: 'string', format: 'binary' } },
          'video/quicktime': { schema: { type: 'string', format: 'binary' } },
          'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
        },
      },
      responses: {
        200: {
          description: '{file_id, file}',
          content: { 'application/json': { schema: { type: 'object', properties: { file_id: { type: 'integer' }, file: { type: 'object' } } } } },
        },
        400: errorBody,
        401: errorBody,
        403: errorBody,
        412: errorBody,
        413: errorBody,
        415: errorBody,
        429: errorBody,
        503: errorBody,
      },
    },
  };
  const webhook: Operation = {
    summary: 'Eventos de Stripe, verificados con la firma Stripe-Signature y procesados una sola vez',
    tags: ['webhooks'],
    requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
    responses: { 200: { description: '{received: true}' }, 400: errorBody },
  };
  doc.paths['/webhooks/stripe'] = { post: webhook };
  // A customer's private calendar feed and the e-mails' one-click stop (RFC 8058), plain Fastify routes (message-preferences.ts).
  doc.paths['/calendar/{file}'] = {
    get: {
      summary: 'El calendario privado de un cliente (<token>.ics): sus reservaciones desde hace 30 días, las canceladas como CANCELLED',
      tags: ['messages'],
      parameters: [{ name: 'file', in: 'path', required: true, schema: { type: 'string' }, description: '<token>.ics' }],
      responses: { 200: { description: 'iCalendar (RFC 5545)', content: { 'text/calendar': { schema: { type: 'string' } } } }, 404: errorBody, 429: errorBody },
    },
  };
  const token = { name: 'token', in: 'query' as const, required: true, schema: { type: 'string' as const } };
  doc.paths['/messages/one-click'] = {
    get: { summary: 'Lleva a la página del portal que pregunta antes de apagar los mensajes (303)', tags: ['messages'], parameters: [token], responses: { 303: { description: 'A /mensajes/baja?token=…' } } },
    post: {
      summary: 'Baja en un clic (RFC 8058): con List-Unsubscribe=One-Click apaga los mensajes opcionales del dueño del enlace',
      tags: ['messages'],
      parameters: [token],
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': { schema: { type: 'object', properties: { 'List-Unsubscribe': { type: 'string', enum: ['One-Click'] } } } },
          'multipart/form-data': { schema: { type: 'object', properties: { 'List-Unsubscribe': { type: 'string', enum: ['One-Click'] } } } },
        },
      },
      responses: { 200: { description: 'Lo que quedó apagado' }, 400: errorBody, 404: errorBody, 429: errorBody },
    },
  };
}

/**
 * Decision 033: the previous admin panel's paths, served by the
 * same procedures and listed as deprecated. Where the panel's call has the
 * spec's method and path, the spec's operation stays and says that it also
 * answers the panel's keys.
 */
function addLegacyRoutes(doc: OpenAPIObject): void {
  doc.paths ??= {};
  for (const route of legacyRoutes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    const item = (doc.paths[path] ??= {});
    const existing = item[method];
    if (existing) {
      existing.description = `${existing.description ?? ''}${existing.description ? ' ' : ''}Panel anterior (obsoleto): ${route.summary}.`.trim();
      continue;
    }
    item[method] = {
      summary: route.summary,
      description: 'Ruta del panel de administración anterior, servida por los mismos procedimientos que las rutas del spec (decisión 033). Autenticación: `Authorization: <idToken>` con o sin `Bearer `.',
      tags: ['legacy'],
      deprecated: true,
      security: [{ Authorization: [] }],
      ...(path.includes('{id}') ? { parameters: [{ name: 'id', in: 'path' as const, required: true, schema: { type: 'string' as const } }] } : {}),
      ...(method === 'post' || method === 'put' ? { requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' as const } } } } } : {}),
      responses: { 200: { description: 'La respuesta con las claves que lee el panel' }, 400: errorBody, 401: errorBody, 403: errorBody, 404: errorBody },
    };
  }
}
