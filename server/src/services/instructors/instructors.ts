import { and, asc, count, eq, inArray, isNull, ne, sql } from 'drizzle-orm';
import { instructor } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { isUniqueViolation } from '@estudio/db/errors';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import { DomainError, instructorRemoval, yearlessBirthdate, type InstructorOutput, type RemovalVerdict, type RemovedOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { definedOnly, missingReferenceAs } from '../content/removed.ts';
import { fileSummaries } from '../files/file-output.ts';
import { assertFilesUsable } from '../files/file-use.ts';

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
  /** Cuenta del coach (decision 045): the account's e-mail, null to unlink, absent to leave it. */
  customer_email?: string | null | undefined;
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
  // The account a coach signs in with is the studio's business, not the public site's.
  const linked = reader.staff ? rows.flatMap((r) => (r.customer_id === null ? [] : [r.customer_id])) : [];
  const emails = new Map(
    linked.length ? (await db.select({ id: customer.customer_id, email: customer.email }).from(customer).where(inArray(customer.customer_id, linked))).map((c) => [c.id, c.email]) : [],
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
    ...(reader.staff ? { account_email: r.customer_id === null ? null : (emails.get(r.customer_id) ?? null) } : {}),
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

/**
 * The account behind 'Cuenta del coach' (decision 045): undefined leaves the
 * link as it is, null unlinks, an e-mail links that account. An account
 * already linked to another coach is 409 'instructor/account-taken' (checked
 * here for the message; the unique index on instructor.customer_id decides a
 * race); an e-mail with no account is 404.
 */
async function accountOf(db: Db, email: string | null | undefined, instructorId: number | null): Promise<{ customer_id?: number | null }> {
  if (email === undefined) return {};
  if (email === null) return { customer_id: null };
  const [account] = await db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, email.trim().toLowerCase())).limit(1);
  if (!account) throw new DomainError('instructor/account-not-found');
  const [other] = await db
    .select({ id: instructor.instructor_id })
    .from(instructor)
    .where(and(eq(instructor.customer_id, account.id), instructorId === null ? undefined : ne(instructor.instructor_id, instructorId)))
    .limit(1);
  if (other) throw new DomainError('instructor/account-taken');
  return { customer_id: account.id };
}

async function linkedWrite<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await missingReferenceAs(run, new DomainError('file/not-found'));
  } catch (error) {
    if (isUniqueViolation(error, 'instructor_customer_id_key')) throw new DomainError('instructor/account-taken');
    throw error;
  }
}

export async function createInstructor(db: Db, fields: InstructorFields): Promise<InstructorOutput> {
  const { customer_email, ...rest } = fields;
  const account = await accountOf(db, customer_email, null);
  await assertFilesUsable(db, [rest.file_id], { for: 'studio' });
  const [row] = await linkedWrite(() =>
    db
      .insert(instructor)
      .values({ ...definedOnly(rest), ...account, name: fields.name, last_name: fields.last_name ?? '' })
      .returning(),
  );
  return one(db, row);
}

export async function updateInstructor(db: Db, id: number, changes: Partial<InstructorFields>): Promise<InstructorOutput> {
  const { customer_email, ...rest } = changes;
  const account = await accountOf(db, customer_email, id);
  await assertFilesUsable(db, [rest.file_id], { for: 'studio' });
  const [row] = await linkedWrite(() =>
    db
      .update(instructor)
      .set({ ...definedOnly(rest), ...account, updatedAt: new Date() })
      .where(and(eq(instructor.instructor_id, id), isNull(instructor.deletedAt)))
      .returning(),
  );
  return one(db, row);
}

/**
 * What deleting the coach would do (core's instructorRemoval): refused while
 * they teach a class still to come (not cancelled, not yet over); otherwise
 * hidden and marked deleted. `lock` takes the coach's row first, for the
 * delete itself.
 */
export async function instructorRemovalVerdict(db: Db, id: number, lock = false): Promise<RemovalVerdict> {
  const rows = db.select({ id: instructor.instructor_id }).from(instructor).where(and(eq(instructor.instructor_id, id), isNull(instructor.deletedAt)));
  const [row] = await (lock ? rows.for('update') : rows);
  if (!row) throw new DomainError('instructor/not-found');
  // A class under way still counts as to come: it ends at class_date + duration.
  const [classes] = await db
    .select({
      all: count(),
      upcoming: sql<number>`count(*) filter (where ${single_class.cancelledAt} is null and ${single_class.class_date} + make_interval(mins => ${single_class.duration_minutes}) > ${new Date().toISOString()}::timestamptz)`,
    })
    .from(single_class_instructor)
    .innerJoin(single_class, eq(single_class.single_class_id, single_class_instructor.single_class_id))
    .where(eq(single_class_instructor.instructor_id, id));
  const upcoming = Number(classes?.upcoming ?? 0);
  return instructorRemoval(upcoming, Number(classes?.all ?? 0) - upcoming);
}

/**
 * Soft delete: past classes keep their coach (class_instructor would cascade
 * on a hard delete and rewrite history). A coach who teaches a class still to
 * come is refused with 409 'instructor/in-use' saying how many:
 * their customers booked with them, and the classes would show a coach the
 * studio no longer lists. The admin reassigns or cancels those classes, or
 * unmarks the coach's «Disponible» to take them off the site.
 */
export async function removeInstructor(db: Db, id: number): Promise<RemovedOutput> {
  return db.transaction(async (tx) => {
    const verdict = await instructorRemovalVerdict(tx, id, true);
    if (verdict.outcome === 'refuse') throw new DomainError('instructor/in-use', verdict.message);
    const now = new Date();
    await tx
      .update(instructor)
      .set({ deletedAt: now, available: false, show_on_home: false, updatedAt: now })
      .where(eq(instructor.instructor_id, id));
    return { deleted: true as const, id };
  });
}

/**
 * Where a coach's photo is served, by its file id: only files that are a
 * coach's photo (public on the schedule already), so an id names no other
 * file. Null when the file is no coach's photo.
 */
export async function coachPhotoSrc(db: Db, fileId: number): Promise<string | null> {
  const files = await fileSummaries(db, [fileId]);
  const [coach] = await db
    .select({ id: instructor.instructor_id })
    .from(instructor)
    .where(and(eq(instructor.file_id, fileId), isNull(instructor.deletedAt)))
    .limit(1);
  return coach ? (files.get(fileId)?.src ?? null) : null;
}
