import { asc, eq, inArray } from 'drizzle-orm';
import { program, video, video_program, video_type } from '@estudio/db/schema/videos';
import { DomainError, type ProgramOutput, type RemovedOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { definedOnly } from '../content/removed.ts';

export interface ProgramFields {
  name: string;
  description?: string | null | undefined;
  image?: string | null | undefined;
  available?: boolean | undefined;
  order?: number | undefined;
  /** Replaces the program's videos, in this order. */
  video_ids?: number[] | undefined;
}

type ProgramRow = typeof program.$inferSelect;

async function toOutputs(db: Db, rows: ProgramRow[]): Promise<ProgramOutput[]> {
  const ids = rows.map((r) => r.program_id);
  const members =
    ids.length === 0
      ? []
      : await db
          .select({ program_id: video_program.program_id, video_id: video_program.video_id })
          .from(video_program)
          .where(inArray(video_program.program_id, ids))
          .orderBy(asc(video_program.order), asc(video_program.video_id));
  return rows.map((r) => ({
    program_id: r.program_id,
    name: r.name,
    description: r.description,
    image: r.image,
    available: r.available,
    order: r.order,
    video_ids: members.filter((m) => m.program_id === r.program_id).map((m) => m.video_id),
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
}

/** Programs in their configured order; unavailable ones only for admins. */
export async function listPrograms(db: Db, includeHidden: boolean): Promise<ProgramOutput[]> {
  const rows = await db
    .select()
    .from(program)
    .where(includeHidden ? undefined : eq(program.available, true))
    .orderBy(asc(program.order), asc(program.name), asc(program.program_id));
  return toOutputs(db, rows);
}

export async function getProgram(db: Db, id: number, includeHidden: boolean): Promise<ProgramOutput> {
  const [row] = await db.select().from(program).where(eq(program.program_id, id)).limit(1);
  if (!row || (!includeHidden && !row.available)) throw new DomainError('program/not-found');
  const [out] = await toOutputs(db, [row]);
  if (!out) throw new DomainError('program/not-found');
  return out;
}

async function replaceVideos(db: Db, programId: number, videoIds: number[]): Promise<void> {
  const unique = [...new Set(videoIds)];
  if (unique.length > 0) {
    const known = await db.select({ id: video.video_id }).from(video).where(inArray(video.video_id, unique));
    if (known.length !== unique.length) throw new DomainError('video/not-found');
  }
  await db.delete(video_program).where(eq(video_program.program_id, programId));
  if (unique.length > 0) {
    await db.insert(video_program).values(unique.map((video_id, i) => ({ program_id: programId, video_id, order: i + 1 })));
  }
}

/** Creates a program and, when given, its ordered videos (one transaction). */
export async function createProgram(db: Db, fields: ProgramFields): Promise<ProgramOutput> {
  const { video_ids: videoIds, ...columns } = fields;
  const id = await db.transaction(async (tx) => {
    const [row] = await tx.insert(program).values({ ...definedOnly(columns), name: fields.name }).returning({ id: program.program_id });
    if (!row) throw new DomainError('program/not-found');
    if (videoIds) await replaceVideos(tx, row.id, videoIds);
    return row.id;
  });
  return getProgram(db, id, true);
}

/** Updates the sent fields; video_ids, when sent, replaces the program's videos. */
export async function updateProgram(db: Db, id: number, changes: Partial<ProgramFields>): Promise<ProgramOutput> {
  const { video_ids: videoIds, ...columns } = changes;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(program)
      .set({ ...definedOnly(columns), updatedAt: new Date() })
      .where(eq(program.program_id, id))
      .returning({ id: program.program_id });
    if (!row) throw new DomainError('program/not-found');
    if (videoIds) await replaceVideos(tx, id, videoIds);
  });
  return getProgram(db, id, true);
}

/** Deleting a program leaves its videos in the library. */
export async function removeProgram(db: Db, id: number): Promise<RemovedOutput> {
  const [row] = await db.delete(program).where(eq(program.program_id, id)).returning({ id: program.program_id });
  if (!row) throw new DomainError('program/not-found');
  return { deleted: true, id: row.id };
}

/** GET /api/video_types in their configured order. */
export async function listVideoTypes(db: Db) {
  return db
    .select({ video_type_id: video_type.video_type_id, name: video_type.name, description: video_type.description, order: video_type.order })
    .from(video_type)
    .orderBy(asc(video_type.order), asc(video_type.name));
}
