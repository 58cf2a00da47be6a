import { createTRPCClient } from '@trpc/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deskLinks } from '../src/renderer/src/trpc.ts';
import type { DeskRouter } from '../src/service/router.ts';

/**
 * How the desk's screens reach its service. A scan must leave the moment it is
 * typed: a batched request waits for a timer, which the render of the click
 * itself pushed back, and would carry the scan together with the reads around it.
 */
describe('the desk links', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('an action leaves at once on its own request; reads still go together, a moment later', async () => {
    const sent: string[] = [];
    vi.stubGlobal('fetch', async (url: string | URL, init?: RequestInit) => {
      sent.push(`${init?.method ?? 'GET'} ${String(url)}`);
      const batched = String(url).includes('batch=1');
      const one = { result: { data: null } };
      return new Response(JSON.stringify(batched ? [one, one] : one), { headers: { 'content-type': 'application/json' } });
    });
    const client = createTRPCClient<DeskRouter>({ links: deskLinks() });
    const reads = Promise.all([client.session.get.query(), client.status.get.query()]);
    const scan = client.checkIn.scan.mutate({ code: 'ABC123' });
    // Before any timer has run: only promise callbacks, as before the browser's next task.
    for (let i = 0; i < 50 && sent.length === 0; i++) await Promise.resolve();
    expect(sent).toEqual(['POST /trpc/checkIn.scan']);

    await Promise.all([reads, scan]);
    expect(sent).toHaveLength(2);
    expect(sent[1]).toMatch(/^GET \/trpc\/session\.get,status\.get\?batch=1/);
  });
});
