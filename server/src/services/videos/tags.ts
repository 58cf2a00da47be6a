import { asc, eq } from 'drizzle-orm';
import { tag } from '@estudio/db/schema/videos';
import { DomainError, type RemovedOutput, type TagOutput } from '@estudio/core';
import { isUniqueViolation, type Db } from '../../db.ts';
import { definedOnly } from '../content/removed.ts';

export interface TagFields {
  name: string;
  type?: 'video' | 'class' | undefined;
  color?: string | null | undefined;
}

const columns = { tag_id: tag.tag_id, name: tag.name, type: tag.type, color: tag.color };

function found(row: TagOutput | undefined): TagOutput {
  if (!row) throw new DomainError('tag/not-found');
  return row;
}

async function nameTakenAs409<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('tag/name-taken');
    throw error;
  }
}

/** GET /api/tags?type=: tags by name, of one type ('video', 'class') or all. */
export async function listTags(db: Db, type?: string): Promise<TagOutput[]> {
  return db
    .select(columns)
    .from(tag)
    .where(type ? eq(tag.type, type) : undefined)
    .orderBy(asc(tag.name), asc(tag.tag_id));
}

export async function getTag(db: Db, id: number): Promise<TagOutput> {
  const [row] = await db.select(columns).from(tag).where(eq(tag.tag_id, id)).limit(1);
  return found(row);
}

/** Names are unique per type; a repeated one is 409. New tags are video tags unless told. */
export async function createTag(db: Db, fields: TagFields): Promise<TagOutput> {
  const [row] = await nameTakenAs409(() =>
    db
      .insert(tag)
      .values({ name: fields.name, type: fields.type ?? 'video', color: fields.color ?? null })
      .returning(columns),
  );
  return found(row);
}

export async function updateTag(db: Db, id: number, changes: Partial<TagFields>): Promise<TagOutput> {
  const set = definedOnly(changes);
  if (Object.keys(set).length === 0) return getTag(db, id);
  const [row] = await nameTakenAs409(() => db.update(tag).set(set).where(eq(tag.tag_id, id)).returning(columns));
  return found(row);
}

/** Deleting a tag takes it off its videos and classes. */
export async function removeTag(db: Db, id: number): Promise<RemovedOutput> {
  const [row] = await db.delete(tag).where(eq(tag.tag_id, id)).returning({ id: tag.tag_id });
  if (!row) throw new DomainError('tag/not-found');
  return { deleted: true, id: row.id };
}
