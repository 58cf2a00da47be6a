// Load generator of bench/booking.ts, in a worker thread so the HTTP client
// does not share the server's event loop: POST /api/class_reservations once per
// token, at most `concurrency` in flight. Answers 'booked', 'full' or 'other' per token.
//
// node:http over keep-alive sockets (one per request in flight), not fetch: the
// client shares the server's two cores, and undici's fetch spent about 0.9 ms of
// CPU per request (a Request, an AbortSignal and a stream per call), as much as
// the server's whole answer to a refusal. The postgres.js path has no client at
// all; a rush comes from phones, not from the server's machine (decision 052).
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { base, tokens, classId, concurrency } = workerData;
const outcomes = new Array(tokens.length);
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
const url = new URL('/api/class_reservations', base);
const body = JSON.stringify({ single_class_id: classId });
let next = 0;

/** One POST; resolves with the status and the parsed JSON body. */
function post(token) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        const chunks = [];
        res.on('data', (chunk) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function worker() {
  for (let i = next++; i < tokens.length; i = next++) {
    const res = await post(tokens[i]);
    outcomes[i] = res.status === 200 ? 'booked' : res.body.code === 'booking/class-full' ? 'full' : 'other';
  }
}

const started = performance.now();
await Promise.all(Array.from({ length: Math.min(concurrency, tokens.length) }, worker));
const seconds = (performance.now() - started) / 1000;
agent.destroy();
parentPort.postMessage({ outcomes, seconds });
