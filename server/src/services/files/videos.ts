import { randomUUID } from 'node:crypto';
import { statfs } from 'node:fs/promises';
import { eq, sql, sum } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import { file } from '@estudio/db/schema/content';
import { DomainError, fileQuotaMessage, fileSizeText, type FileOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import type { FileStorage } from '../../providers/files/storage.ts';
import { toFileOutput } from './file-output.ts';
import { displayName } from './files.ts';

/**
 * Video files uploaded to the studio's storage (decision 046): streamed from
 * the request to the local disk or to S3 in parts, never held whole in
 * memory. The content decides the type (mp4, webm, QuickTime), not the name.
 */

/** The video types stored, by the content's MIME type (file-type's names), with the extension and the type they are served as. */
export const videoTypes: ReadonlyMap<string, { ext: string; mime: string }> = new Map([
  ['video/mp4', { ext: 'mp4', mime: 'video/mp4' }],
  ['video/x-m4v', { ext: 'mp4', mime: 'video/mp4' }],
  ['video/webm', { ext: 'webm', mime: 'video/webm' }],
  ['video/quicktime', { ext: 'mov', mime: 'video/quicktime' }],
]);

/** Bytes file-type reads to recognise a container. */
const sniffBytes = 4100;

/** 413 naming the limit. */
export function videoTooLargeError(maxBytes: number): DomainError {
  return new DomainError('file/too-large', `El video es demasiado grande. El tamaño máximo es de ${fileSizeText(maxBytes)}.`);
}

/** Refuses before reading when the local disk cannot take the declared size (with 256 MB to spare for everything else). */
export async function checkLocalSpace(dir: string, declaredBytes: number | undefined): Promise<void> {
  if (!declaredBytes) return;
  const stats = await statfs(dir).catch(() => null);
  if (stats && stats.bavail * stats.bsize < declaredBytes + 256 * 1024 * 1024) throw new DomainError('file/no-space');
}

/**
 * The video's type from its first bytes, and the whole stream again (those
 * bytes first), cut with a 413 as soon as it passes `maxBytes`.
 */
export async function sniffVideo(body: AsyncIterable<Buffer>, maxBytes: number): Promise<{ mime: string; ext: string; stream: AsyncIterable<Buffer>; bytes: () => number }> {
  const iterator = body[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headBytes = 0;
  let ended = false;
  while (headBytes < sniffBytes) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    head.push(chunk);
    headBytes += chunk.length;
  }
  if (headBytes === 0) throw new DomainError('file/missing');
  if (headBytes > maxBytes) throw videoTooLargeError(maxBytes);
  const first = Buffer.concat(head);
  const detected = await fileTypeFromBuffer(first);
  const type = detected ? videoTypes.get(detected.mime) : undefined;
  if (!type) throw new DomainError('file/not-video');
  let total = first.length;
  async function* stream(): AsyncGenerator<Buffer> {
    yield first;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
      total += chunk.length;
      if (total > maxBytes) throw videoTooLargeError(maxBytes);
      yield chunk;
    }
  }
  return { ...type, stream: stream(), bytes: () => total };
}

export interface VideoUploadInput {
  body: AsyncIterable<Buffer>;
  clientName: string | undefined;
  customerId: number;
  maxBytes: number;
  /** Bytes the uploader may keep in files, this one included; null: no quota (staff and admins, the only uploaders of videos). */
  quotaBytes: number | null;
}

/**
 * Streams a video to the storage, then records the file row. The quota (when
 * there is one) is checked under the uploader's lock once the size is known;
 * a refused or failed upload removes what was stored.
 */
export async function uploadVideo(db: Db, storage: FileStorage, input: VideoUploadInput): Promise<FileOutput> {
  const { mime, ext, stream, bytes } = await sniffVideo(input.body, input.maxBytes);
  const key = `${randomUUID()}.${ext}`;
  let src: string;
  try {
    ({ src } = await storage.putStream(key, stream, mime));
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw Object.assign(new DomainError('file/storage-unavailable'), { cause: error });
  }
  const size = bytes();
  try {
    return await db.transaction(async (tx) => {
      if (input.quotaBytes !== null) {
        // The same lock and key space as uploadFile (files.ts): one customer's uploads are counted one after another.
        await tx.execute(sql`select pg_advisory_xact_lock(${61_015}, ${input.customerId})`);
        const [used] = await tx.select({ bytes: sum(file.size) }).from(file).where(eq(file.customer_id, input.customerId));
        const usedBytes = Number(used?.bytes ?? 0);
        if (usedBytes + size > input.quotaBytes) throw new DomainError('file/quota-exceeded', fileQuotaMessage(input.quotaBytes, usedBytes));
      }
      const [row] = await tx
        .insert(file)
        .values({ name: displayName(input.clientName, ext), type: mime, src, storage: storage.kind, storage_key: key, size, customer_id: input.customerId })
        .returning();
      if (!row) throw new Error('file insert returned nothing');
      return toFileOutput(row);
    });
  } catch (error) {
    await storage.remove(key).catch(() => undefined);
    throw error;
  }
}
