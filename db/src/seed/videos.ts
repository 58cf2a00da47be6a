import type { Tx } from '../create-db.ts';
import * as s from '../schema/index.ts';
import * as content from './content.ts';
import { at, idAt, type SeedDays } from './seed-days.ts';

type Rows = readonly { id: number }[];

/** The video library: types, programs, the videos (two announced for next week) with their tags and programs. */
export async function seedVideos(tx: Tx, { date, ago }: SeedDays, catalogue: { instructors: Rows; classTypes: Rows; categories: Rows; videoTags: Rows }) {
  const { instructors, classTypes, categories, videoTags } = catalogue;
  const videoTypes = await tx
    .insert(s.video_type)
    .values(content.videoTypes.map((t, i) => ({ ...t, order: i + 1 })))
    .returning({ id: s.video_type.video_type_id });
  const programs = await tx
    .insert(s.program)
    .values(content.programs.map((p, i) => ({ ...p, order: i + 1 })))
    .returning({ id: s.program.program_id });
  const videos = await tx
    .insert(s.video)
    .values(
      content.videos.map((v, i) => ({
        name: v.name,
        description: v.description,
        duration: v.duration,
        url: `https://player.vimeo.com/video/${824_804_100 + i * 137}`,
        thumbnail: `/demo/videos/${String(i + 1).padStart(2, '0')}.jpg`,
        instructor_id: idAt(instructors, v.instructor),
        video_type_id: idAt(videoTypes, v.type),
        class_type_id: v.classType === null ? null : idAt(classTypes, v.classType),
        class_category_id:
          v.classType === null ? null : idAt(categories, content.classTypes[v.classType]?.category ?? 0),
        // The last two are announced for next week (GET /videos/upcoming).
        release_date: (i >= content.videos.length - 2 ? at(date(5 + i - 18), '08:00') : ago(90 - i * 4)).toDate(),
      })),
    )
    .returning({ id: s.video.video_id });
  await tx
    .insert(s.video_tag)
    .values(content.videos.flatMap((v, i) => v.tags.map((t) => ({ video_id: idAt(videos, i), tag_id: idAt(videoTags, t) }))));
  const programOrder = new Map<number, number>();
  await tx.insert(s.video_program).values(
    content.videos.flatMap((v, i) => {
      if (v.program === null) return [];
      const order = (programOrder.get(v.program) ?? 0) + 1;
      programOrder.set(v.program, order);
      return [{ program_id: idAt(programs, v.program), video_id: idAt(videos, i), order }];
    }),
  );

  return { videos };
}
