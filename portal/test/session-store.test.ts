import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuthTokens } from '@estudio/core';
import { AuthError, type AuthClient } from '../src/session/auth-client.ts';
import { REFRESH_THROTTLE_MS, SessionStore } from '../src/session/session-store.ts';

// The store persists to localStorage; node has none, so a Map stands in.
const storage = new Map<string, string>();
vi.stubGlobal('localStorage', {
  getItem: (key: string) => storage.get(key) ?? null,
  setItem: (key: string, value: string) => void storage.set(key, value),
  removeItem: (key: string) => void storage.delete(key),
});

let counter = 0;
const tokens = (expiresIn = '3600'): AuthTokens => {
  counter += 1;
  return { idToken: `id-${counter}`, refreshToken: `refresh-${counter}`, expiresIn, localId: 'uid-mariana', email: 'cliente@estudio.demo' };
};

function fakeAuth(refresh: AuthClient['refresh']): AuthClient {
  return {
    provider: 'local',
    signIn: async () => tokens(),
    signUp: async () => tokens(),
    refresh,
    sendPasswordReset: async () => ({ delivery: 'email' }),
  };
}

describe('SessionStore', () => {
  let now: number;
  beforeEach(() => {
    storage.clear();
    now = 1_000_000;
  });

  it('counts the 15 s across page loads: a page opened right after a refresh does not refresh at its first answer', async () => {
    const refresh = vi.fn(async () => tokens());
    new SessionStore(fakeAuth(refresh), { now: () => now }).start(tokens());
    // The next page, 2 s later: a store of its own on the same storage.
    now += 2_000;
    const nextPage = new SessionStore(fakeAuth(refresh), { now: () => now });
    nextPage.noteApiSuccess();
    expect(refresh).not.toHaveBeenCalled();
    now += REFRESH_THROTTLE_MS;
    nextPage.noteApiSuccess();
    await nextPage.refresh();
    expect(refresh).toHaveBeenCalledTimes(1);
  });

  it('refreshes after a successful answer at most once every 15 s', async () => {
    const refresh = vi.fn(async () => tokens());
    const store = new SessionStore(fakeAuth(refresh), { now: () => now });
    store.start(tokens());

    store.noteApiSuccess();
    expect(refresh).not.toHaveBeenCalled();

    now += REFRESH_THROTTLE_MS;
    store.noteApiSuccess();
    store.noteApiSuccess();
    await store.refresh();
    expect(refresh).toHaveBeenCalledTimes(1);

    now += REFRESH_THROTTLE_MS - 1;
    store.noteApiSuccess();
    expect(refresh).toHaveBeenCalledTimes(1);
    now += 1;
    store.noteApiSuccess();
    expect(refresh).toHaveBeenCalledTimes(2);
  });

  it('refreshes a token about to expire before sending it', async () => {
    const store = new SessionStore(fakeAuth(async () => tokens()), { now: () => now });
    store.start(tokens('30'));
    const first = store.getSnapshot()?.idToken;
    const sent = await store.idToken();
    expect(sent).not.toBe(first);
    expect(store.getSnapshot()?.idToken).toBe(sent);
  });

  it('persists the session and restores it', () => {
    const store = new SessionStore(fakeAuth(async () => tokens()), { now: () => now });
    store.start(tokens());
    const again = new SessionStore(fakeAuth(async () => tokens()), { now: () => now });
    expect(again.getSnapshot()).toEqual(store.getSnapshot());
    again.signOut();
    expect(new SessionStore(fakeAuth(async () => tokens())).getSnapshot()).toBeNull();
  });

  it('a refused refresh token signs out; a network failure does not', async () => {
    let failure: Error = new Error('fetch failed');
    const store = new SessionStore(fakeAuth(async () => { throw failure; }), { now: () => now });
    store.start(tokens());
    await store.refresh();
    expect(store.getSnapshot()).not.toBeNull();
    failure = new AuthError('auth/invalid-refresh-token', 'Tu sesión no es válida.');
    await store.refresh();
    expect(store.getSnapshot()).toBeNull();
  });
});

describe('SessionStore with several tabs', () => {
  it('adopts the token another tab stored instead of signing out when its own was rotated away', async () => {
    storage.clear();
    const now = 5_000_000;
    const tabA = new SessionStore(fakeAuth(async () => tokens()), { now: () => now });
    tabA.start(tokens());
    const tabB = new SessionStore(
      fakeAuth(async () => {
        throw new AuthError('auth/invalid-refresh-token', 'Tu sesión no es válida.');
      }),
      { now: () => now },
    );
    await tabA.refresh();
    await tabB.refresh();
    expect(tabB.getSnapshot()?.refreshToken).toBe(tabA.getSnapshot()?.refreshToken);
  });
});
