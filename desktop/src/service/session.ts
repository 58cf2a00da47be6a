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

/** What the replica's meta keeps so a restarted desk stays signed in, even with the server down. */
export interface StoredSession extends DeskUser {
  idToken: string;
  refreshToken: string;
  /** Epoch ms when idToken stops being accepted. */
  expiresAt: number;
}

export const SESSION_KEY = 'desk.session';

export function parseStoredSession(raw: string | null): StoredSession | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<StoredSession>;
    if (typeof value.idToken !== 'string' || typeof value.refreshToken !== 'string' || typeof value.uid !== 'string') return null;
    return value as StoredSession;
  } catch {
    return null;
  }
}

export function withTokens(user: DeskUser, tokens: AuthTokens, now = Date.now()): StoredSession {
  return { ...user, idToken: tokens.idToken, refreshToken: tokens.refreshToken, expiresAt: now + Number(tokens.expiresIn) * 1000 };
}

export const publicUser = ({ idToken: _i, refreshToken: _r, expiresAt: _e, ...user }: StoredSession): DeskUser => user;
