import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
  type CompletedPart,
} from '@aws-sdk/client-s3';
import type { FileStorage } from './storage.ts';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** A custom endpoint (MinIO, s3rver, DigitalOcean Spaces); path-style addressing is used with it. */
  endpoint?: string | undefined;
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
}

/** The public URL of an object: path-style under a custom endpoint, virtual-hosted on AWS. */
export function s3ObjectUrl(options: S3StorageOptions, key: string): string {
  const encoded = key.split('/').map(encodeURIComponent).join('/');
  if (options.endpoint) return `${options.endpoint.replace(/\/$/, '')}/${options.bucket}/${encoded}`;
  return `https://${options.bucket}.s3.${options.region}.amazonaws.com/${encoded}`;
}

/**
 * Objects are served by the bucket, not by us: they carry the same header as
 * /files/* (keys are random and never reused, so a copy never goes stale).
 */
export const s3CacheControl = 'public, max-age=31536000, immutable';

/** A streamed upload is sent in parts of this size (S3's minimum is 5 MB, except the last): at most one part is in memory. */
export const s3PartBytes = 8 * 1024 * 1024;

/** Cuts a stream of chunks into parts of `size` bytes (the last may be shorter). */
async function* parts(body: AsyncIterable<Buffer>, size: number): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  for await (const chunk of body) {
    held.push(chunk);
    heldBytes += chunk.length;
    while (heldBytes >= size) {
      const all = Buffer.concat(held);
      yield all.subarray(0, size);
      held = [all.subarray(size)];
      heldBytes = all.length - size;
    }
  }
  if (heldBytes > 0) yield Buffer.concat(held);
}

/** Files in an S3 bucket. */
export function createS3Storage(options: S3StorageOptions): FileStorage & { client: S3Client } {
  const client = new S3Client({
    region: options.region || 'us-east-1',
    ...(options.endpoint ? { endpoint: options.endpoint, forcePathStyle: true } : {}),
    ...(options.accessKeyId && options.secretAccessKey
      ? { credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey } }
      : {}),
  });
  return {
    kind: 's3',
    client,
    async put(key, body, contentType) {
      await client.send(new PutObjectCommand({ Bucket: options.bucket, Key: key, Body: body, ContentType: contentType, CacheControl: s3CacheControl }));
      return { src: s3ObjectUrl(options, key) };
    },
    async putStream(key, body, contentType) {
      // A multipart upload (CreateMultipartUpload, UploadPart…, Complete) with the client already in use: no
      // @aws-sdk/lib-storage dependency for the one loop it would run. Aborted on any failure, so no parts linger.
      const created = await client.send(new CreateMultipartUploadCommand({ Bucket: options.bucket, Key: key, ContentType: contentType, CacheControl: s3CacheControl }));
      const uploadId = created.UploadId;
      if (!uploadId) throw new Error('S3 gave no upload id');
      try {
        const done: CompletedPart[] = [];
        for await (const part of parts(body, s3PartBytes)) {
          const PartNumber = done.length + 1;
          const sent = await client.send(new UploadPartCommand({ Bucket: options.bucket, Key: key, UploadId: uploadId, PartNumber, Body: part }));
          done.push({ PartNumber, ETag: sent.ETag });
        }
        await client.send(new CompleteMultipartUploadCommand({ Bucket: options.bucket, Key: key, UploadId: uploadId, MultipartUpload: { Parts: done } }));
      } catch (error) {
        await client.send(new AbortMultipartUploadCommand({ Bucket: options.bucket, Key: key, UploadId: uploadId })).catch(() => undefined);
        throw error;
      }
      return { src: s3ObjectUrl(options, key) };
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key }));
    },
  };
}
