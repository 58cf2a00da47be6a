import { afterEach, describe, expect, it, vi } from 'vitest';
import { createStatusStore } from '../src/renderer/src/saved.ts';
import { duringScan, scanQuietIn } from '../src/renderer/src/scanner/scan-activity.ts';

/**
 * The desk's sync status reaches the screens through a store (decision 118):
 * changes that arrive together are drawn once, the first one at once, and
 * none while a scan's verdict is on its way.
 */
type Status = Parameters<ReturnType<typeof createStatusStore>['set']>[0];
const status = (pending: number): Status => ({ pending, online: true, ready: true, syncing: false, lastSyncAt: null, lastError: null, rejections: [], adoptions: [] }) as unknown as Status;

describe('the desk status store', () => {
  afterEach(() => vi.useRealTimers());

  it('shows the first status at once, then the last of a burst once', async () => {
    vi.useFakeTimers();
    const store = createStatusStore();
    const seen: number[] = [];
    store.subscribe(() => seen.push(store.get()?.pending ?? -1));
    store.set(status(0));
    expect(store.get()?.pending).toBe(0);
    store.set(status(1));
    store.set(status(2));
    store.set(status(1));
    // Not yet: the screens still read what they were told.
    expect(store.get()?.pending).toBe(0);
    await vi.advanceTimersByTimeAsync(20);
    expect(store.get()?.pending).toBe(1);
    expect(seen).toEqual([0, 1]);
  });

  it('waits for a scan’s verdict before telling the screens', async () => {
    vi.useFakeTimers();
    const store = createStatusStore();
    store.set(status(0));
    let answer: (value: string) => void = () => undefined;
    const scan = duringScan(() => new Promise<string>((resolve) => (answer = resolve)));
    store.set(status(1));
    await vi.advanceTimersByTimeAsync(100);
    expect(scanQuietIn()).toBeGreaterThan(0);
    expect(store.get()?.pending).toBe(0);
    answer('ok');
    await scan;
    await vi.advanceTimersByTimeAsync(150);
    expect(store.get()?.pending).toBe(0);
    await vi.advanceTimersByTimeAsync(300);
    expect(scanQuietIn()).toBe(0);
    expect(store.get()?.pending).toBe(1);
  });
});
