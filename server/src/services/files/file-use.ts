import { DomainError } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { customer } from '@estudio/db/schema/customer';
import { file } from '@estudio/db/schema/content';
import type { DbOrTx } from '@estudio/db';

/**
 * Where a named file is to go: a customer's own record (their profile picture,
 * their form answers), or a record the studio shows to others (a coach, an
 * announcement, a package, a video).
 */
export type FileUse = { for: 'customer'; customerId: number } | { for: 'studio' };

/**
 * The one check of a file id a caller names, wherever it is sent (sign-up,
 * profile, staff editing a customer, coaches, announcements, packages, videos,
 * forms, and the previous panel's calls, which reach the same services). A
 * file can go where it is asked when it exists, is of the kind the place
 * takes, and its uploader allows it: a customer's upload is private to that
 * customer's own record, so it never shows on another customer's nor on the
 * studio's pages; staff uploads and the studio's own files (no uploader) go
 * anywhere. Anything else is 404 'file/not-found', as a file the caller
 * cannot see is answered everywhere else (GET /api/files/{id}).
 */
export async function assertFileUsable(db: DbOrTx, fileId: number, use: FileUse, kind: 'image' | 'any' = 'any'): Promise<void> {
  const uploader = alias(customer, 'uploader');
  const [row] = await db
    .select({ uploaderId: file.customer_id, uploaderRole: uploader.role, type: file.type })
    .from(file)
    .leftJoin(uploader, eq(uploader.customer_id, file.customer_id))
    .where(eq(file.file_id, fileId))
    .limit(1);
  if (!row) throw new DomainError('file/not-found');
  const studioFile = row.uploaderId === null || row.uploaderRole === 'staff' || row.uploaderRole === 'admin';
  const ownFile = use.for === 'customer' && row.uploaderId === use.customerId;
  if (!studioFile && !ownFile) throw new DomainError('file/not-found');
  if (kind === 'image' && !row.type.startsWith('image/')) throw new DomainError('file/not-image');
}

/** assertFileUsable for each id that was sent (undefined: not sent; null: cleared). */
export async function assertFilesUsable(db: DbOrTx, fileIds: (number | null | undefined)[], use: FileUse, kind: 'image' | 'any' = 'any'): Promise<void> {
  for (const id of fileIds) if (typeof id === 'number') await assertFileUsable(db, id, use, kind);
}
