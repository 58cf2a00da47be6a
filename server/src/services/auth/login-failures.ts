/**
 * Failed sign-ins per account, to stop password guessing against one e-mail
 * from many addresses (the per-IP limiter cannot see that). Kept in memory:
 * with several server processes each counts its own failures, so the
 * effective limit is max × processes — still a hard ceiling for guessing.
 */
export interface LoginFailureStore {
  /** True when the account has reached the limit inside the window. */
  isLocked(account: string): boolean;
  record(account: string): void;
  clear(account: string): void;
}

export function createLoginFailureStore(max: number, windowMs: number, now: () => number = Date.now): LoginFailureStore {
  const failures = new Map<string, number[]>();
  const recent = (account: string) => {
    const since = now() - windowMs;
    const list = (failures.get(account) ?? []).filter((t) => t > since);
    if (list.length) failures.set(account, list);
    else failures.delete(account);
    return list;
  };
  return {
    isLocked: (account) => recent(account).length >= max,
    record(account) {
      const list = recent(account);
      list.push(now());
      failures.set(account, list);
      // Bound memory under a spray of random e-mails: forget the oldest accounts.
      if (failures.size > 50_000) {
        const oldest = failures.keys().next().value;
        if (oldest !== undefined) failures.delete(oldest);
      }
    },
    clear: (account) => void failures.delete(account),
  };
}
