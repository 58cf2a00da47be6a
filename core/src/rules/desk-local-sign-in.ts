/**
 * The desk's local sign-in: staff who signed in on this desk
 * before can sign in, unlock it or switch account while the server is away,
 * against a verifier the desk keeps. Guesses are limited per account on the
 * desk: after `freeGuesses` failures each further failure waits, doubling
 * from `firstWaitMs` up to `maxWaitMs`.
 */
export const deskLockout = { freeGuesses: 5, firstWaitMs: 60_000, maxWaitMs: 30 * 60_000 } as const;

/** Failures of one account on one desk since its last success. */
export interface LocalAttempts {
  failures: number;
  /** Epoch ms before which no guess is checked (0: none). */
  lockedUntil: number;
}

export const noAttempts: LocalAttempts = { failures: 0, lockedUntil: 0 };

/** Ms left to wait before the next guess is checked (0: may guess now). */
export function lockoutRemainingMs(attempts: LocalAttempts, now: number): number {
  return Math.max(0, attempts.lockedUntil - now);
}

/** The attempts after one more failure at `now`: the fifth failure and every later one make the next guess wait. */
export function afterFailure(attempts: LocalAttempts, now: number): LocalAttempts {
  const failures = attempts.failures + 1;
  if (failures < deskLockout.freeGuesses) return { failures, lockedUntil: 0 };
  const wait = Math.min(deskLockout.maxWaitMs, deskLockout.firstWaitMs * 2 ** (failures - deskLockout.freeGuesses));
  return { failures, lockedUntil: now + wait };
}

/** A desk PIN: 4 to 6 digits. */
export const deskPinPattern = /^\d{4,6}$/;

/** Whole minutes to wait, rounded up, for the Spanish message ('Espera N minutos'). */
export function waitMinutes(ms: number): number {
  return Math.max(1, Math.ceil(ms / 60_000));
}
