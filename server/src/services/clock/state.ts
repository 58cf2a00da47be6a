import { eq } from 'drizzle-orm';
import { scheduled_job } from '@estudio/db/schema/outbox';
import type { Db } from '../../db.ts';

/** A job's own state (its watermark), read in the caller's transaction (decision 021). */
export async function readJobState<T extends Record<string, unknown>>(db: Db, name: string): Promise<Partial<T>> {
  const [row] = await db.select({ state: scheduled_job.state }).from(scheduled_job).where(eq(scheduled_job.name, name));
  return (row?.state ?? {}) as Partial<T>;
}

/** Stores a job's state in the caller's transaction, together with the effects it describes. */
export async function writeJobState(db: Db, name: string, state: Record<string, unknown>): Promise<void> {
  await db.update(scheduled_job).set({ state }).where(eq(scheduled_job.name, name));
}
