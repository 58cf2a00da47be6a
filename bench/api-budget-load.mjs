// Load generator of bench/api-budget.ts, in a worker thread: one autocannon
// run against one server for one kind of request.
//   kind 'week': GET /api/single_class for the given week, anonymous.
//   kind 'week-signed': the same week signed in, request j as customer j mod K
//     (their token; each answer adds the customer's own part).
//   kind 'week-304': the anonymous week sent with If-None-Match of the ETag
//     it answered before (a returning visitor); a 304 counts as answered.
//   kind 'book': POST /api/class_reservations; request j of the run books
//     customer j mod K into class j mod C (K customers, C classes, K and C
//     coprime), so no pair repeats within K·C bookings and requests in flight
//     at once hold different customers and different classes. The real
//     server gets the customer's token; the bare one gets customer_id in the body.
// Posts back: seconds, the next turn, 2xx count, latencies of every answer (ms), non-2xx by
// `status code`, network errors and timeouts.
import { parentPort, workerData } from 'node:worker_threads';
import autocannon from 'autocannon';
import { answerKey } from './answer-key.mjs';

const { base, kind, bare, duration, connections, week, bookers, classIds, firstTurn, etag } = workerData;

const latencies = [];
const refusals = {};
let ok = 0;
const record = (status, body) => {
  if ((status >= 200 && status < 300) || (status === 304 && kind === 'week-304')) ok++;
  else {
    const key = answerKey(status, body);
    refusals[key] = (refusals[key] ?? 0) + 1;
  }
};

// Runs against one server continue where its last one stopped (warm-up, then the measure).
let turn = firstTurn;
const weekPath = `/api/single_class?start_date=${week.start_date}&end_date=${week.end_date}`;
const requests =
  kind === 'week'
    ? [{ method: 'GET', path: weekPath, onResponse: record }]
    : kind === 'week-304'
      ? [{ method: 'GET', path: weekPath, headers: { 'if-none-match': etag }, onResponse: record }]
      : kind === 'week-signed'
        ? [
            {
              method: 'GET',
              setupRequest: (req) => {
                const who = bookers[turn++ % bookers.length];
                return { ...req, path: weekPath, headers: { ...req.headers, authorization: `Bearer ${who.token}` } };
              },
              onResponse: record,
            },
          ]
        : [
        {
          method: 'POST',
          setupRequest: (req) => {
            const j = turn++;
            const who = bookers[j % bookers.length];
            const single_class_id = classIds[j % classIds.length];
            return {
              ...req,
              path: '/api/class_reservations',
              headers: { ...req.headers, 'content-type': 'application/json', authorization: `Bearer ${who.token}` },
              body: JSON.stringify(bare ? { single_class_id, customer_id: who.customer_id } : { single_class_id }),
            };
          },
          onResponse: record,
        },
      ];

let errors = 0;
const started = performance.now();
const result = await new Promise((resolve, reject) => {
  const instance = autocannon({ url: base, connections, duration, requests, timeout: 30 }, (err, res) => (err ? reject(err) : resolve(res)));
  instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  instance.on('reqError', () => errors++);
});
parentPort.postMessage({ seconds: (performance.now() - started) / 1000, turns: turn, ok, latencies, refusals, errors, timeouts: result.timeouts });
