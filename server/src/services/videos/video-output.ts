import { and, asc, eq, inArray } from 'drizzle-orm';
import { class_type, instructor } from '@estudio/db/schema/catalogue';
import { favorite, playback, program, tag, video, video_program, video_tag, video_type } from '@estudio/db/schema/videos';
import type { VideoOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { fileSummaries } from '../files/file-output.ts';

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K): Map<K, T[]> {
  const map = new Map<K, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(row);
    else map.set(k, [row]);
  }
  return map;
}

/**
 * The given videos as the API shows them to `customerId` (favourite, completion,
 * own rating and playback), in the order of `ids`. A handful of batched queries
 * per page, whatever its size.
 */
export async function loadVideoOutputs(db: Db, ids: readonly number[], customerId: number | null): Promise<VideoOutput[]> {
  if (ids.length === 0) return [];
  const wanted = [...new Set(ids)];
  // Independent batched reads, sent together: one round trip of latency for the page instead of six.
  const [rows, tags, programs, favorites, playbacks] = await Promise.all([
    db
      .select({
        v: video,
        instructor: { instructor_id: instructor.instructor_id, name: instructor.name, last_name: instructor.last_name, nick_name: instructor.nick_name, file_id: instructor.file_id },
        video_type: { video_type_id: video_type.video_type_id, name: video_type.name },
        class_type: { class_type_id: class_type.class_type_id, name: class_type.name },
      })
      .from(video)
      .leftJoin(instructor, eq(instructor.instructor_id, video.instructor_id))
      .leftJoin(video_type, eq(video_type.video_type_id, video.video_type_id))
      .leftJoin(class_type, eq(class_type.class_type_id, video.class_type_id))
      .where(inArray(video.video_id, wanted)),
    db
      .select({ video_id: video_tag.video_id, tag_id: tag.tag_id, name: tag.name, color: tag.color, type: tag.type })
      .from(video_tag)
      .innerJoin(tag, eq(tag.tag_id, video_tag.tag_id))
      .where(inArray(video_tag.video_id, wanted))
      .orderBy(asc(tag.name)),
    db
      .select({ video_id: video_program.video_id, program_id: program.program_id, name: program.name })
      .from(video_program)
      .innerJoin(program, eq(program.program_id, video_program.program_id))
      .where(inArray(video_program.video_id, wanted))
      .orderBy(asc(program.order), asc(program.program_id)),
    customerId === null
      ? []
      : db
          .select({ video_id: favorite.video_id, favorite_id: favorite.favorite_id })
          .from(favorite)
          .where(and(eq(favorite.customer_id, customerId), inArray(favorite.video_id, wanted))),
    customerId === null
      ? []
      : db
          .select()
          .from(playback)
          .where(and(eq(playback.customer_id, customerId), inArray(playback.video_id, wanted))),
  ]);
  const files = await fileSummaries(db, rows.flatMap((r) => [r.v.file_id, r.instructor?.file_id ?? null]));

  const tagsBy = groupBy(tags, (t) => t.video_id);
  const programsBy = groupBy(programs, (p) => p.video_id);
  const favoriteBy = new Map(favorites.map((f) => [f.video_id, f.favorite_id]));
  const playbackBy = new Map(playbacks.map((p) => [p.video_id, p]));
  const byId = new Map(
    rows.map(({ v, instructor: coach, video_type: type, class_type: classType }): [number, VideoOutput] => {
      const own = playbackBy.get(v.video_id);
      const favoriteId = favoriteBy.get(v.video_id) ?? null;
      return [
        v.video_id,
        {
          video_id: v.video_id,
          name: v.name,
          description: v.description,
          duration: v.duration,
          url: v.url,
          thumbnail: v.thumbnail,
          file: v.file_id === null ? null : (files.get(v.file_id) ?? null),
          release_date: v.release_date.toISOString(),
          instructor: coach
            ? {
                instructor_id: coach.instructor_id,
                name: coach.name,
                last_name: coach.last_name,
                nick_name: coach.nick_name,
                file: coach.file_id === null ? null : (files.get(coach.file_id) ?? null),
              }
            : null,
          video_type: type,
          class_type: classType,
          class_category_id: v.class_category_id,
          tags: (tagsBy.get(v.video_id) ?? []).map(({ tag_id, name, color, type: tagType }) => ({ tag_id, name, color, type: tagType })),
          programs: (programsBy.get(v.video_id) ?? []).map(({ program_id, name }) => ({ program_id, name })),
          favorite: favoriteId === null ? 0 : 1,
          favorite_id: favoriteId,
          completed: own?.completed ?? false,
          stars: own?.stars ?? null,
          playbacks: own
            ? [
                {
                  playback_id: own.playback_id,
                  customer_id: own.customer_id,
                  completed: own.completed,
                  stars: own.stars,
                  createdAt: own.createdAt.toISOString(),
                  updatedAt: own.updatedAt.toISOString(),
                },
              ]
            : [],
        },
      ];
    }),
  );
  return ids.flatMap((id) => {
    const out = byId.get(id);
    return out ? [out] : [];
  });
}
