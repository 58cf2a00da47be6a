import { and, count, desc, eq, inArray, isNull } from 'drizzle-orm';
import { tag, video, video_tag, video_type } from '@estudio/db/schema/videos';
import { DomainError, studioDayjs, studioTimeZone, type RemovedOutput, type VideoAdminRow, type VideoCreateInput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { definedOnly, missingReferenceAs } from '../content/removed.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

type VideoRow = typeof video.$inferSelect;

function toRow(v: VideoRow, tagIds: number[], now: Date): VideoAdminRow {
  return {
    video_id: v.video_id,
    name: v.name,
    description: v.description,
    duration: v.duration,
    url: v.url,
    thumbnail: v.thumbnail,
    instructor_id: v.instructor_id,
    video_type_id: v.video_type_id,
    class_type_id: v.class_type_id,
    class_category_id: v.class_category_id,
    release_date: v.release_date.toISOString(),
    available: v.available,
    tag_ids: tagIds,
    status: !v.available ? 'hidden' : v.release_date > now ? 'upcoming' : 'published',
  };
}

async function toRows(db: Db, rows: VideoRow[]): Promise<VideoAdminRow[]> {
  const ids = rows.map((r) => r.video_id);
  const tags = ids.length === 0 ? [] : await db.select().from(video_tag).where(inArray(video_tag.video_id, ids));
  const now = new Date();
  return rows.map((r) => toRow(r, tags.filter((t) => t.video_id === r.video_id).map((t) => t.tag_id).sort((a, b) => a - b), now));
}

/** Every video an admin manages (published, upcoming and hidden), newest release first; deleted ones are gone. */
export async function listAdminVideos(db: Db): Promise<VideoAdminRow[]> {
  const rows = await db.select().from(video).where(isNull(video.deletedAt)).orderBy(desc(video.release_date), desc(video.video_id));
  return toRows(db, rows);
}

export async function getAdminVideo(db: Db, id: number): Promise<VideoAdminRow> {
  const [row] = await db.select().from(video).where(and(eq(video.video_id, id), isNull(video.deletedAt))).limit(1);
  if (!row) throw new DomainError('video/not-found');
  const [out] = await toRows(db, [row]);
  if (!out) throw new DomainError('video/not-found');
  return out;
}

/** A day 'YYYY-MM-DD' is its first minute in the studio's zone; an instant is itself. */
async function releaseInstant(db: Db, value: string | undefined): Promise<Date | undefined> {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const tz = studioTimeZone(await loadStudioSettings(db));
    // Noon UTC of that day is that day in every American zone; its start on the studio's wall.
    return studioDayjs(`${value}T12:00:00Z`, tz).startOf('day').toDate();
  }
  return new Date(value);
}

async function replaceTags(db: Db, videoId: number, tagIds: number[]): Promise<void> {
  const unique = [...new Set(tagIds)];
  if (unique.length > 0) {
    const known = await db.select({ id: tag.tag_id }).from(tag).where(inArray(tag.tag_id, unique));
    if (known.length !== unique.length) throw new DomainError('video/reference-not-found');
  }
  await db.delete(video_tag).where(eq(video_tag.video_id, videoId));
  if (unique.length > 0) await db.insert(video_tag).values(unique.map((tag_id) => ({ video_id: videoId, tag_id })));
}

const referenceMissing = new DomainError('video/reference-not-found');

/**
 * An admin adds a video to the library: a player's url (checked by the core
 * schema: https, a known player or a video file), its thumbnail, and a
 * release date — before it the video is 'upcoming', after it members watch it.
 * The video and its tags are one transaction; the answer is the stored record.
 */
export async function createVideo(db: Db, input: VideoCreateInput): Promise<VideoAdminRow> {
  const { tag_ids: tagIds, release_date: releaseDate, ...columns } = input;
  const release = await releaseInstant(db, releaseDate);
  const id = await missingReferenceAs(
    () =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .insert(video)
          .values({ ...definedOnly(columns), name: columns.name, duration: columns.duration, url: columns.url, ...(release ? { release_date: release } : {}) })
          .returning({ id: video.video_id });
        if (!row) throw new DomainError('video/not-found');
        if (tagIds) await replaceTags(tx, row.id, tagIds);
        return row.id;
      }),
    referenceMissing,
  );
  return getAdminVideo(db, id);
}

/** Changes the sent fields; `tag_ids`, when sent, replaces the video's tags. A deleted video is a 404. */
export async function updateVideo(db: Db, id: number, changes: Partial<VideoCreateInput>): Promise<VideoAdminRow> {
  const { tag_ids: tagIds, release_date: releaseDate, ...columns } = changes;
  const release = await releaseInstant(db, releaseDate);
  await missingReferenceAs(
    () =>
      db.transaction(async (tx) => {
        const [row] = await tx
          .update(video)
          .set({ ...definedOnly(columns), ...(release ? { release_date: release } : {}), updatedAt: new Date() })
          .where(and(eq(video.video_id, id), isNull(video.deletedAt)))
          .returning({ id: video.video_id });
        if (!row) throw new DomainError('video/not-found');
        if (tagIds) await replaceTags(tx, id, tagIds);
      }),
    referenceMissing,
  );
  return getAdminVideo(db, id);
}

/**
 * Deleting a video hides it for good (deleted_at) rather than erasing it:
 * customers' ratings, completions and favourites of it are history the
 * studio keeps (decision 014); every list and the player already skip it.
 */
export async function removeVideo(db: Db, id: number): Promise<RemovedOutput> {
  const [row] = await db
    .update(video)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(video.video_id, id), isNull(video.deletedAt)))
    .returning({ id: video.video_id });
  if (!row) throw new DomainError('video/not-found');
  return { deleted: true, id: row.id };
}

// ---------- Video types ----------

export interface VideoTypeFields {
  name: string;
  description?: string | null | undefined;
  order?: number | undefined;
}

const typeColumns = { video_type_id: video_type.video_type_id, name: video_type.name, description: video_type.description, order: video_type.order };

export async function createVideoType(db: Db, fields: VideoTypeFields) {
  const [row] = await db.insert(video_type).values({ ...definedOnly(fields), name: fields.name }).returning(typeColumns);
  if (!row) throw new DomainError('video-type/not-found');
  return row;
}

export async function updateVideoType(db: Db, id: number, changes: Partial<VideoTypeFields>) {
  const set = definedOnly(changes);
  const [row] =
    Object.keys(set).length === 0
      ? await db.select(typeColumns).from(video_type).where(eq(video_type.video_type_id, id))
      : await db.update(video_type).set(set).where(eq(video_type.video_type_id, id)).returning(typeColumns);
  if (!row) throw new DomainError('video-type/not-found');
  return row;
}

/** A type with videos (deleted ones aside) is refused: deleting it would silently untype them (decision 014). */
export async function removeVideoType(db: Db, id: number): Promise<RemovedOutput> {
  return db.transaction(async (tx) => {
    const [used] = await tx
      .select({ n: count() })
      .from(video)
      .where(and(eq(video.video_type_id, id), isNull(video.deletedAt)));
    if ((used?.n ?? 0) > 0) throw new DomainError('video-type/in-use');
    const [row] = await tx.delete(video_type).where(eq(video_type.video_type_id, id)).returning({ id: video_type.video_type_id });
    if (!row) throw new DomainError('video-type/not-found');
    return { deleted: true as const, id: row.id };
  });
}

