/**
 * Whether a scan's verdict is on its way to the screen. The desk's live
 * refresh (live.ts) waits for it: refetching today's rosters while a scan is
 * answered made the scan wait behind them in the desk service and the verdict
 * wait behind their render (a verdict took up to 300 ms instead of under 100).
 */
let inFlight = 0;
let lastAnsweredAt = -Infinity;

/** Time after an answer for the verdict to be rendered and painted before the rosters redraw. */
const PAINT_ROOM_MS = 200;

export async function duringScan<T>(work: () => Promise<T>): Promise<T> {
  inFlight += 1;
  try {
    return await work();
  } finally {
    inFlight -= 1;
    lastAnsweredAt = performance.now();
  }
}

/** Milliseconds until no verdict is on its way (0: now is a good time to redraw the rest). */
export function scanQuietIn(): number {
  if (inFlight > 0) return PAINT_ROOM_MS;
  return Math.max(0, lastAnsweredAt + PAINT_ROOM_MS - performance.now());
}
