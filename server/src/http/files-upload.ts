import { mkdirSync } from 'node:fs';
import fastifyMultipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, domainErrors, type FileUploadOutput } from '@estudio/core';
import type { AppDeps } from '../trpc.ts';
import { idTokenOf } from '../services/auth/authorization-header.ts';
import { findCustomerByUid } from '../services/customer/find-customer.ts';
import { linkIdentityByEmail } from '../services/auth/link-identity.ts';
import { chooseStorage, localFilesDir, tooLargeError, uploadFile, uploadQuota, type UploadKind } from '../services/files/files.ts';
import { checkLocalSpace, uploadVideo, videoTooLargeError } from '../services/files/videos.ts';
import { legacyFileField } from '../legacy/shapes.ts';

/**
 * The upload routes are plain Fastify (multipart is not JSON, so not tRPC):
 *   POST /api/files     stores by the studio's files_location (local by default)
 *   POST /api/files/s3  stores in S3
 * Multipart parts: `file` (required, one file), `kind` ('image' accepts images
 * only; also accepted as ?kind=image), `data` (optional JSON, may carry
 * {kind}). Answer: {file_id, file}. Local files are served at /files/<key>.
 *   POST /api/files/video  a video file (decision 046), staff and admins only:
 *     the body is the file itself (video/* or application/octet-stream, not
 *     multipart), its name in `x-file-name` (URI-encoded); streamed to the
 *     storage files_location names, up to FILES_VIDEO_MAX_BYTES.
 */

/** Per client address and route. */
export const uploadsPerMinute = 30;

async function uploader(req: FastifyRequest, deps: AppDeps) {
  const token = idTokenOf(req.headers.authorization);
  if (!token) throw new DomainError('unauthenticated');
  const identity = await deps.identity.verifyIdToken(deps.db, token);
  let customer = identity.customer ?? (await findCustomerByUid(deps.db, identity.uid));
  // Decision 095, as for every other call: a verified e-mail's first call links the account that has it.
  if (!customer && identity.emailVerified && identity.email) customer = (await linkIdentityByEmail(deps.db, { uid: identity.uid, email: identity.email })) ?? (await findCustomerByUid(deps.db, identity.uid));
  if (!customer) throw new DomainError('customer/not-found');
  return customer;
}

function kindOf(value: unknown): UploadKind | undefined {
  if (value === 'image') return 'image';
  if (value === 'any' || value === 'file') return 'any';
  return undefined;
}

function kindFromData(value: unknown): UploadKind | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  try {
    const data = JSON.parse(value) as { kind?: unknown; type?: unknown };
    return kindOf(data.kind) ?? kindOf(data.type);
  } catch {
    return undefined;
  }
}

interface ReadUpload {
  body: Buffer | undefined;
  clientName: string | undefined;
  kind: UploadKind | undefined;
  /** Sent as the previous panel sends it: it reads the new file's id as `idAdjunto`. */
  legacy?: boolean;
}

async function readParts(req: FastifyRequest, maxBytes: number): Promise<ReadUpload> {
  const read: ReadUpload = { body: undefined, clientName: undefined, kind: undefined };
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        // Only the first `file` part counts (`adjunto` is the previous admin panel's name for it, decision 033); any other file part is drained and ignored.
        if ((part.fieldname !== 'file' && part.fieldname !== legacyFileField) || read.body) {
          await part.toBuffer();
          continue;
        }
        read.body = await part.toBuffer();
        read.clientName = part.filename;
        read.legacy = part.fieldname === legacyFileField;
      } else if (part.fieldname === 'kind') {
        read.kind ??= kindOf(part.value);
      } else if (part.fieldname === 'data') {
        read.kind ??= kindFromData(part.value);
      }
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw tooLargeError(maxBytes);
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new DomainError('file/missing');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') throw new DomainError('validation');
    throw error;
  }
  return read;
}

