// Load generator of bench/booking.ts, in a worker thread so the HTTP client
// does not share the server's event loop: POST /api/class_reservations once per
// token, at most `concurrency` in flight. Answers 'booked', 'full' or 'other' per token.
import { parentPort, workerData } from 'node:worker_threads';

const { base, tokens, classId, concurrency } = workerData;
const outcomes = new Array(tokens.length);
let next = 0;

async function worker() {
  for (let i = next++; i < tokens.length; i = next++) {
    const res = await fetch(`${base}/api/class_reservations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${tokens[i]}`, 'content-type': 'application/json' },
      body: JSON.stringify({ single_class_id: classId }),
    });
    const body = await res.json();
    outcomes[i] = res.status === 200 ? 'booked' : body.code === 'booking/class-full' ? 'full' : 'other';
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: Math.min(concurrency, tokens.length) }, worker));
parentPort.postMessage({ outcomes, seconds: (performance.now() - started) / 1000 });
