import { and, asc, eq, isNull } from 'drizzle-orm';
import { instructor } from '@estudio/db/schema/catalogue';
import { DomainError, yearlessBirthdate, type InstructorOutput, type RemovedOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { definedOnly, missingReferenceAs } from '../content/removed.ts';
import { fileSummaries } from '../files/file-output.ts';

type InstructorRow = typeof instructor.$inferSelect;

export interface InstructorFields {
  name: string;
  last_name?: string | undefined;
  nick_name?: string | null | undefined;
  quote?: string | null | undefined;
  short_bio?: string | null | undefined;
  instagram?: string | null | undefined;
  birthdate?: string | null | undefined;
  music_type?: string | null | undefined;
  file_id?: number | null | undefined;
  show_on_home?: boolean | undefined;
  available?: boolean | undefined;
  order?: number | undefined;
}

/**
 * Who reads the coaches: the public site (visitors and customers) sees a
 * birthday as day and month only; staff and admins, who edit it, the date.
 */
export interface InstructorReader {
  staff: boolean;
}
const staffReader: InstructorReader = { staff: true };

async function toOutputs(db: Db, rows: InstructorRow[], reader: InstructorReader): Promise<InstructorOutput[]> {
  const files = await fileSummaries(
    db,
    rows.map((r) => r.file_id),
  );
  return rows.map((r) => ({
    instructor_id: r.instructor_id,
    name: r.name,
    last_name: r.last_name,
    nick_name: r.nick_name,
    quote: r.quote,
    short_bio: r.short_bio,
    instagram: r.instagram,
    birthdate: reader.staff ? r.birthdate : yearlessBirthdate(r.birthdate),
    music_type: r.music_type,
    file_id: r.file_id,
    file: r.file_id === null ? null : (files.get(r.file_id) ?? null),
    show_on_home: r.show_on_home,
    available: r.available,
    order: r.order,
  }));
}

async function one(db: Db, row: InstructorRow | undefined, reader: InstructorReader = staffReader): Promise<InstructorOutput> {
  if (!row) throw new DomainError('instructor/not-found');
  const [output] = await toOutputs(db, [row], reader);
  if (!output) throw new Error('instructor output missing');
  return output;
}

const order = [asc(instructor.order), asc(instructor.name), asc(instructor.instructor_id)];

/** Every coach not deleted; unavailable ones only for admins. */
export async function listInstructors(db: Db, includeHidden: boolean, reader: InstructorReader): Promise<InstructorOutput[]> {
  const rows = await db
    .select()
    .from(instructor)
    .where(and(isNull(instructor.deletedAt), includeHidden ? undefined : eq(instructor.available, true)))
    .orderBy(...order);
  return toOutputs(db, rows, reader);
}

/** The landing's Coaches section: available coaches marked show_on_home, with photo, bio and quote. */
export async function listHomeInstructors(db: Db): Promise<InstructorOutput[]> {
  const rows = await db
    .select()
    .from(instructor)
    .where(and(isNull(instructor.deletedAt), eq(instructor.available, true), eq(instructor.show_on_home, true)))
    .orderBy(...order);
  return toOutputs(db, rows, { staff: false });
}

/** One coach; deleted (and, for non-admins, unavailable) coaches are 404. */
export async function getInstructor(db: Db, id: number, includeHidden: boolean, reader: InstructorReader): Promise<InstructorOutput> {
  const [row] = await db
    .select()
    .from(instructor)
    .where(and(eq(instructor.instructor_id, id), isNull(instructor.deletedAt)))
    .limit(1);
  return one(db, row && (includeHidden || row.available) ? row : undefined, reader);
}

export async function createInstructor(db: Db, fields: InstructorFields): Promise<InstructorOutput> {
  const [row] = await missingReferenceAs(
    () =>
      db
        .insert(instructor)
        .values({ ...definedOnly(fields), name: fields.name, last_name: fields.last_name ?? '' })
        .returning(),
    new DomainError('file/not-found'),
  );
  return one(db, row);
}

export async function updateInstructor(db: Db, id: number, changes: Partial<InstructorFields>): Promise<InstructorOutput> {
  const [row] = await missingReferenceAs(
    () =>
      db
        .update(instructor)
        .set({ ...definedOnly(changes), updatedAt: new Date() })
        .where(and(eq(instructor.instructor_id, id), isNull(instructor.deletedAt)))
        .returning(),
    new DomainError('file/not-found'),
  );
  return one(db, row);
}

/**
 * Soft delete: past classes keep their coach (class_instructor would cascade
 * on a hard delete and rewrite history).
 */
export async function removeInstructor(db: Db, id: number): Promise<RemovedOutput> {
  const [row] = await db
    .update(instructor)
    .set({ deletedAt: new Date(), available: false, show_on_home: false, updatedAt: new Date() })
    .where(and(eq(instructor.instructor_id, id), isNull(instructor.deletedAt)))
    .returning({ id: instructor.instructor_id });
  if (!row) throw new DomainError('instructor/not-found');
  return { deleted: true, id: row.id };
}
