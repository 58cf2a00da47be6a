import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { and, desc, eq, inArray, sql, sum, type SQL } from 'drizzle-orm';
import { fileTypeFromBuffer } from 'file-type';
import { app_config } from '@estudio/db/schema/app-config';
import { file } from '@estudio/db/schema/content';
import { appConfigDefaults, DomainError, fileQuotaMessage, type FileOutput, type RemovedOutput, type Role } from '@estudio/core';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { createLocalStorage } from '../../providers/files/local-storage.ts';
import { createS3Storage } from '../../providers/files/s3-storage.ts';
import type { FileStorage } from '../../providers/files/storage.ts';
import { toFileOutput } from './file-output.ts';
import { makeVariants, originalKey, pictureTypes, variantKey, variantKeysOf } from './picture-variants.ts';

/** The declared types, by content: images for profile pictures and image fields, PDF for documents. */
export const imageTypes: ReadonlyMap<string, string> = new Map([
  ['image/jpeg', 'jpg'],
  ['image/png', 'png'],
  ['image/webp', 'webp'],
  ['image/gif', 'gif'],
]);
export const documentTypes: ReadonlyMap<string, string> = new Map([['application/pdf', 'pdf']]);

export type UploadKind = 'image' | 'any';

/** The caller of a files procedure: staff and admins see and change every file, customers their own. */
export interface FileCaller {
  customer_id: number;
  role: Role;
}

const seesAll = (caller: FileCaller) => caller.role === 'staff' || caller.role === 'admin';

function formatMegabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${Number.isInteger(mb) ? mb : mb.toFixed(1)} MB`;
}

/** 413 with the configured limit in the message. */
export function tooLargeError(maxBytes: number): DomainError {
  return new DomainError('file/too-large', `El archivo es demasiado grande. El tamaño máximo es de ${formatMegabytes(maxBytes)}.`);
}

/**
 * The MIME type and extension of the bytes, judged by their content (never
 * the client's name or declared type); refused when not a declared type.
 */
export async function detectAllowedType(body: Buffer, kind: UploadKind): Promise<{ mime: string; ext: string }> {
  const detected = await fileTypeFromBuffer(body);
  const image = detected ? imageTypes.get(detected.mime) : undefined;
  if (detected && image) return { mime: detected.mime, ext: image };
  if (kind === 'image') throw new DomainError('file/not-image');
  const document = detected ? documentTypes.get(detected.mime) : undefined;
  if (detected && document) return { mime: detected.mime, ext: document };
  throw new DomainError('file/type-not-allowed');
}

async function fileSettings(db: Db): Promise<Record<'files_location' | 'S3_ENDPOINT' | 'bucket' | 'region', string>> {
  const keys = ['files_location', 'S3_ENDPOINT', 'bucket', 'region'] as const;
  const rows = await db
    .select({ key: app_config.key, value: app_config.value })
    .from(app_config)
    .where(inArray(app_config.key, [...keys]));
  const stored = new Map(rows.map((r) => [r.key, r.value]));
  return Object.fromEntries(keys.map((k) => [k, (stored.get(k) ?? appConfigDefaults[k]).trim()])) as Record<(typeof keys)[number], string>;
}

export function localFilesDir(config: Config): string {
  return config.FILES_DIR ?? path.join(config.DATA_DIR, 'files');
}

/**
 * The storage of an upload: 's3' for POST /api/files/s3, else the studio's
 * files_location ('server' by default). S3 needs a bucket in the app config.
 */
export async function chooseStorage(db: Db, config: Config, target: 'configured' | 's3'): Promise<FileStorage> {
  const settings = await fileSettings(db);
  if (target === 'configured' && settings.files_location !== 's3') return createLocalStorage(localFilesDir(config));
  if (!settings.bucket) throw new DomainError('file/s3-not-configured');
  return createS3Storage({
    bucket: settings.bucket,
    region: settings.region,
    endpoint: settings.S3_ENDPOINT || undefined,
    accessKeyId: config.S3_ACCESS_KEY_ID,
    secretAccessKey: config.S3_SECRET_ACCESS_KEY,
  });
}

/** A display name from the client's file name: no folders, no control characters, at most 200 characters. */
export function displayName(clientName: string | undefined, ext: string): string {
  const base = path.basename((clientName ?? '').replace(/\\/g, '/')).replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return (base || `archivo.${ext}`).slice(0, 200);
}

export interface UploadInput {
  body: Buffer;
  clientName: string | undefined;
  kind: UploadKind;
  customerId: number;
  /** Bytes the uploader may keep in files, this one included; null: no quota (staff and admins). */
  quotaBytes: number | null;
}

/** The uploader's quota: customers get the configured one, staff and admins none. */
export function uploadQuota(config: Config, role: Role): number | null {
  return role === 'staff' || role === 'admin' ? null : config.FILES_CUSTOMER_QUOTA_BYTES;
}

/** Key space of the per-customer upload lock (two-int advisory lock: this, then the customer id). */
const UPLOAD_QUOTA_LOCK = 61_015;

/**
 * Stores an upload after checking its content type and the uploader's quota,
 * and records the file row. The storage key is a random id with the detected
 * extension. One transaction holds a per-customer advisory lock from the
 * quota check to the insert, so parallel uploads of one customer are counted
 * one after another and cannot pass the quota together; nothing is stored
 * when the quota is refused.
 *
 * A JPEG, PNG or WebP picture also gets WebP copies at smaller widths
 * (picture-variants.ts, decision 049), stored beside it in the same storage;
 * the original's key lists their widths. The quota counts the original only:
 * the variants are the studio's copies for its pages, not something the
 * customer chose to keep, and `size` stays the bytes the customer sent. A
 * picture that cannot be decoded is stored as it is, without variants.
 */
export async function uploadFile(db: Db, storage: FileStorage, input: UploadInput): Promise<FileOutput> {
  if (input.body.length === 0) throw new DomainError('file/missing');
  const { mime, ext } = await detectAllowedType(input.body, input.kind);
  const id = randomUUID();
  // Made before the transaction (no lock held while resizing); none when the picture cannot be decoded.
  const variants = pictureTypes.has(mime) ? await makeVariants(input.body) : [];
  const key = originalKey(id, ext, variants.map((v) => v.width));
  const stored: string[] = [];
  try {
    return await db.transaction(async (tx) => {
      if (input.quotaBytes !== null) {
        await tx.execute(sql`select pg_advisory_xact_lock(${UPLOAD_QUOTA_LOCK}, ${input.customerId})`);
        const [used] = await tx.select({ bytes: sum(file.size) }).from(file).where(eq(file.customer_id, input.customerId));
        const usedBytes = Number(used?.bytes ?? 0);
        if (usedBytes + input.body.length > input.quotaBytes) {
          throw new DomainError('file/quota-exceeded', fileQuotaMessage(input.quotaBytes, usedBytes));
        }
      }
      let src: string;
      try {
        // The variants first: an original whose name lists a width is never stored without that width.
        for (const variant of variants) {
          const name = variantKey(id, variant.width);
          await storage.put(name, variant.body, 'image/webp');
          stored.push(name);
        }
        ({ src } = await storage.put(key, input.body, mime));
        stored.push(key);
      } catch (error) {
        throw Object.assign(new DomainError('file/storage-unavailable'), { cause: error });
      }
      const [row] = await tx
        .insert(file)
        .values({
          name: displayName(input.clientName, ext),
          type: mime,
          src,
          storage: storage.kind,
          storage_key: key,
          size: input.body.length,
          customer_id: input.customerId,
        })
        .returning();
      if (!row) throw new Error('file insert returned nothing');
      return toFileOutput(row);
    });
  } catch (error) {
    // No row, no bytes: do not leave an object nobody can list or delete.
    await Promise.all(stored.map((name) => storage.remove(name).catch(() => undefined)));
    throw error;
  }
}

function visible(caller: FileCaller, ...conditions: SQL[]): SQL | undefined {
  return and(...conditions, seesAll(caller) ? undefined : eq(file.customer_id, caller.customer_id));
}

/** The caller's files (every file for staff and admins), newest first. */
export async function listFiles(db: Db, caller: FileCaller): Promise<FileOutput[]> {
  const rows = await db.select().from(file).where(visible(caller)).orderBy(desc(file.file_id));
  return rows.map(toFileOutput);
}

/** One file; another customer's file is 404 for a customer. */
export async function getFile(db: Db, caller: FileCaller, id: number): Promise<FileOutput> {
  const [row] = await db.select().from(file).where(visible(caller, eq(file.file_id, id))).limit(1);
  if (!row) throw new DomainError('file/not-found');
  return toFileOutput(row);
}

/** Renames a file (the bytes are immutable). */
export async function renameFile(db: Db, caller: FileCaller, id: number, name: string): Promise<FileOutput> {
  const [row] = await db
    .update(file)
    .set({ name, updatedAt: new Date() })
    .where(visible(caller, eq(file.file_id, id)))
    .returning();
  if (!row) throw new DomainError('file/not-found');
  return toFileOutput(row);
}

/**
 * Deletes the row, then the bytes. References (profile image, coach photo)
 * are cleared by their foreign keys. The bytes are removed best-effort: a
 * storage failure leaves an orphan object, never a row pointing at nothing.
 */
export async function removeFile(db: Db, config: Config, caller: FileCaller, id: number): Promise<RemovedOutput> {
  const [row] = await db.delete(file).where(visible(caller, eq(file.file_id, id))).returning();
  if (!row) throw new DomainError('file/not-found');
  // The original and its variants (decision 049: their keys follow from the original's).
  const keys = row.storage_key ? [row.storage_key, ...variantKeysOf(row.storage_key)] : [];
  const removeAll = (storage: FileStorage) => Promise.all(keys.map((key) => storage.remove(key).catch(() => undefined)));
  if (row.storage_key && row.src.startsWith('/files/')) {
    await removeAll(createLocalStorage(localFilesDir(config)));
  } else if (row.storage_key && row.storage === 's3') {
    await chooseStorage(db, config, 's3')
      .then(removeAll)
      .catch(() => undefined);
  }
  return { deleted: true, id: row.file_id };
}
