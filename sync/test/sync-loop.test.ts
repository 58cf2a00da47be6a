import { DomainError, type PullOutput } from '@estudio/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openReplica, type ClientReplica } from '../src/client/replica.ts';
import { createSyncClient } from '../src/client/sync-client.ts';
import type { SyncServerLink } from '../src/client/types.ts';
import { eventually } from './fixtures.ts';

/**
 * The loop's timing rules against a scripted server: pokes are coalesced
 * (one pull in flight, one more queued), and a server that cannot be reached
 * is retried with exponentially growing, capped delays while the desk reports
 * itself offline.
 */
let replica: ClientReplica;
beforeAll(async () => {
  replica = await openReplica({ dataDir: 'memory://' });
  // An already synced replica: the loop goes straight to push and pull.
  await replica.setMeta('sync.ready', 'true');
  await replica.setMeta('sync.cursor', '1:1');
});
afterAll(async () => {
  await replica?.close();
});

const emptyPage: PullOutput = { cursor: '1:1', changes: [], more: false, held: false, lastMutationId: 0 };

interface ScriptedLink extends SyncServerLink {
  poke(): void;
  dropChannel(): void;
}

function scriptedLink(pull: SyncServerLink['pull']): ScriptedLink {
  let handlers: { onPoke(): void; onError(error: unknown): void } | null = null;
  const refuse = () => Promise.reject(new Error('not used by these tests'));
  return {
    pull,
    push: refuse,
    position: refuse,
    snapshot: refuse,
    subscribePoke(_input, h) {
      handlers = h;
      queueMicrotask(() => h.onPoke());
      return () => {
        handlers = null;
      };
    },
    poke: () => handlers?.onPoke(),
    dropChannel: () => handlers?.onError(new TypeError('fetch failed')),
  };
}

describe('the sync loop', () => {
  it('coalesces pokes: one pull at a time, and one more after it for everything poked meanwhile', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let pulls = 0;
    let release: (() => void) | null = null;
    let hold = true;
    const link = scriptedLink(async () => {
      pulls += 1;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      if (hold) {
        await new Promise<void>((resolve) => {
          release = resolve;
        });
      }
      inFlight -= 1;
      return emptyPage;
    });
    const client = createSyncClient({ replica, link, clientId: crypto.randomUUID() });
    const starting = client.start();
    await eventually(() => release !== null, 5_000, 'the first pull');
    for (let i = 0; i < 10; i += 1) link.poke();
    const first = release as unknown as () => void;
    release = null;
    first();
    await eventually(() => release !== null, 5_000, 'the queued pull');
    hold = false;
    (release as unknown as () => void)();
    await starting;
    await client.syncNow().catch(() => {});
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(maxInFlight).toBe(1);
    // The first pull, one for the ten pokes, and syncNow's own.
    expect(pulls).toBeLessThanOrEqual(3);
    expect(client.status()).toMatchObject({ online: true, syncing: false, lastError: null });
    await client.stop();
  });

  it('pulls again, without another poke, while committed changes wait behind an older transaction', async () => {
    let pulls = 0;
    // The server's horizon is held back for three pulls, then the changes come through.
    const link = scriptedLink(async () => {
      pulls += 1;
      return { ...emptyPage, held: pulls <= 3 };
    });
    // The loop's timers run on a clock the test moves, so "no more pulls" is checked after every timer it left has fired, however late.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const client = createSyncClient({ replica, link, clientId: crypto.randomUUID() });
      await client.start();
      // Held pages are pulled again after 50, 100, 200 ms... until one is not held.
      for (let waited = 0; pulls < 4 && waited < 10_000; waited += 50) await vi.advanceTimersByTimeAsync(50);
      expect(pulls).toBe(4);
      // Once nothing is held the desk waits for the next poke instead of polling: a minute on, past every delay the loop
      // knows (held pages 2 s, retries 10 s), it has not pulled again and has nothing left scheduled.
      await vi.advanceTimersByTimeAsync(60_000);
      expect(pulls).toBe(4);
      expect(vi.getTimerCount()).toBe(0);
      link.poke();
      await vi.waitFor(() => expect(pulls).toBe(5));
      await client.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('a server that answers with errors: retried after growing delays up to the cap', async () => {
    const at: number[] = [];
    const link = scriptedLink(async () => {
      at.push(performance.now());
      throw new DomainError('busy');
    });
    // Jitter at its top: each delay is exactly the backoff step, so the steps can be read off the calls.
    const client = createSyncClient({ replica, link, clientId: crypto.randomUUID(), backoff: { initialMs: 40, maxMs: 320 }, random: () => 1 });
    await client.start();
    await eventually(() => at.length >= 7, 10_000, 'seven attempts');
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    const steps = [40, 80, 160, 320, 320, 320];
    // The pokes of the first connection may add an early attempt; from the third gap on, only the backoff drives the calls.
    for (const [i, gap] of gaps.slice(2, 6).entries()) expect(gap).toBeGreaterThanOrEqual(steps[i + 2]! - 5);
    // Capped: without the cap the sixth wait would be 1,280 ms. The bound leaves room for a loaded machine's late timers.
    expect(gaps[5]).toBeLessThan(1_100);
    await client.stop();
  });

  it('an unreachable server: offline with a Spanish reason, asked again every probe (no growing delay), online again as soon as it answers', async () => {
    const at: number[] = [];
    let reachable = false;
    const link = scriptedLink(async () => {
      at.push(performance.now());
      if (!reachable) throw new TypeError('fetch failed');
      return emptyPage;
    });
    const client = createSyncClient({ replica, link, clientId: crypto.randomUUID(), backoff: { initialMs: 40, maxMs: 5_000 }, probeMs: 100, random: () => 1 });
    await client.start();
    expect(client.status()).toMatchObject({ online: false, lastError: 'Sin conexión con el servidor; se reintentará en unos segundos.' });
    await eventually(() => at.length >= 8, 10_000, 'eight attempts');
    const gaps = at.slice(1).map((t, i) => t - at[i]!);
    // Every attempt one probe after the last: a doubling delay would be at 2,560 ms by the seventh.
    for (const gap of gaps.slice(2, 7)) {
      expect(gap).toBeGreaterThanOrEqual(95);
      expect(gap).toBeLessThan(800);
    }
    reachable = true;
    await eventually(() => client.status().online && client.status().lastError === null, 5_000, 'the desk to be online again');
    // A dropped poke channel is a connection problem too: offline until it reopens.
    const seen: boolean[] = [];
    client.onChange((e) => seen.push(e.status.online));
    link.dropChannel();
    await eventually(() => seen.includes(false), 5_000, 'the desk to report the drop');
    await eventually(() => client.status().online, 5_000, 'the channel to reopen');
    expect(seen.at(-1)).toBe(true);
    await client.stop();
  });
});
