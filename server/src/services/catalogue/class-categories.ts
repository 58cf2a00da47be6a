import { and, asc, count, eq, isNull } from 'drizzle-orm';
import { class_category, class_type } from '@estudio/db/schema/catalogue';
import { video } from '@estudio/db/schema/videos';
import { classCategoryRemoval, DomainError, type ClassCategoryOutput, type RemovalVerdict, type RemovedOutput } from '@estudio/core';
import { isUniqueViolation, type Db } from '../../db.ts';
import { definedOnly } from '../content/removed.ts';

export interface ClassCategoryFields {
  name: string;
  handle?: string | undefined;
  description?: string | null | undefined;
  available?: boolean | undefined;
}

const columns = {
  class_category_id: class_category.class_category_id,
  name: class_category.name,
  handle: class_category.handle,
  description: class_category.description,
  available: class_category.available,
};

/** 'Yoga y Meditación' → 'yoga-y-meditacion'. */
export function handleFromName(name: string): string {
  const handle = name
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return handle || 'categoria';
}

function found(row: ClassCategoryOutput | undefined): ClassCategoryOutput {
  if (!row) throw new DomainError('class-category/not-found');
  return row;
}

async function handleGuard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error, 'class_category_handle_key')) throw new DomainError('class-category/handle-taken');
    throw error;
  }
}

/** Every category (the admin list) or only the available ones. */
export async function listClassCategories(db: Db, onlyAvailable: boolean): Promise<ClassCategoryOutput[]> {
  return db
    .select(columns)
    .from(class_category)
    .where(onlyAvailable ? eq(class_category.available, true) : undefined)
    .orderBy(asc(class_category.name), asc(class_category.class_category_id));
}

export async function getClassCategory(db: Db, id: number): Promise<ClassCategoryOutput> {
  const [row] = await db.select(columns).from(class_category).where(eq(class_category.class_category_id, id)).limit(1);
  return found(row);
}

/** Creates a category; available defaults to true and the handle to one derived from the name. */
export async function createClassCategory(db: Db, fields: ClassCategoryFields): Promise<ClassCategoryOutput> {
  return handleGuard(async () => {
    const [row] = await db
      .insert(class_category)
      .values({
        name: fields.name,
        handle: fields.handle ?? handleFromName(fields.name),
        description: fields.description ?? null,
        available: fields.available ?? true,
      })
      .returning(columns);
    return found(row);
  });
}

export async function updateClassCategory(db: Db, id: number, changes: Partial<ClassCategoryFields>): Promise<ClassCategoryOutput> {
  return handleGuard(async () => {
    const [row] = await db
      .update(class_category)
      .set({ ...definedOnly(changes), updatedAt: new Date() })
      .where(eq(class_category.class_category_id, id))
      .returning(columns);
    return found(row);
  });
}

/**
 * What deleting the category would do (core's classCategoryRemoval): refused
 * while class types or live videos are in it. `lock` takes the category row
 * first, for the delete itself: a class type or video being put in the
 * category waits for the delete and then finds it gone.
 */
export async function classCategoryRemovalVerdict(db: Db, id: number, lock = false): Promise<RemovalVerdict> {
  const rows = db.select({ id: class_category.class_category_id }).from(class_category).where(eq(class_category.class_category_id, id));
  const [row] = await (lock ? rows.for('update') : rows);
  if (!row) throw new DomainError('class-category/not-found');
  const [types] = await db.select({ n: count() }).from(class_type).where(eq(class_type.class_category_id, id));
  const [videos] = await db.select({ n: count() }).from(video).where(and(eq(video.class_category_id, id), isNull(video.deletedAt)));
  return classCategoryRemoval(Number(types?.n ?? 0), Number(videos?.n ?? 0));
}

/**
 * Deletes a category nothing is in. Class types and videos would only lose
 * it (the foreign keys set null), silently changing the schedule's filters
 * and the video library, so while any live one is in it the delete is a 409
 * 'class-category/in-use' saying how many, and nothing changes.
 */
export async function removeClassCategory(db: Db, id: number): Promise<RemovedOutput> {
  return db.transaction(async (tx) => {
    const verdict = await classCategoryRemovalVerdict(tx, id, true);
    if (verdict.outcome === 'refuse') throw new DomainError('class-category/in-use', verdict.message);
    await tx.delete(class_category).where(eq(class_category.class_category_id, id));
    return { deleted: true as const, id };
  });
}
