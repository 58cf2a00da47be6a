import { and, asc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { anyId, idArray, preparedStatement } from '@estudio/db/prepared';
import { class_type, instructor } from '@estudio/db/schema/catalogue';
import { file } from '@estudio/db/schema/content';
import { favorite, playback, program, tag, video, video_program, video_tag, video_type } from '@estudio/db/schema/videos';
import type { VideoOutput } from '@estudio/core';
import type { Db } from '../../db.ts';

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

const videoFile = alias(file, 'video_file');
const coachFile = alias(file, 'coach_file');

/*
 * The page's statements, built once (db/src/prepared.ts): drizzle built them
 * on every page of the library, the load mix's slowest kind.
 */
const detailsStatement = preparedStatement((db) =>
  db
    .select({
      v: video,
      instructor: { instructor_id: instructor.instructor_id, name: instructor.name, last_name: instructor.last_name, nick_name: instructor.nick_name },
      video_type: { video_type_id: video_type.video_type_id, name: video_type.name },
      class_type: { class_type_id: class_type.class_type_id, name: class_type.name },
      video_file: { file_id: videoFile.file_id, src: videoFile.src, name: videoFile.name, type: videoFile.type },
      coach_file: { file_id: coachFile.file_id, src: coachFile.src, name: coachFile.name, type: coachFile.type },
    })
    .from(video)
    .leftJoin(instructor, eq(instructor.instructor_id, video.instructor_id))
    .leftJoin(video_type, eq(video_type.video_type_id, video.video_type_id))
    .leftJoin(class_type, eq(class_type.class_type_id, video.class_type_id))
    .leftJoin(videoFile, eq(videoFile.file_id, video.file_id))
    .leftJoin(coachFile, eq(coachFile.file_id, instructor.file_id))
    .where(anyId(video.video_id))
    .prepare('video_details'),
);
const tagsStatement = preparedStatement((db) =>
  db
    .select({ video_id: video_tag.video_id, tag_id: tag.tag_id, name: tag.name, color: tag.color, type: tag.type })
    .from(video_tag)
    .innerJoin(tag, eq(tag.tag_id, video_tag.tag_id))
    .where(anyId(video_tag.video_id))
    .orderBy(asc(tag.name))
    .prepare('video_tags'),
);
const programsStatement = preparedStatement((db) =>
  db
    .select({ video_id: video_program.video_id, program_id: program.program_id, name: program.name })
    .from(video_program)
    .innerJoin(program, eq(program.program_id, video_program.program_id))
    .where(anyId(video_program.video_id))
    .orderBy(asc(program.order), asc(program.program_id))
    .prepare('video_programs'),
);
const favoritesStatement = preparedStatement((db) =>
  db
    .select({ video_id: favorite.video_id, favorite_id: favorite.favorite_id })
    .from(favorite)
    .where(and(eq(favorite.customer_id, sql.placeholder('customerId')), anyId(favorite.video_id)))
    .prepare('video_favorites'),
);
const playbacksStatement = preparedStatement((db) =>
  db
    .select()
    .from(playback)
    .where(and(eq(playback.customer_id, sql.placeholder('customerId')), anyId(playback.video_id)))
    .prepare('video_playbacks'),
);

/**
 * The given videos as the API shows them to `customerId` (favourite, completion,
 * own rating and playback), in the order of `ids`. One round trip per page,
 * whatever its size: the videos with their coach, types and image files, their
 * tags, programs, and the customer's favourites and playbacks, sent together.
 */
export async function loadVideoOutputs(db: Db, ids: readonly number[], customerId: number | null): Promise<VideoOutput[]> {
  if (ids.length === 0) return [];
  const values = { ids: idArray([...new Set(ids)]), customerId };
  const [rows, tags, programs, favorites, playbacks] = await Promise.all([
    detailsStatement(db, values),
    tagsStatement(db, values),
    programsStatement(db, values),
    customerId === null ? [] : favoritesStatement(db, values),
    customerId === null ? [] : playbacksStatement(db, values),
  ]);

  const tagsBy = groupBy(tags, (t) => t.video_id);
  const programsBy = groupBy(programs, (p) => p.video_id);
  const favoriteBy = new Map(favorites.map((f) => [f.video_id, f.favorite_id]));
  const playbackBy = new Map(playbacks.map((p) => [p.video_id, p]));
  const byId = new Map(
    rows.map(({ v, instructor: coach, video_type: type, class_type: classType, video_file: videoImage, coach_file: coachImage }): [number, VideoOutput] => {
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
          file: v.file_id === null ? null : videoImage,
          release_date: v.release_date.toISOString(),
          instructor: coach
            ? {
                instructor_id: coach.instructor_id,
                name: coach.name,
                last_name: coach.last_name,
                nick_name: coach.nick_name,
                file: coachImage,
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
