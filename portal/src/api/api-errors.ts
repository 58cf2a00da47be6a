type Listener = (error: unknown) => void;
const listeners = new Set<Listener>();

/**
 * Every failed query and mutation passes through here (the QueryClient's
 * caches report them), so the session can sign out on an expired or revoked
 * ID token wherever it happens.
 */
export const apiErrors = {
  report(error: unknown): void {
    for (const listener of listeners) listener(error);
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
