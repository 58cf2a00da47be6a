import type { AuthTokens, Role } from '@estudio/core';

/** The signed-in staff member, as the renderer sees it (no tokens). */
export interface DeskUser {
  uid: string;
  customer_id: number;
  email: string;
  name: string;
  last_name: string;
  role: Role;
}

/**
 * What the replica's meta keeps so a restarted desk stays signed in, even with the server down.
 * Tokens are null after an offline sign-in (decision 018) until the password is typed again online.
 */
export interface StoredSession extends DeskUser {
  idToken: string | null;
  refreshToken: string | null;
  /** Epoch ms when idToken stops being accepted. */
  expiresAt: number;
}

export const SESSION_KEY = 'desk.session';

export function parseStoredSession(raw: string | null): StoredSession | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredSession>;
    const tokenOk = (t: unknown) => typeof t === 'string' || t === null;
    if (!tokenOk(value.idToken) || !tokenOk(value.refreshToken) || typeof value.uid !== 'string') return null;
    return value as StoredSession;
  } catch {
    return null;
  }
}

export function withTokens(user: DeskUser, tokens: AuthTokens, now = Date.now()): StoredSession {
  return { ...user, idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresAt: now + Number(tokens.expiresIn) * 1000 };
}

/** A session opened offline against the desk's verifier: no tokens until the server takes the password again. */
export function withoutTokens(user: DeskUser): StoredSession {
  return { ...user, idToken: null, refreshToken: null, expiresAt: 0 };
}

/** Where the desk keeps whether it is locked (the uid of who locked it), so a restart stays locked. */
export const LOCK_KEY = 'desk.locked';

export const publicUser = ({ idToken: _i, refreshToken: _r, expiresAt: _e, ...user }: StoredSession): DeskUser => user;
