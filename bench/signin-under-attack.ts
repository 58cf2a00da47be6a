// Sign-in under a password-guessing attack (break 3): how long a
// person's ordinary sign-in takes while batched tRPC requests of guesses
// arrive, beside the same sign-in on an idle server, in one run on one fresh
// seeded PostgreSQL database with the server in a child process
// (`server/src/main.ts`, TRUST_PROXY on so each attacker can claim its own
// address through X-Forwarded-For, the worst case for per-address limits).
//
//   npx tsx bench/signin-under-attack.ts
//
// Phases, each timing BENCH_SIGNINS sign-ins of admin@estudio.demo, one after
// another, from an address of its own:
//   idle        nothing else runs;
//   one-address the attack the issue reports: ATTACK_BATCHES batched requests
//               of `trpcMaxBatchSize` (50, the most a batch may carry now)
//               auth.login guesses at cliente@estudio.demo from one address,
//               sent at once;
//   many        the same from ATTACK_ADDRESSES addresses, each guessing at an
//               account of its own (made beforehand), so neither the
//               per-address limit nor one account's lockout stops the
//               hashing: only the hashing slots bound it.
// The person's sign-ins run one after another for as long as the attack's
// requests are unanswered (at least BENCH_SIGNINS of them).
// Prints p50/p95 of the person's sign-in per phase, its ratio to idle, how
// many of them were refused, and what the attack's calls got (wrong password,
// rate-limited, locked, busy). Knobs: TEST_DATABASE_URL, BENCH_PORT (3311),
// BENCH_SIGNINS (30), ATTACK_BATCHES (3), ATTACK_ADDRESSES (20).
import { trpcMaxBatchSize } from '@estudio/core';
import { freshDatabase, percentile, startChild } from './child-server.ts';

const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const port = Number(process.env.BENCH_PORT ?? 3311);
const signins = Number(process.env.BENCH_SIGNINS ?? 30);
const batches = Number(process.env.ATTACK_BATCHES ?? 3);
const addresses = Number(process.env.ATTACK_ADDRESSES ?? 20);
const secret = 'banco-de-ingreso-bajo-ataque-con-32-caracteres';
const password = 'Demo1234!';

interface Timed {
  ms: number;
  status: number;
}

async function signIn(base: string, email: string, address: string): Promise<Timed> {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify({ email, password }),
  });
  await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status };
}

/** One batched request of `trpcMaxBatchSize` wrong guesses; counts what each call got. */
async function guessBatch(base: string, email: string, address: string, outcomes: Record<string, number>): Promise<void> {
  const size = trpcMaxBatchSize;
  const body = Object.fromEntries(Array.from({ length: size }, (_, i) => [String(i), { email, password: `Adivina${i}!x` }]));
  const res = await fetch(`${base}/trpc/${Array(size).fill('auth.login').join(',')}?batch=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
    body: JSON.stringify(body),
  });
  const answers = (await res.json().catch(() => null)) as { error?: { data?: { domainCode?: string } } }[] | { error?: { data?: { domainCode?: string } } } | null;
  for (const a of Array.isArray(answers) ? answers : [answers]) {
    const code = a?.error?.data?.domainCode ?? (a ? 'signed-in' : `http-${res.status}`);
    outcomes[code] = (outcomes[code] ?? 0) + 1;
  }
}

async function timeSignins(base: string, address: string): Promise<Timed[]> {
  const out: Timed[] = [];
  for (let i = 0; i < signins; i++) out.push(await signIn(base, 'admin@estudio.demo', address));
  return out;
}

/**
 * The attack as reported: `batches` batched requests of guesses per attacker,
 * all sent at once, each once. Resolves when every one has answered.
 */
async function attack(base: string, targets: { email: string; address: string }[], outcomes: Record<string, number>): Promise<number> {
  const t0 = performance.now();
  await Promise.all(targets.flatMap((t) => Array.from({ length: batches }, () => guessBatch(base, t.email, t.address, outcomes))));
  return performance.now() - t0;
}

/** Times sign-ins one after another while `pending` runs (at least `signins` of them). */
async function timeSigninsDuring(base: string, address: string, pending: Promise<number>): Promise<Timed[]> {
  let done = false;
  void pending.then(() => (done = true));
  const out: Timed[] = [];
  while (!done || out.length < signins) out.push(await signIn(base, 'admin@estudio.demo', address));
  return out;
}

function summary(name: string, runs: Timed[], idleP50: number | null) {
  const ok = runs.filter((r) => r.status === 200).map((r) => r.ms).sort((a, b) => a - b);
  const refused = runs.length - ok.length;
  const p50 = percentile(ok, 50);
  const p95 = percentile(ok, 95);
  const ratio = idleP50 ? ` (${(p50 / idleP50).toFixed(2)}× idle p50)` : '';
  console.log(`${name.padEnd(12)} sign-in p50 ${p50.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms${ratio}; refused ${refused}/${runs.length}${refused ? ` (${[...new Set(runs.filter((r) => r.status !== 200).map((r) => r.status))].join(', ')})` : ''}`);
  return p50;
}

const db = await freshDatabase(adminUrl, 'bnch_signin');
const server = await startChild('server/src/main.ts', port, { DATABASE_URL: db.url, NODE_ENV: 'test', AUTH_SECRET: secret, TRUST_PROXY: 'true' });
try {
  const base = server.base;
  // The many-address attack's own accounts, one sign-up per address (under the per-address limit).
  const victims = [];
  for (let i = 0; i < addresses; i++) {
    const email = `victima${i}@ataque.demo`;
    const address = `10.66.${Math.floor(i / 250)}.${(i % 250) + 1}`;
    const res = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
      body: JSON.stringify({ email, password: 'Victima123!' }),
    });
    if (res.status !== 200) throw new Error(`sign-up ${email}: ${res.status} ${await res.text()}`);
    victims.push({ email, address });
  }

  const idle = summary('idle', await timeSignins(base, '10.1.0.1'), null);

  const single: Record<string, number> = {};
  const singleAttack = attack(base, [{ email: 'cliente@estudio.demo', address: '10.2.0.1' }], single);
  summary('one-address', await timeSigninsDuring(base, '10.1.0.2', singleAttack), idle);
  console.log(`             attack: ${batches} requests of ${trpcMaxBatchSize} guesses answered in ${(await singleAttack).toFixed(0)} ms: ${JSON.stringify(single)}`);

  const many: Record<string, number> = {};
  const manyAttack = attack(base, victims, many);
  summary('many', await timeSigninsDuring(base, '10.1.0.3', manyAttack), idle);
  console.log(`             attack: ${addresses} addresses × ${batches} requests of ${trpcMaxBatchSize} guesses answered in ${(await manyAttack).toFixed(0)} ms: ${JSON.stringify(many)}`);
} finally {
  await server.stop();
  await db.drop();
}
