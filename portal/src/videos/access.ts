import { texts } from '@estudio/core';
import { errorFacts } from '../api/errors.ts';

/** Spec §8: a 412 on a video list or a video means an online membership is needed. */
export function isPurchaseNeeded(error: unknown): boolean {
  if (!error) return false;
  const facts = errorFacts(error);
  return facts.status === 412 || facts.message === texts.videos.purchaseNeeded;
}

/** Spec §8: a 404 on a single video. */
export function isVideoNotFound(error: unknown): boolean {
  if (!error) return false;
  const facts = errorFacts(error);
  return facts.status === 404 || facts.message === texts.videos.notFound;
}

/** The coach as the studio calls them: the nick name when there is one. */
export function coachName(instructor: { name: string; last_name: string | null; nick_name: string | null } | null): string {
  if (!instructor) return '';
  return instructor.nick_name?.trim() || [instructor.name, instructor.last_name].filter(Boolean).join(' ');
}

/** What the library hands the player page: the way back, with the filters it had. */
export interface VideoPageState {
  back: string;
}

/** The library address to go back to: the one the customer came from, when it was the library. */
export function backToLibrary(state: unknown): string {
  const back = (state as Partial<VideoPageState> | null)?.back;
  return typeof back === 'string' && back.startsWith('/mystudio/online') ? back : '/mystudio/online';
}
