import { DomainError, type SingleClassOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { loadSingleClassOutput } from './single-class-output.ts';

/** One class, with the caller's own reservations when `customerId` is given. Throws class/not-found. */
export async function getSingleClass(db: Db, id: number, customerId: number | null): Promise<SingleClassOutput> {
  const found = await loadSingleClassOutput(db, id, customerId);
  if (!found) throw new DomainError('class/not-found');
  return found;
}
