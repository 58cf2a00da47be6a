import type { AuthTokens } from '@estudio/core';
import { AuthError, sessionEndingCodes, type AuthClient } from './auth-client.ts';
import { SESSION_STORAGE_KEY as STORAGE_KEY } from './storage-key.ts';
import { forgetAllPasses } from '../offline/access-passes.ts';

/** Spec: after a successful API response the token is refreshed at most once every 15 s. */
export const REFRESH_THROTTLE_MS = 15_000;
/** A token this close to its expiry is refreshed before it is sent. */
const EXPIRY_MARGIN_MS = 60_000;

export interface StoredSession {
  idToken: string;
  refreshToken: string;
  /** Epoch milliseconds when the ID token expires. */
  expiresAt: number;
  uid: string;
  email: string;
  /**
   * Epoch milliseconds when these tokens were issued. The 15 s between refreshes count across page loads: a page
   * opened right after another refreshed would otherwise refresh at its first answer, and a visitor who moves on
   * while that refresh is in flight loses the rotated token with the page, and the session with it.
   */
  refreshedAt?: number;
}

function readStorage(): StoredSession | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<StoredSession>;
    if (typeof value.idToken !== 'string' || typeof value.refreshToken !== 'string' || typeof value.expiresAt !== 'number') return null;
    return {
      idToken: value.idToken,
      refreshToken: value.refreshToken,
      expiresAt: value.expiresAt,
      uid: value.uid ?? '',
      email: value.email ?? '',
      ...(typeof value.refreshedAt === 'number' ? { refreshedAt: value.refreshedAt } : {}),
    };
  } catch {
    return null;
  }
}

/**
 * Holds the signed-in identity's tokens (persisted in localStorage, shared
 * between tabs) and keeps the ID token fresh: before it expires, and after
 * successful API answers at most once per {@link REFRESH_THROTTLE_MS}.
 * Refreshes are single-flight so a burst of answers causes one refresh.
 */
export class SessionStore {
  private session: StoredSession | null = readStorage();
  private readonly listeners = new Set<() => void>();
  private lastRefreshAt = 0;
  private inflight: Promise<void> | null = null;
  private readonly now: () => number;

  constructor(
    private readonly auth: AuthClient,
    options: { now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
    this.lastRefreshAt = this.session?.refreshedAt ?? 0;
    if (typeof window !== 'undefined') {
      window.addEventListener('storage', (event) => {
        if (event.key !== STORAGE_KEY) return;
        this.session = readStorage();
        this.emit();
      });
    }
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly getSnapshot = (): StoredSession | null => this.session;

  get authClient(): AuthClient {
    return this.auth;
  }

  /** Starts a session from a provider's answer (sign-in or sign-up). */
  start(tokens: AuthTokens): void {
    this.session = this.fromTokens(tokens, null);
    this.lastRefreshAt = this.now();
    this.persist();
  }

  signOut(): void {
    if (!this.session) return;
    // The access codes kept for the offline account area are this person's: none stays after her.
    forgetAllPasses();
    this.session = null;
    this.inflight = null;
    this.persist();
  }

  /** The ID token to send, refreshed first when it is about to expire. */
  async idToken(): Promise<string | null> {
    const current = this.session;
    if (!current) return null;
    if (current.expiresAt - this.now() < EXPIRY_MARGIN_MS) await this.refresh();
    return this.session?.idToken ?? null;
  }

  /** Called after every successful API answer. */
  noteApiSuccess(): void {
    if (!this.session || this.now() - this.lastRefreshAt < REFRESH_THROTTLE_MS) return;
    void this.refresh();
  }

  /** Refreshes the ID token now (single-flight). A dead refresh token ends the session. */
  refresh(): Promise<void> {
    if (this.inflight) return this.inflight;
    const current = this.session;
    if (!current) return Promise.resolve();
    this.lastRefreshAt = this.now();
    const run = this.auth
      .refresh(current.refreshToken)
      .then((tokens) => {
        // Ignore the answer if the user signed out or switched accounts meanwhile.
        if (this.session?.refreshToken !== current.refreshToken) return;
        this.session = this.fromTokens(tokens, current);
        this.persist();
      })
      .catch((error: unknown) => {
        // Network trouble keeps the session; the next answer tries again.
        if (!(error instanceof AuthError) || !sessionEndingCodes.has(error.code) || this.session !== current) return;
        // Refresh tokens rotate: another tab may have used this one first and stored its successor.
        const stored = readStorage();
        if (stored && stored.refreshToken !== current.refreshToken) {
          this.session = stored;
          this.emit();
          return;
        }
        this.signOut();
      })
      .finally(() => {
        this.inflight = null;
      });
    this.inflight = run;
    return run;
  }

  private fromTokens(tokens: AuthTokens, previous: StoredSession | null): StoredSession {
    const seconds = Number.parseInt(tokens.expiresIn, 10);
    return {
      idToken: tokens.idToken,
      refreshToken: tokens.refreshToken,
      expiresAt: this.now() + (Number.isFinite(seconds) ? seconds : 3600) * 1000,
      uid: tokens.localId || previous?.uid || '',
      email: tokens.email || previous?.email || '',
      refreshedAt: this.now(),
    };
  }

  private persist(): void {
    try {
      if (this.session) localStorage.setItem(STORAGE_KEY, JSON.stringify(this.session));
      else localStorage.removeItem(STORAGE_KEY);
    } catch {
      // Private mode without storage: the session lives for this tab only.
    }
    this.emit();
  }

  private emit(): void {
    for (const listener of this.listeners) listener();
  }
}
