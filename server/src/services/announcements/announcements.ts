import { desc, eq } from 'drizzle-orm';
import { announcement } from '@estudio/db/schema/content';
import { DomainError, type AnnouncementOutput, type RemovedOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { definedOnly, missingReferenceAs, removeOrInUse } from '../content/removed.ts';
import { fileSummaries } from '../files/file-output.ts';
import { assertFilesUsable } from '../files/file-use.ts';

type AnnouncementRow = typeof announcement.$inferSelect;

export interface AnnouncementFields {
  title: string;
  content: string;
  file_id?: number | null | undefined;
  available?: boolean | undefined;
}

async function toOutputs(db: Db, rows: AnnouncementRow[]): Promise<AnnouncementOutput[]> {
  const files = await fileSummaries(
    db,
    rows.map((r) => r.file_id),
  );
  return rows.map((r) => ({
    announcement_id: r.announcement_id,
    title: r.title,
    content: r.content,
    file_id: r.file_id,
    file: r.file_id === null ? null : (files.get(r.file_id) ?? null),
    available: r.available,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

async function one(db: Db, row: AnnouncementRow | undefined): Promise<AnnouncementOutput> {
  if (!row) throw new DomainError('announcement/not-found');
  const [output] = await toOutputs(db, [row]);
  if (!output) throw new Error('announcement output missing');
  return output;
}

/** Newest first; hidden announcements only for admins (includeHidden). */
export async function listAnnouncements(db: Db, includeHidden: boolean): Promise<AnnouncementOutput[]> {
  const rows = await db
    .select()
    .from(announcement)
    .where(includeHidden ? undefined : eq(announcement.available, true))
    .orderBy(desc(announcement.createdAt), desc(announcement.announcement_id));
  return toOutputs(db, rows);
}

/** One announcement; a hidden one is 404 unless includeHidden. */
export async function getAnnouncement(db: Db, id: number, includeHidden: boolean): Promise<AnnouncementOutput> {
  const [row] = await db.select().from(announcement).where(eq(announcement.announcement_id, id)).limit(1);
  return one(db, row && (includeHidden || row.available) ? row : undefined);
}

export async function createAnnouncement(db: Db, fields: AnnouncementFields): Promise<AnnouncementOutput> {
  await assertFilesUsable(db, [fields.file_id], { for: 'studio' });
  const [row] = await missingReferenceAs(
    () => db.insert(announcement).values({ ...definedOnly(fields), title: fields.title, content: fields.content }).returning(),
    new DomainError('file/not-found'),
  );
  return one(db, row);
}

export async function updateAnnouncement(db: Db, id: number, changes: Partial<AnnouncementFields>): Promise<AnnouncementOutput> {
  await assertFilesUsable(db, [changes.file_id], { for: 'studio' });
  const [row] = await missingReferenceAs(
    () =>
      db
        .update(announcement)
        .set({ ...definedOnly(changes), updatedAt: new Date() })
        .where(eq(announcement.announcement_id, id))
        .returning(),
    new DomainError('file/not-found'),
  );
  return one(db, row);
}

export async function removeAnnouncement(db: Db, id: number): Promise<RemovedOutput> {
  return removeOrInUse(async () => {
    const [row] = await db.delete(announcement).where(eq(announcement.announcement_id, id)).returning({ id: announcement.announcement_id });
    return row?.id;
  }, new DomainError('announcement/not-found'));
}