/** Registers the multipart upload routes and the static /files/* route. */
export async function registerFileRoutes(app: FastifyInstance, deps: AppDeps): Promise<void> {
  const maxBytes = deps.config.FILES_MAX_BYTES;
  const filesDir = localFilesDir(deps.config);
  mkdirSync(filesDir, { recursive: true });

  await app.register(async (uploads) => {
    await uploads.register(fastifyMultipart, {
      limits: { fileSize: maxBytes, files: 2, fields: 5, parts: 8, fieldSize: 16 * 1024 },
    });

    const handle = (target: 'configured' | 's3') => async (req: FastifyRequest) => {
      const customer = await uploader(req, deps);
      const { body, clientName, kind, legacy } = await readParts(req, maxBytes);
      if (!body) throw new DomainError('file/missing');
      const queryKind = kindOf((req.query as Record<string, unknown> | undefined)?.kind);
      const storage = await chooseStorage(deps.db, deps.config, target);
      const file = await uploadFile(deps.db, storage, {
        body,
        clientName,
        kind: kind ?? queryKind ?? 'any',
        customerId: customer.customer_id,
        quotaBytes: uploadQuota(deps.config, customer.role),
      });
      const answer: FileUploadOutput = { file_id: file.file_id, file };
      return legacy ? { ...answer, idAdjunto: file.file_id } : answer;
    };

    // Uploads cost disk or bucket space: a client address gets a bounded number per minute.
    const rateLimit = { max: uploadsPerMinute, timeWindow: 60_000, errorResponseBuilder: () => new DomainError('rate-limited') };
    uploads.post('/api/files', { config: { rateLimit } }, handle('configured'));
    uploads.post('/api/files/s3', { config: { rateLimit } }, handle('s3'));
  });

  // Video files (decision 046): the body is the file, handed on as a stream (never read whole into memory here).
  const videoMaxBytes = deps.config.FILES_VIDEO_MAX_BYTES;
  await app.register(async (videos) => {
    videos.removeAllContentTypeParsers();
    // Nothing is parsed: the handler reads the request itself (req.raw). A parsed body would also be walked by app.ts's depth check.
    videos.addContentTypeParser('*', (_req, _payload, done) => done(null, undefined));
    const rateLimit = { max: uploadsPerMinute, timeWindow: 60_000, errorResponseBuilder: () => new DomainError('rate-limited') };
    videos.post('/api/files/video', { config: { rateLimit } }, async (req) => {
      const customer = await uploader(req, deps);
      if (customer.role !== 'staff' && customer.role !== 'admin') throw new DomainError('forbidden');
      const declared = Number(req.headers['content-length'] ?? '') || undefined;
      if (declared !== undefined && declared > videoMaxBytes) throw videoTooLargeError(videoMaxBytes);
      if (typeof req.headers['content-type'] === 'string' && req.headers['content-type'].startsWith('multipart/')) throw new DomainError('validation');
      const storage = await chooseStorage(deps.db, deps.config, 'configured');
      if (storage.kind === 'server') await checkLocalSpace(filesDir, declared);
      const rawName = req.headers['x-file-name'];
      let clientName: string | undefined;
      try {
        clientName = typeof rawName === 'string' ? decodeURIComponent(rawName) : undefined;
      } catch {
        clientName = undefined;
      }
      const file = await uploadVideo(deps.db, storage, {
        body: req.raw,
        clientName,
        customerId: customer.customer_id,
        maxBytes: videoMaxBytes,
        quotaBytes: uploadQuota(deps.config, customer.role),
      });
      const answer: FileUploadOutput = { file_id: file.file_id, file };
      return answer;
    });
  });

  await app.register(
    async (files) => {
      // A missing file is a JSON 404, not the portal's index.html.
      const notFound = (reply: FastifyReply) =>
        reply
          .code(404)
          .type('application/json; charset=utf-8')
          .send({ code: 'file/not-found', message: domainErrors['file/not-found'].message });
      files.setNotFoundHandler((_req, reply) => notFound(reply));
      // A path that climbs out of the folder ('/files/%2e%2e/...') is refused by @fastify/static as 403; it is a missing file like any other (not a 500).
      files.setErrorHandler((error, _req, reply) => {
        if ((error as { code?: string }).code === 'FST_STATIC_FORBIDDEN_PATH') return notFound(reply);
        throw error;
      });
      await files.register(fastifyStatic, {
        root: filesDir,
        prefix: '/',
        decorateReply: false,
        index: false,
        dotfiles: 'deny',
        // Only names the server generates: a random id and a declared extension.
        allowedPath: (pathName) => /^\/[a-z0-9-]+\.(jpg|png|webp|gif|pdf|mp4|webm|mov)$/.test(pathName),
        // Videos are read in ranges (the player seeks): @fastify/static answers Range with 206 (acceptRanges, its default).
        acceptRanges: true,
        setHeaders(reply) {
          // Keys are random and never reused: cache forever.
          void reply.header('cache-control', 'public, max-age=31536000, immutable');
        },
      });
    },
    { prefix: '/files' },
  );
}
