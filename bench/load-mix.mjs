// Load generator of bench/load.ts, in a worker thread so the HTTP client does
// not share an event loop with anything else: one autocannon instance per kind
// of request, all running at once for `duration` seconds, with connections
// split by the weight of each kind. Signed-in requests take the next token of
// a rotating list; a booking takes a customer with nothing booked from a shared
// queue and the same connection then cancels that reservation, which puts the
// customer back in the queue (so bookings and cancellations keep going for the
// whole run and never collide: one live booking per customer at most).
// Posts back, per kind: latencies (ms) and every non-2xx by `status code`;
// plus network errors and timeouts.
import { parentPort, workerData } from 'node:worker_threads';
import http from 'node:http';
import autocannon from 'autocannon';
import { answerKey } from './answer-key.mjs';

const { base, duration, tokens, classIds, weeks, connections, rate, exclude = [] } = workerData;
/** With `rate` (total requests per second), each kind is paced at its share of it (its share of the connections). */
const totalConnections = Object.values(connections).reduce((a, b) => a + b, 0);
const url = new URL(base);

/** kind → { latencies, refusals } */
const stats = new Map();
const statsOf = (kind) => {
  let s = stats.get(kind);
  if (!s) stats.set(kind, (s = { latencies: [], refusals: {} }));
  return s;
};

/** Records one answer; the latency comes in autocannon's 'response' event, right after (same tick). */
let answered = null;
function record(kind, status, body) {
  const s = statsOf(kind);
  if (status < 200 || status >= 300) {
    const key = answerKey(status, body);
    s.refusals[key] = (s.refusals[key] ?? 0) + 1;
  }
  answered = kind;
}

let tokenTurn = 0;
const nextToken = () => tokens[tokenTurn++ % tokens.length];
let weekTurn = 0;
const nextWeek = () => weeks[weekTurn++ % weeks.length];
const weekPath = () => {
  const w = nextWeek();
  return `/api/single_class?start_date=${w.start_date}&end_date=${w.end_date}`;
};

/** Customers with no live booking, as indexes into `tokens` (`exclude`: still booked after an earlier run). */
const excluded = new Set(exclude);
const free = tokens.map((_, i) => i).filter((i) => !excluded.has(i));
let classTurn = 0;

