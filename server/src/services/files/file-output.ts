import { inArray } from 'drizzle-orm';
import { file } from '@estudio/db/schema/content';
import type { FileOutput, FileSummary } from '@estudio/core';
import type { Db } from '../../db.ts';

export type FileRow = typeof file.$inferSelect;

export function toFileOutput(row: FileRow): FileOutput {
  return {
    file_id: row.file_id,
    name: row.name,
    type: row.type,
    src: row.src,
    storage: row.storage === 's3' ? 's3' : 'server',
    size: row.size,
    customer_id: row.customer_id,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The summaries of the given files by id, for records that embed their image. */
export async function fileSummaries(db: Db, ids: readonly (number | null)[]): Promise<Map<number, FileSummary>> {
  const wanted = [...new Set(ids.filter((id): id is number => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ file_id: file.file_id, src: file.src, name: file.name, type: file.type })
    .from(file)
    .where(inArray(file.file_id, wanted));
  return new Map(rows.map((r) => [r.file_id, r]));
}
