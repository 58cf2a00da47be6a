import { DeleteObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
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
      await client.send(new PutObjectCommand({ Bucket: options.bucket, Key: key, Body: body, ContentType: contentType }));
      return { src: s3ObjectUrl(options, key) };
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket: options.bucket, Key: key }));
    },
  };
}