/** One request kind: its autocannon requests and connection count. */
const kinds = [
  {
    name: 'semana (anónimo)',
    connections: connections.anonWeek,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: weekPath() }), onResponse: (status, body) => record('semana (anónimo)', status, body) }],
  },
  {
    name: 'semana (con sesión)',
    connections: connections.signedWeek,
    requests: [
      {
        method: 'GET',
        setupRequest: (req) => ({ ...req, path: weekPath(), headers: { ...req.headers, authorization: `Bearer ${nextToken()}` } }),
        onResponse: (status, body) => record('semana (con sesión)', status, body),
      },
    ],
  },
  {
    name: 'reservar / cancelar',
    connections: connections.book,
    requests: [
      {
        method: 'POST',
        path: '/api/class_reservations',
        setupRequest: (req, context) => {
          const who = free.shift();
          if (who === undefined) throw new Error('no customer left without a booking: raise BENCH_CUSTOMERS');
          context.who = who;
          const classId = classIds[classTurn++ % classIds.length];
          return {
            ...req,
            headers: { ...req.headers, authorization: `Bearer ${tokens[who]}`, 'content-type': 'application/json' },
            body: JSON.stringify({ single_class_id: classId }),
          };
        },
        onResponse: (status, body, context) => {
          record('reservar', status, body);
          if (status === 200) context.reservationId = JSON.parse(body).class_reservation.class_reservation_id;
          else free.push(context.who);
        },
      },
      {
        method: 'POST',
        // Nothing to cancel when the booking was refused: autocannon then starts the next booking.
        setupRequest: (req, context) =>
          context.reservationId === undefined
            ? null
            : {
                ...req,
                path: `/api/class_reservations/${context.reservationId}/cancel`,
                headers: { ...req.headers, authorization: `Bearer ${tokens[context.who]}`, 'content-type': 'application/json' },
                body: '{}',
              },
        onResponse: (status, body, context) => {
          record('cancelar', status, body);
          // A failed cancel leaves the booking live: that customer stays out of the queue.
          if (status === 200) free.push(context.who);
        },
      },
    ],
  },
  {
    name: 'mis reservaciones',
    connections: connections.mine,
    requests: [
      {
        method: 'GET',
        path: '/api/class_reservations/mine?page=1&filter=all',
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${nextToken()}` } }),
        onResponse: (status, body) => record('mis reservaciones', status, body),
      },
    ],
  },
  {
    name: 'videos',
    connections: connections.videos,
    requests: [
      {
        method: 'GET',
        path: '/api/videos?page=1',
        setupRequest: (req) => ({ ...req, headers: { ...req.headers, authorization: `Bearer ${nextToken()}` } }),
        onResponse: (status, body) => record('videos', status, body),
      },
    ],
  },
].filter((k) => k.connections > 0);

let errors = 0;
const errorSamples = {};

/**
 * Paced (`rate` given): an open model, requests spread evenly over each second.
 * autocannon's own pacing (overallRate) lets each connection send its share of
 * a second back to back when the second starts, so every second began with a
 * burst of the whole rate at once and the latencies measured the burst's
 * queue, not the rate (at 100 req/s, p50 of 40–140 ms for answers that take
 * 3 ms alone). Here each kind's sequences (its `requests` in order: a booking,
 * then its cancellation) start at even intervals, at most `connections` of a
 * kind in flight on keep-alive sockets; a request's latency counts from when
 * it was due, so a server that falls behind shows it (no coordinated omission).
 */
async function runPaced(kind) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: kind.connections });
  const perSecond = Math.max(1, (rate * kind.connections) / totalConnections) / kind.requests.length;
  const interval = 1000 / perSecond;
  const send = (spec, due) =>
    new Promise((resolve) => {
      const req = http.request(
        { host: url.hostname, port: url.port, method: spec.method, path: spec.path, headers: spec.headers ?? {}, agent, timeout: 30_000 },
        (res) => {
          const chunks = [];
          res.on('data', (c) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - due }));
        },
      );
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', (err) => resolve({ error: err }));
      if (spec.body) req.write(spec.body);
      req.end();
    });
  const sequence = async (due) => {
    const context = {};
    for (const [i, template] of kind.requests.entries()) {
      const base = { method: template.method, path: template.path ?? '/', headers: {} };
      const spec = template.setupRequest ? template.setupRequest(base, context) : base;
      if (spec === null) return;
      const answer = await send(spec, i === 0 ? due : performance.now());
      if (answer.error) {
        errors++;
        const key = `${kind.name}: ${answer.error.code ?? answer.error.message}`;
        errorSamples[key] = (errorSamples[key] ?? 0) + 1;
        return;
      }
      template.onResponse?.(answer.status, answer.body, context);
      if (answered) statsOf(answered).latencies.push(answer.ms);
      answered = null;
      // Which second of the run the request was due in: the start's tail shows apart from the steady state.
      const second = Math.floor((performance.now() - answer.ms - started) / 1000);
      (bySecond[second] ??= []).push(answer.ms);
    }
  };
  const start = performance.now() + Math.random() * interval;
  const end = start + duration * 1000;
  const inFlight = new Set();
  for (let n = 0; ; n++) {
    const due = start + n * interval;
    if (due >= end) break;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const run = sequence(due).finally(() => inFlight.delete(run));
    inFlight.add(run);
  }
  await Promise.all(inFlight);
  agent.destroy();
  return { timeouts: 0 };
}

/** Paced runs: every latency by the second of the run its request was due in. */
const bySecond = [];
const started = performance.now();
const runs = kinds.map((kind) => (rate ? runPaced(kind) : runAutocannon(kind)));

function runAutocannon(kind) {
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: url.origin,
        connections: kind.connections,
        duration,
        requests: kind.requests,
        timeout: 30,
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    instance.on('response', (_client, _status, _bytes, ms) => {
      if (answered) statsOf(answered).latencies.push(ms);
      answered = null;
    });
    instance.on('reqError', (err) => {
      errors++;
      const key = `${kind.name}: ${err.code ?? err.message}`;
      errorSamples[key] = (errorSamples[key] ?? 0) + 1;
    });
  });
}

const results = await Promise.all(runs);
const seconds = (performance.now() - started) / 1000;
parentPort.postMessage({
  seconds,
  stats: Object.fromEntries(stats),
  errors,
  errorSamples,
  timeouts: results.reduce((n, r) => n + r.timeouts, 0),
  bySecond: Array.from(bySecond, (latencies) => latencies ?? []),
  // Customers left with a live booking (the run ended between a booking and its cancellation): a next run leaves them out.
  stillBooked: tokens.map((_, i) => i).filter((i) => !free.includes(i)),
});
