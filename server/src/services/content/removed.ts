import { DomainError, type RemovedOutput } from '@estudio/core';
import { pgErrorCode } from '@estudio/db/errors';

/** A delete blocked by a restricting foreign key (classes still point at it) is a 409, not a 500. */
export async function removeOrInUse(remove: () => Promise<number | undefined>, notFound: DomainError): Promise<RemovedOutput> {
  try {
    const id = await remove();
    if (id === undefined) throw notFound;
    return { deleted: true, id };
  } catch (error) {
    // 23503 foreign_key_violation (NO ACTION), 23001 restrict_violation (ON DELETE RESTRICT).
    const code = pgErrorCode(error);
    if (code === '23503' || code === '23001') throw new DomainError('in-use');
    throw error;
  }
}

/** Copies the keys that were sent (undefined means "not sent"; null clears). */
export function definedOnly<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A create or update that points at a record that does not exist (file_id, class_category_id) is that record's 404. */
export async function missingReferenceAs<T>(run: () => Promise<T>, notFound: DomainError): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (pgErrorCode(error) === '23503') throw notFound;
    throw error;
  }
}
