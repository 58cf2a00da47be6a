import { and, asc, desc, eq, gt, gte, inArray, isNull, lte, not, or, sql, type SQL } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { favorite, playback, video, video_program, video_tag } from '@estudio/db/schema/videos';
import { DomainError, VIDEO_PAGE_SIZE, type VideoListOutput, type VideoTeaserOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { hasOnlineAccess, onlineMembership, type VideoViewer } from './online-access.ts';
import { loadVideoOutputs } from './video-output.ts';

export interface VideoFilters {
  query?: string | undefined;
  instructor_id?: number | undefined;
  class_type_id?: number | undefined;
  class_category_id?: number | undefined;
  video_type_id?: number | undefined;
  program_id?: number | undefined;
  tag_id?: number[] | undefined;
  /** '20' (at most 20 minutes), '20-40', '40-' or '-20'. */
  duration?: string | undefined;
  completed?: boolean | undefined;
}

/** Published videos: available, not deleted, already released. */
export function publishedVideo(now: Date): SQL {
  return and(eq(video.available, true), isNull(video.deletedAt), lte(video.release_date, now)) as SQL;
}

/** Lower-case words without accents, at most 8. */
export function searchWords(query: string): string[] {
  return query
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0)
    .slice(0, 8);
}

const acute: Record<string, string> = { a: 'á', e: 'é', i: 'í', o: 'ó', u: 'ú' };

/**
 * The spellings a word typed without accents may stand for: itself, an acute
 * accent on any one vowel, or ñ for any one n ('respiracion' → 'respiración',
 * 'pequeno' → 'pequeño'). The Spanish stemmer stems 'respiración' to 'respir'
 * but 'respiracion' to 'respiracion', so the plain spelling alone misses it.
 */
export function accentVariants(word: string): string[] {
  const variants = new Set([word]);
  for (let i = 0; i < word.length && variants.size < 16; i++) {
    const ch = word[i] as string;
    const marked = ch === 'n' ? 'ñ' : acute[ch];
    if (marked) variants.add(word.slice(0, i) + marked + word.slice(i + 1));
  }
  return [...variants];
}

/**
 * The full-text query for a search: every word must match (AND), each in any of
 * its accent spellings (OR), with the Spanish configuration of the `search`
 * column, so the GIN index answers it on PostgreSQL and PGlite alike. Stop
 * words ('para', 'la') drop out as they do from the column.
 */
export function searchTsQuery(query: string): SQL | undefined {
  const words = searchWords(query);
  if (words.length === 0) return undefined;
  const perWord = words.map(
    (w) => sql`(${sql.join(accentVariants(w).map((v) => sql`plainto_tsquery('spanish', ${v})`), sql` || `)})`,
  );
  return sql`(${sql.join(perWord, sql` && `)})`;
}

/** Videos matching the search (see searchTsQuery). */
export function textMatch(query: string): SQL | undefined {
  const tsquery = searchTsQuery(query);
  return tsquery ? sql`${video.search} @@ ${tsquery}` : undefined;
}

function durationMatch(duration: string): SQL | undefined {
  if (!duration.includes('-')) return lte(video.duration, Number(duration));
  const [from = '', to = ''] = duration.split('-');
  return and(from === '' ? undefined : gte(video.duration, Number(from)), to === '' ? undefined : lte(video.duration, Number(to)));
}

/** The WHERE of a video list for one customer; the page and the total share it. */
export function videoWhere(filters: VideoFilters, customerId: number, now: Date): SQL {
  const conditions: (SQL | undefined)[] = [publishedVideo(now)];
  if (filters.query) conditions.push(textMatch(filters.query));
  if (filters.instructor_id) conditions.push(eq(video.instructor_id, filters.instructor_id));
  if (filters.class_type_id) conditions.push(eq(video.class_type_id, filters.class_type_id));
  if (filters.class_category_id) {
    const categoryTypes = sql`(select ${class_type.class_type_id} from ${class_type} where ${class_type.class_category_id} = ${filters.class_category_id})`;
    conditions.push(or(eq(video.class_category_id, filters.class_category_id), sql`${video.class_type_id} in ${categoryTypes}`));
  }
  if (filters.video_type_id) conditions.push(eq(video.video_type_id, filters.video_type_id));
  if (filters.program_id) {
    conditions.push(
      sql`exists (select 1 from ${video_program} where ${video_program.video_id} = ${video.video_id} and ${video_program.program_id} = ${filters.program_id})`,
    );
  }
  if (filters.tag_id && filters.tag_id.length > 0) {
    conditions.push(
      sql`exists (select 1 from ${video_tag} where ${video_tag.video_id} = ${video.video_id} and ${inArray(video_tag.tag_id, filters.tag_id)})`,
    );
  }
  if (filters.duration) conditions.push(durationMatch(filters.duration));
  if (filters.completed !== undefined) {
    const done = sql`exists (select 1 from ${playback} where ${playback.video_id} = ${video.video_id} and ${playback.customer_id} = ${customerId} and ${playback.completed})`;
    conditions.push(filters.completed ? done : not(done));
  }
  return and(...conditions) as SQL;
}

