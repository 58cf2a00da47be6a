import { and, eq, sql } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { playback, video } from '@estudio/db/schema/videos';
import { DomainError, type VideoOutput } from '@estudio/core';
import { videoRating } from '@estudio/core/messages/templates/account';
import type { Db } from '../../db.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessage } from '../messages/queue-message.ts';
import { isStaffRole, requireOnlineAccess, type VideoViewer } from './online-access.ts';
import { publishedVideo } from './list-videos.ts';
import { loadVideoOutputs } from './video-output.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

/**
 * The video a viewer may open: published, or for staff also unreleased or
 * hidden ones (to check them before release). Anything else is the spec's 404.
 */
export async function findViewableVideo(db: Db, videoId: number, viewer: VideoViewer) {
  const visible = isStaffRole(viewer.role) ? undefined : publishedVideo(new Date());
  const [row] = await db
    .select({ video_id: video.video_id, name: video.name })
    .from(video)
    .where(and(eq(video.video_id, videoId), visible, sql`${video.deletedAt} is null`))
    .limit(1);
  if (!row) throw new DomainError('video/not-found');
  return row;
}

async function outputOf(db: Db, videoId: number, customerId: number): Promise<VideoOutput> {
  const [out] = await loadVideoOutputs(db, [videoId], customerId);
  if (!out) throw new DomainError('video/not-found');
  return out;
}

/**
 * GET /api/videos/{id}: 404 for an unknown video, then the 412 without an
 * online membership; opening it records the viewer's playback (one row per
 * customer and video, its updatedAt is the last play).
 */
export async function openVideo(db: Db, videoId: number, viewer: VideoViewer): Promise<VideoOutput> {
  await findViewableVideo(db, videoId, viewer);
  await requireOnlineAccess(db, viewer);
  await db
    .insert(playback)
    .values({ customer_id: viewer.customerId, video_id: videoId })
    .onConflictDoUpdate({ target: [playback.customer_id, playback.video_id], set: { updatedAt: new Date() } });
  return outputOf(db, videoId, viewer.customerId);
}

/** PUT /api/videos/{id}/complete and /uncomplete: the viewer's completion mark. */
export async function setVideoCompleted(db: Db, videoId: number, viewer: VideoViewer, completed: boolean): Promise<VideoOutput> {
  await findViewableVideo(db, videoId, viewer);
  await requireOnlineAccess(db, viewer);
  const completedAt = completed ? new Date() : null;
  await db
    .insert(playback)
    .values({ customer_id: viewer.customerId, video_id: videoId, completed, completedAt })
    .onConflictDoUpdate({ target: [playback.customer_id, playback.video_id], set: { completed, completedAt, updatedAt: new Date() } });
  return outputOf(db, videoId, viewer.customerId);
}

/** POST /api/videos/rating: one rating per customer and video; rating again replaces stars and comment. */
export async function rateVideo(
  db: Db,
  videoId: number,
  viewer: VideoViewer,
  rating: { stars: number; comment?: string | null | undefined },
): Promise<VideoOutput> {
  await findViewableVideo(db, videoId, viewer);
  await requireOnlineAccess(db, viewer);
  const comment = rating.comment ?? null;
  await db
    .insert(playback)
    .values({ customer_id: viewer.customerId, video_id: videoId, stars: rating.stars, comment })
    .onConflictDoUpdate({ target: [playback.customer_id, playback.video_id], set: { stars: rating.stars, comment, updatedAt: new Date() } });
  return outputOf(db, videoId, viewer.customerId);
}

/** POST /api/videos/rating/email: queues an e-mail to the viewer with a link to rate the video. */
export async function queueRatingEmail(db: Db, videoId: number, viewer: VideoViewer, messages: MessageContext): Promise<void> {
  const found = await findViewableVideo(db, videoId, viewer);
  await requireOnlineAccess(db, viewer);
  const [me] = await db.select({ email: customer.email, name: customer.name }).from(customer).where(eq(customer.customer_id, viewer.customerId)).limit(1);
  if (!me) throw new DomainError('customer/not-found');
  const businessName = (await loadStudioSettings(db)).business_name;
  const link = `${messages.publicUrl}/mystudio/video/${videoId}`;
  // Optional: only if the customer leaves e-mail on, with the stop link.
  await queueCustomerMessage(db, messages, {
    customerId: viewer.customerId,
    channels: ['email'],
    parts: videoRating({ businessName, videoName: found.name, link, name: me.name }),
  });
}
