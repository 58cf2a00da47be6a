import { asc, eq } from 'drizzle-orm';
import { class_type } from '@estudio/db/schema/catalogue';
import { DomainError, type ClassTypeOutput, type RemovedOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { definedOnly, missingReferenceAs, removeOrInUse } from '../content/removed.ts';

export interface ClassTypeFields {
  name: string;
  description?: string | null | undefined;
  icon?: string | null | undefined;
  image?: string | null | undefined;
  spot_map?: string | null | undefined;
  color?: string | undefined;
  class_category_id?: number | null | undefined;
  available?: boolean | undefined;
  order?: number | undefined;
  level?: string | null | undefined;
  what_to_bring?: string | null | undefined;
}

const columns = {
  class_type_id: class_type.class_type_id,
  name: class_type.name,
  description: class_type.description,
  icon: class_type.icon,
  image: class_type.image,
  spot_map: class_type.spot_map,
  color: class_type.color,
  class_category_id: class_type.class_category_id,
  available: class_type.available,
  order: class_type.order,
  level: class_type.level,
  what_to_bring: class_type.what_to_bring,
};

function found(row: ClassTypeOutput | undefined): ClassTypeOutput {
  if (!row) throw new DomainError('class-type/not-found');
  return row;
}

/** Class types in their configured order; unavailable ones only for admins. */
export async function listClassTypes(db: Db, includeHidden: boolean): Promise<ClassTypeOutput[]> {
  return db
    .select(columns)
    .from(class_type)
    .where(includeHidden ? undefined : eq(class_type.available, true))
    .orderBy(asc(class_type.order), asc(class_type.name), asc(class_type.class_type_id));
}

export async function getClassType(db: Db, id: number, includeHidden: boolean): Promise<ClassTypeOutput> {
  const [row] = await db.select(columns).from(class_type).where(eq(class_type.class_type_id, id)).limit(1);
  return found(row && (includeHidden || row.available) ? row : undefined);
}

export async function createClassType(db: Db, fields: ClassTypeFields): Promise<ClassTypeOutput> {
  const [row] = await missingReferenceAs(
    () => db.insert(class_type).values({ ...definedOnly(fields), name: fields.name }).returning(columns),
    new DomainError('class-category/not-found'),
  );
  return found(row);
}

export async function updateClassType(db: Db, id: number, changes: Partial<ClassTypeFields>): Promise<ClassTypeOutput> {
  const [row] = await missingReferenceAs(
    () =>
      db
        .update(class_type)
        .set({ ...definedOnly(changes), updatedAt: new Date() })
        .where(eq(class_type.class_type_id, id))
        .returning(columns),
    new DomainError('class-category/not-found'),
  );
  return found(row);
}

/** Deletes a class type with no classes; one with classes is 409 'in-use' (mark it unavailable instead). */
export async function removeClassType(db: Db, id: number): Promise<RemovedOutput> {
  return removeOrInUse(async () => {
    const [row] = await db.delete(class_type).where(eq(class_type.class_type_id, id)).returning({ id: class_type.class_type_id });
    return row?.id;
  }, new DomainError('class-type/not-found'));
}
