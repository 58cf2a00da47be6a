import { asc, eq } from 'drizzle-orm';
import { class_category } from '@estudio/db/schema/catalogue';
import { DomainError, type ClassCategoryOutput, type RemovedOutput } from '@estudio/core';
import { isUniqueViolation, type Db } from '../../db.ts';
import { definedOnly, removeOrInUse } from '../content/removed.ts';

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

/** Deletes a category; its class types keep existing without one. */
export async function removeClassCategory(db: Db, id: number): Promise<RemovedOutput> {
  return removeOrInUse(async () => {
    const [row] = await db
      .delete(class_category)
      .where(eq(class_category.class_category_id, id))
      .returning({ id: class_category.class_category_id });
    return row?.id;
  }, new DomainError('class-category/not-found'));
}
