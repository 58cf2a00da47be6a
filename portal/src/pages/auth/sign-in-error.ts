import { texts } from '@estudio/core';
import { errorFacts } from '../../api/errors.ts';

/** Spec §8: sign-in errors with their own wording; others show the error text. */
export function signInErrorText(error: unknown): string {
  const { code, message } = errorFacts(error);
  if (code === 'auth/user-not-found') return texts.auth.userNotFound;
  if (code === 'auth/wrong-password') return texts.auth.wrongPassword;
  return message;
}
