import { describe, expect, it } from 'vitest';
import { afterFailure, deskLockout, deskPinPattern, lockoutRemainingMs, noAttempts, waitMinutes } from '../../src/rules/desk-local-sign-in.ts';

describe('desk local sign-in lockout', () => {
  it('lets four wrong guesses through, then makes each further guess wait, doubling up to the cap', () => {
    let attempts = noAttempts;
    const now = 1_000_000;
    for (let i = 1; i < deskLockout.freeGuesses; i++) {
      attempts = afterFailure(attempts, now);
      expect(lockoutRemainingMs(attempts, now)).toBe(0);
    }
    attempts = afterFailure(attempts, now);
    expect(attempts.failures).toBe(5);
    expect(lockoutRemainingMs(attempts, now)).toBe(60_000);
    expect(lockoutRemainingMs(attempts, now + 60_000)).toBe(0);
    attempts = afterFailure(attempts, now + 60_000);
    expect(lockoutRemainingMs(attempts, now + 60_000)).toBe(120_000);
    for (let i = 0; i < 10; i++) attempts = afterFailure(attempts, now);
    expect(lockoutRemainingMs(attempts, now)).toBe(deskLockout.maxWaitMs);
  });

  it('takes PINs of 4 to 6 digits only and rounds waits up to whole minutes', () => {
    expect(['1234', '123456'].every((p) => deskPinPattern.test(p))).toBe(true);
    expect(['123', '1234567', '12a4', ' 1234'].some((p) => deskPinPattern.test(p))).toBe(false);
    expect(waitMinutes(1)).toBe(1);
    expect(waitMinutes(60_001)).toBe(2);
  });
});
