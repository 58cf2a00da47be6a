import { SESSION_STORAGE_KEY } from '../session/storage-key.ts';

/**
 * The customer's next classes with their access codes, kept in the browser's
 * storage while she is online so the account area shows them at the studio's
 * door without a connection (decision 106). One record per signed-in identity;
 * signing out removes every one of them.
 */
export interface AccessPass {
  class_reservation_id: number;
  access_code: string;
  class_name: string;
  class_date: string;
  location: string;
  spot: number | null;
  guest: string | null;
  guest_spot: number | null;
}

export interface KeptPasses {
  /** When they were read from the server (ISO). */
  savedAt: string;
  passes: AccessPass[];
}

const prefix = 'estudio.pases.';
/** How many of the next classes are kept: enough for a week of mornings, little enough to be nobody's history. */
export const keptPassCount = 3;

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

/** The signed-in identity's uid, read from the stored session (the account's data may not load offline). */
export function storedSessionUid(): string | null {
  try {
    const raw = storage()?.getItem(SESSION_STORAGE_KEY);
    const uid = raw ? (JSON.parse(raw) as { uid?: unknown }).uid : null;
    return typeof uid === 'string' && uid ? uid : null;
  } catch {
    return null;
  }
}

export function readPasses(uid: string, now: Date = new Date()): KeptPasses | null {
  try {
    const raw = storage()?.getItem(prefix + uid);
    if (!raw) return null;
    const kept = JSON.parse(raw) as KeptPasses;
    // A class is shown until an hour after its start (she may arrive late); older ones are gone.
    const passes = kept.passes.filter((p) => Date.parse(p.class_date) + 3_600_000 > now.getTime());
    return { savedAt: kept.savedAt, passes };
  } catch {
    return null;
  }
}

export function writePasses(uid: string, passes: readonly AccessPass[], now: Date = new Date()): void {
  try {
    const next = [...passes].sort((a, b) => Date.parse(a.class_date) - Date.parse(b.class_date)).slice(0, keptPassCount);
    storage()?.setItem(prefix + uid, JSON.stringify({ savedAt: now.toISOString(), passes: next } satisfies KeptPasses));
  } catch {
    // Private mode without storage: nothing kept offline.
  }
}

/** At sign-out: no access code stays in the browser. */
export function forgetAllPasses(): void {
  const s = storage();
  if (!s) return;
  try {
    for (const key of Object.keys(s)) if (key.startsWith(prefix)) s.removeItem(key);
  } catch {
    // nothing kept
  }
}