/** How many favourites the customer has among published videos, as an SQL number. */
function favoritesCount(customerId: number, now: Date): SQL {
  return sql`(select count(*) from ${favorite}, ${video} where ${and(eq(favorite.customer_id, customerId), eq(video.video_id, favorite.video_id), publishedVideo(now))})::int`;
}

/**
 * A page of the library for `viewer`: the number of `matches` (a FROM and a
 * WHERE), the page's ids (`ids`, the same matches in their order), and the
 * customer's favourites count, or the spec's 412 when the viewer has no online
 * membership. The total, the count and the membership are one statement,
 * sent with the page's ids; the videos themselves follow in one more round
 * trip (loadVideoOutputs). Before, a list was five round trips one after
 * another.
 */
async function videoPage(db: Db, viewer: VideoViewer, matches: SQL, ids: Promise<{ id: number }[]>, now: Date): Promise<VideoListOutput> {
  const [[head], rows] = await Promise.all([
    db
      .select({
        total: sql<number>`(select count(*) from ${matches})::int`,
        favorites: sql<number>`${favoritesCount(viewer.customerId, now)}`,
        access: sql<boolean>`${onlineMembership(viewer, now)}`,
      })
      .from(sql`(select 1) one`),
    ids,
  ]);
  if (head?.access !== true) throw new DomainError('video/membership-required');
  return {
    videos: await loadVideoOutputs(db, rows.map((r) => r.id), viewer.customerId),
    total: Number(head.total),
    favorites: Number(head.favorites),
    purchase_needed: false,
  };
}

/**
 * GET /api/videos: one page (32) of published videos matching the filters,
 * searched and filtered in the database. With a query, best text matches
 * first; otherwise newest release first. `total` counts every match. A viewer
 * without an online membership gets the spec's 412.
 */
export async function listVideos(db: Db, viewer: VideoViewer, filters: VideoFilters, page: number, now = new Date()): Promise<VideoListOutput> {
  const where = videoWhere(filters, viewer.customerId, now);
  const tsquery = filters.query ? searchTsQuery(filters.query) : undefined;
  const rank = tsquery ? sql`ts_rank(${video.search}, ${tsquery})` : undefined;
  const ids = db
    .select({ id: video.video_id })
    .from(video)
    .where(where)
    .orderBy(...(rank ? [desc(rank)] : []), desc(video.release_date), desc(video.video_id))
    .limit(VIDEO_PAGE_SIZE)
    .offset((page - 1) * VIDEO_PAGE_SIZE);
  return videoPage(db, viewer, sql`${video} where ${where}`, ids.execute(), now);
}

/** GET /api/videos/program/{id}: the program's published videos in the program's order (412 without an online membership). */
export async function listProgramVideos(db: Db, viewer: VideoViewer, programId: number, page: number, now = new Date()): Promise<VideoListOutput> {
  const where = and(publishedVideo(now), eq(video_program.program_id, programId)) as SQL;
  const ids = db
    .select({ id: video.video_id })
    .from(video)
    .innerJoin(video_program, eq(video_program.video_id, video.video_id))
    .where(where)
    .orderBy(asc(video_program.order), asc(video.video_id))
    .limit(VIDEO_PAGE_SIZE)
    .offset((page - 1) * VIDEO_PAGE_SIZE);
  return videoPage(db, viewer, sql`${video} inner join ${video_program} on ${eq(video_program.video_id, video.video_id)} where ${where}`, ids.execute(), now);
}

/**
 * GET /api/videos/upcoming: announced videos (future release), soonest first;
 * a public teaser. The player's url is the members' content: a visitor or a
 * customer without an online membership gets the video without it.
 */
export async function listUpcomingVideos(db: Db, viewer: VideoViewer | null, now = new Date()): Promise<VideoTeaserOutput[]> {
  const [rows, mayWatch] = await Promise.all([
    db
      .select({ id: video.video_id })
      .from(video)
      .where(and(eq(video.available, true), isNull(video.deletedAt), gt(video.release_date, now)))
      .orderBy(asc(video.release_date), asc(video.video_id))
      .limit(VIDEO_PAGE_SIZE),
    viewer === null ? false : hasOnlineAccess(db, viewer, now),
  ]);
  const videos = await loadVideoOutputs(db, rows.map((r) => r.id), viewer?.customerId ?? null);
  return mayWatch ? videos : videos.map((v) => ({ ...v, url: null }));
}
