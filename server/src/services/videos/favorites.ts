import { and, desc, eq } from 'drizzle-orm';
import { favorite, video } from '@estudio/db/schema/videos';
import { DomainError, type FavoriteOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { publishedVideo } from './list-videos.ts';
import { findViewableVideo } from './video-actions.ts';
import type { VideoViewer } from './online-access.ts';
import { loadVideoOutputs } from './video-output.ts';

type FavoriteRow = typeof favorite.$inferSelect;

async function withVideos(db: Db, rows: FavoriteRow[], customerId: number): Promise<FavoriteOutput[]> {
  const videos = new Map((await loadVideoOutputs(db, rows.map((r) => r.video_id), customerId)).map((v) => [v.video_id, v]));
  return rows.flatMap((r) => {
    const v = videos.get(r.video_id);
    return v ? [{ favorite_id: r.favorite_id, customer_id: r.customer_id, video_id: r.video_id, createdAt: r.createdAt.toISOString(), video: v }] : [];
  });
}

/** GET /api/favorites: the caller's favourite published videos, newest favourite first. */
export async function listFavorites(db: Db, customerId: number): Promise<FavoriteOutput[]> {
  const rows = await db
    .select({ f: favorite })
    .from(favorite)
    .innerJoin(video, eq(video.video_id, favorite.video_id))
    .where(and(eq(favorite.customer_id, customerId), publishedVideo(new Date())))
    .orderBy(desc(favorite.createdAt), desc(favorite.favorite_id));
  return withVideos(db, rows.map((r) => r.f), customerId);
}

/** POST /api/favorites: idempotent; adding a favourite twice answers the existing one. */
export async function addFavorite(db: Db, videoId: number, viewer: VideoViewer): Promise<FavoriteOutput> {
  await findViewableVideo(db, videoId, viewer);
  await db.insert(favorite).values({ customer_id: viewer.customerId, video_id: videoId }).onConflictDoNothing();
  const [row] = await db
    .select()
    .from(favorite)
    .where(and(eq(favorite.customer_id, viewer.customerId), eq(favorite.video_id, videoId)))
    .limit(1);
  const [out] = row ? await withVideos(db, [row], viewer.customerId) : [];
  if (!out) throw new DomainError('video/not-found');
  return out;
}

/** DELETE /api/favorites/{id}: by favorite_id (or video_id); only the caller's own, anything else is 404. */
export async function removeFavorite(db: Db, customerId: number, id: number, by: 'favorite' | 'video'): Promise<void> {
  const match = by === 'video' ? eq(favorite.video_id, id) : eq(favorite.favorite_id, id);
  const [row] = await db
    .delete(favorite)
    .where(and(match, eq(favorite.customer_id, customerId)))
    .returning({ id: favorite.favorite_id });
  if (!row) throw new DomainError('favorite/not-found');
}
