import type { Tx } from '../create-db.ts';
import * as s from '../schema/index.ts';
import * as content from './content.ts';
import { idAt } from './seed-days.ts';

/** The studio's catalogue: locations, class categories and types, coaches with their photos, and the tags. */
export async function seedCatalogue(tx: Tx) {
  const locations = await tx
    .insert(s.location)
    .values(content.locations.map((l, i) => ({ ...l, order: i + 1 })))
    .returning({ id: s.location.location_id });
  const categories = await tx
    .insert(s.class_category)
    .values([...content.classCategories])
    .returning({ id: s.class_category.class_category_id });
  const classTypes = await tx
    .insert(s.class_type)
    .values(
      content.classTypes.map((t, i) => ({
        name: t.name,
        description: t.description,
        icon: t.icon,
        image: t.image,
        spot_map: t.spot_map,
        level: t.level,
        what_to_bring: t.what_to_bring,
        color: t.color,
        class_category_id: idAt(categories, t.category),
        order: i + 1,
      })),
    )
    .returning({ id: s.class_type.class_type_id });
  const coachFiles = await tx
    .insert(s.file)
    .values(
      content.instructors.map((c) => ({
        name: `${c.name.toLowerCase()}.jpg`,
        type: 'image/jpeg',
        src: c.photo,
        storage: 'server',
        storage_key: c.photo.replace(/^\//, ''),
      })),
    )
    .returning({ id: s.file.file_id });
  const instructors = await tx
    .insert(s.instructor)
    .values(
      content.instructors.map((c, i) => ({
        name: c.name,
        last_name: c.last_name,
        nick_name: c.nick_name,
        quote: c.quote,
        short_bio: c.short_bio,
        instagram: c.instagram,
        birthdate: c.birthdate,
        music_type: c.music_type,
        file_id: idAt(coachFiles, i),
        order: i + 1,
      })),
    )
    .returning({ id: s.instructor.instructor_id });
  const classTags = await tx
    .insert(s.tag)
    .values(content.classTags.map((t) => ({ name: t.name, color: t.color, type: 'class' })))
    .returning({ id: s.tag.tag_id });
  const videoTags = await tx
    .insert(s.tag)
    .values(content.videoTags.map((name) => ({ name, type: 'video' })))
    .returning({ id: s.tag.tag_id });

  return { locations, categories, classTypes, instructors, classTags, videoTags };
}
