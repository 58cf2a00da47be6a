// The deployment drill (decision 076): the studio as deploy/README.md installs it, on this
// machine's loopback, and a deploy under load that must fail no request.
//   1. the server built as `npm run build` builds it, two processes of it (plain node) on a fresh
//      copy of the demo studio in PostgreSQL;
//   2. nginx (Debian's) with deploy/nginx/estudio.conf itself in front, over TLS (a self-signed
//      certificate), the upstream file deploy/rolling-restart.mjs writes;
//   3. traffic through nginx for the whole drill: the week's schedule, anonymous and signed in,
//      and bookings with their cancellations;
//   4. a deploy: a new migration (a column added) and deploy/rolling-restart.mjs's steps, one
//      process at a time (out of nginx, SIGTERM, the new process migrates under the lock and
//      warms up, back in nginx);
//   5. then: failed requests (network errors, 5xx, anything unexpected) must be 0, the migration
//      applied once, both processes ready on it, bench/invariants.sql clean; and nginx's cap on
//      connections per address answers 429 past 64 connections held by one client.
// Prints the counts and exits 1 on any failure.
//
//   npx tsx deploy/drill.ts        (TEST_DATABASE_URL, default postgres://postgres:postgres@127.0.0.1:5432/postgres)
//
// Needs nginx and openssl (apt-get install nginx openssl). DRILL_PORT (4130): nginx's TLS port;
// the next three are nginx's plain port and the two processes. DRILL_SECONDS (4): traffic before
// and after the restarts. The per-address request rate of the config (20 r/s) is raised for the
// drill, whose traffic all comes from one address; everything else is the shipped file.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import tls from 'node:tls';
import postgres from 'postgres';
import { app_config } from '@estudio/db/schema/app-config';
import { createBookers, newClass, type Booker } from '../server/test/support/reservations-fixtures.ts';
import { freshDatabase } from '../bench/child-server.ts';
import { rollingRestart, upstreamBlock } from './rolling-restart.mjs';

const root = path.resolve(import.meta.dirname, '..');
const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const tlsPort = Number(process.env.DRILL_PORT ?? 4130);
const httpPort = tlsPort + 1;
const ports = [tlsPort + 2, tlsPort + 3];
const seconds = Number(process.env.DRILL_SECONDS ?? 4);
const secret = 'ensayo-del-despliegue-con-32-caracteres-o-mas';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const work = mkdtempSync(path.join(tmpdir(), 'estudio-ensayo-'));
chmodSync(work, 0o755);
const children = new Map<number, ChildProcess>();
let nginxStarted = false;
const nginxConf = path.join(work, 'nginx.conf');
const nginx = (...args: string[]) => spawnSync('nginx', ['-p', work, '-c', nginxConf, ...args], { encoding: 'utf8' });

function must(result: ReturnType<typeof spawnSync>, what: string): void {
  if (result.error) throw new Error(`${what}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${what} terminó con ${result.status}: ${String(result.stderr)}`);
}

/** deploy/nginx/estudio.conf with the drill's ports, files and certificate, inside a whole nginx.conf. */
function writeNginxConfig(upstreamFile: string, cert: string, key: string): void {
  const site = readFileSync(path.join(root, 'deploy', 'nginx', 'estudio.conf'), 'utf8')
    .replace('include /etc/nginx/estudio-upstream.conf;', `include ${upstreamFile};`)
    .replace(/^\s*listen \[::\]:\d+.*$/gm, '')
    .replace('listen 80;', `listen 127.0.0.1:${httpPort};`)
    .replace('listen 443 ssl http2;', `listen 127.0.0.1:${tlsPort} ssl http2;`)
    .replaceAll('/etc/letsencrypt/live/estudio.example.mx/fullchain.pem', cert)
    .replaceAll('/etc/letsencrypt/live/estudio.example.mx/privkey.pem', key)
    .replaceAll('/var/log/nginx/', `${work}/`)
    .replace('rate=20r/s', 'rate=100000r/s');
  writeFileSync(
    nginxConf,
    `worker_processes 2;\nworker_shutdown_timeout 20s;\npid ${work}/nginx.pid;\nerror_log ${work}/nginx-error.log warn;\n${process.getuid?.() === 0 ? 'user root;\n' : ''}` +
      `events { worker_connections 2048; }\nhttp {\n  include /etc/nginx/mime.types;\n  client_body_temp_path ${work}/body;\n  proxy_temp_path ${work}/proxy;\n` +
      `  fastcgi_temp_path ${work}/fastcgi;\n  uwsgi_temp_path ${work}/uwsgi;\n  scgi_temp_path ${work}/scgi;\n${site}\n}\n`,
  );
}

async function stopServer(port: number): Promise<number | null> {
  const child = children.get(port);
  if (!child || child.exitCode !== null) return child?.exitCode ?? null;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  return exited;
}

interface Tally {
  ok: number;
  failed: number;
  samples: Record<string, number>;
}

const agent = new https.Agent({ keepAlive: true, maxSockets: 64, rejectUnauthorized: false });

/** Requests sent again: a kept-alive connection nginx closed at a reload just as this client reused it. */
let resent = 0;

/**
 * One request through nginx. A request that fails on a reused kept-alive connection before any
 * answer is sent once more on a new connection, as browsers do (and as Node's documentation of
 * `request.reusedSocket` says a client must): nginx closed that connection idle, at a reload, and
 * never read the request. Any other failure is the request's.
 */
async function request(method: string, url: string, token: string | null, body?: object): Promise<{ status: number; body: string }> {
  try {
    return await requestOnce(method, url, token, body);
  } catch (error) {
    if (!(error as { reused?: boolean }).reused) throw error;
    resent += 1;
    return requestOnce(method, url, token, body);
  }
}

function requestOnce(method: string, url: string, token: string | null, body?: object): Promise<{ status: number; body: string }> {
  const payload = body ? JSON.stringify(body) : undefined;
  return new Promise((resolve, reject) => {
    const req = https.request(
      `https://127.0.0.1:${tlsPort}${url}`,
      {
        method,
        agent,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      },
    );
    let answered = false;
    req.on('response', () => (answered = true));
    req.on('error', (error: NodeJS.ErrnoException) => {
      const closedIdle = req.reusedSocket && !answered && (error.code === 'ECONNRESET' || error.message === 'socket hang up');
      reject(Object.assign(error, { reused: closedIdle }));
    });
    req.setTimeout(20_000, () => req.destroy(new Error('sin respuesta en 20 s')));
    req.end(payload);
  });
}

/** Traffic until `stop` is set: a few loops of each kind, each counting what it got. */
function traffic(bookers: Booker[], classIds: number[], week: string, stop: { now: boolean }): Promise<Record<string, Tally>> {
  const tallies: Record<string, Tally> = {};
  const count = (kind: string, ok: boolean, what: string) => {
    const t = (tallies[kind] ??= { ok: 0, failed: 0, samples: {} });
    if (ok) t.ok += 1;
    else {
      t.failed += 1;
      t.samples[what] = (t.samples[what] ?? 0) + 1;
    }
  };
  const attempt = async (kind: string, run: () => Promise<{ status: number; body: string }>, expected = 200) => {
    try {
      const res = await run();
      count(kind, res.status === expected, `${res.status} ${res.body.slice(0, 120)}`);
      return res;
    } catch (error) {
      count(kind, false, (error as Error).message);
      return null;
    }
  };
  const loops: Promise<void>[] = [];
  for (let i = 0; i < 4; i++) {
    loops.push(
      (async () => {
        while (!stop.now) await attempt('semana anónima', () => request('GET', `/api/single_class?${week}`, null));
      })(),
    );
  }
  bookers.forEach((booker, i) => {
    loops.push(
      (async () => {
        const single_class_id = classIds[i % classIds.length] as number;
        while (!stop.now) {
          await attempt('semana con sesión', () => request('GET', `/api/single_class?${week}`, booker.token));
          const booked = await attempt('reservar', () => request('POST', '/api/class_reservations', booker.token, { single_class_id }));
          const id = booked?.status === 200 ? (JSON.parse(booked.body) as { class_reservation: { class_reservation_id: number } }).class_reservation.class_reservation_id : null;
          if (id) await attempt('cancelar', () => request('POST', `/api/class_reservations/${id}/cancel`, booker.token, {}));
        }
      })(),
    );
  });
  return Promise.all(loops).then(() => tallies);
}

/** A new migration as a deploy brings one: the repository's, plus a column added (compatible with the running code). */
function migrationsWithOneMore(): { dir: string; count: number } {
  const dir = path.join(work, 'migraciones');
  cpSync(path.join(root, 'db', 'migrations'), dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { idx: number; version: string; when: number; tag: string; breakpoints: boolean }[] };
  const last = journal.entries.at(-1) as (typeof journal.entries)[number];
  const tag = `${String(last.idx + 1).padStart(4, '0')}_ensayo_del_despliegue`;
  journal.entries.push({ ...last, idx: last.idx + 1, when: last.when + 1000, tag });
  writeFileSync(journalFile, JSON.stringify(journal, null, 2));
  writeFileSync(path.join(dir, `${tag}.sql`), 'ALTER TABLE "class_reservation" ADD COLUMN "ensayo_nota" text;\n');
  return { dir, count: journal.entries.length };
}

/** Holds `n` connections to nginx, each with a request whose body never comes; answers how many were refused 429. */
async function holdConnections(n: number): Promise<{ refused: number; sockets: tls.TLSSocket[] }> {
  const sockets: tls.TLSSocket[] = [];
  let refused = 0;
  for (let i = 0; i < n; i++) {
    const socket = tls.connect({ host: '127.0.0.1', port: tlsPort, rejectUnauthorized: false, servername: 'estudio.example.mx' });
    await new Promise((resolve, reject) => socket.once('secureConnect', resolve).once('error', reject));
    let answer = '';
    socket.setEncoding('utf8').on('data', (c: string) => {
      answer += c;
      if (answer.startsWith('HTTP/1.1 429')) refused += 1;
    });
    socket.on('error', () => {});
    socket.write('POST /api/auth/login HTTP/1.1\r\nHost: estudio.example.mx\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{');
    sockets.push(socket);
    await sleep(15);
  }
  await sleep(500);
  return { refused, sockets };
}

// The build must sit two levels below the repository (it finds db/migrations and portal/dist from its file).
const build = path.join(root, '.tmp', `ensayo-${process.pid}`);
let ok = false;
const database = await freshDatabase(adminUrl, 'ensayo');
try {
  must(spawnSync(process.execPath, [path.join(root, 'scripts', 'build-server.mjs'), '--outdir', path.relative(root, build)], { encoding: 'utf8' }), 'la compilación');

  const orm = database.handle.db;
  await orm.insert(app_config).values({ key: 'max_cancels_per_available_class', value: '0' }).onConflictDoUpdate({ target: app_config.key, set: { value: '0' } });
  const classIds: number[] = [];
  for (let i = 0; i < 4; i++) classIds.push(await newClass(orm, { minutesAhead: 3 * 24 * 60 + i * 60, capacity: 500, classType: 'Yoga' }));
  const bookers = await createBookers(orm, secret, 6, { credits: 5, prefix: 'ensayo' });
  const start = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  const week = `start_date=${start}&end_date=${start}`;

  mkdirSync(path.join(work, 'tls'));
  const cert = path.join(work, 'tls', 'cert.pem');
  const key = path.join(work, 'tls', 'key.pem');
  must(
    spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=estudio.example.mx', '-keyout', key, '-out', cert], { encoding: 'utf8' }),
    'openssl',
  );
  const upstreamFile = path.join(work, 'estudio-upstream.conf');
  writeFileSync(upstreamFile, upstreamBlock(ports));
  writeNginxConfig(upstreamFile, cert, key);

  const env = { DATABASE_URL: database.url, MIGRATIONS_DIR: path.join(root, 'db', 'migrations') };
  const entry = path.join(build, 'main.mjs');
  const startBuilt = async (port: number, more: Record<string, string>) => {
    const child = spawn(process.execPath, [entry], {
      cwd: root,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', PORT: String(port), AUTH_SECRET: secret, TRUST_PROXY: 'true', LOG_LEVEL: 'warn', DATA_DIR: path.join(work, `data-${port}`), ...env, ...more },
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    children.set(port, child);
    const until = Date.now() + 120_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`el proceso ${port} terminó al arrancar: ${stderr}`);
      if (await fetch(`http://127.0.0.1:${port}/ready`).then((r) => r.status === 200, () => false)) return;
      if (Date.now() > until) throw new Error(`el proceso ${port} no quedó listo: ${stderr}`);
      await sleep(200);
    }
  };
  await Promise.all(ports.map((port) => startBuilt(port, {})));
  must(nginx('-t', '-q'), 'nginx -t');
  must(nginx(), 'nginx');
  nginxStarted = true;
  const through = await request('GET', '/health', null);
  if (through.status !== 200) throw new Error(`nginx no llega al servidor: ${through.status}`);
  console.log(`Dos procesos (${ports.join(', ')}) detrás de nginx (https://127.0.0.1:${tlsPort}); tráfico durante el despliegue…`);

  const stop = { now: false };
  const running = traffic(bookers, classIds, week, stop);
  await sleep(seconds * 1000);
  const migrations = migrationsWithOneMore();
  await rollingRestart({
    ports,
    upstreamFile,
    drainMs: 1000,
    reload: async () => must(nginx('-s', 'reload'), 'nginx -s reload'),
    restart: async (port) => {
      const code = await stopServer(port);
      if (code !== 0) throw new Error(`el proceso ${port} no cerró limpio (código ${code})`);
      await startBuilt(port, { MIGRATIONS_DIR: migrations.dir });
    },
    log: (line) => console.log(`  ${line}`),
  });
  await sleep(seconds * 1000);
  stop.now = true;
  const tallies = await running;

  let total = 0;
  let failed = 0;
  for (const [kind, t] of Object.entries(tallies)) {
    total += t.ok + t.failed;
    failed += t.failed;
    console.log(`  ${kind}: ${t.ok + t.failed} solicitudes, ${t.failed} fallidas${t.failed ? ` ${JSON.stringify(t.samples)}` : ''}`);
  }
  console.log(`Solicitudes durante el despliegue: ${total}; fallidas: ${failed}; reenviadas por una conexión que nginx cerró al recargar: ${resent}`);

  const sql = postgres(database.url, { max: 1, onnotice: () => {} });
  const checks: string[] = [];
  try {
    const [applied] = await sql<{ n: number; column: boolean }[]>`
      select (select count(*)::int from drizzle.__drizzle_migrations) as n,
             exists (select 1 from information_schema.columns where table_name = 'class_reservation' and column_name = 'ensayo_nota') as column`;
    if (applied?.n !== migrations.count || !applied.column) checks.push(`la migración nueva: ${JSON.stringify(applied)} (esperaba ${migrations.count})`);
    for (const port of ports) {
      const ready = (await (await fetch(`http://127.0.0.1:${port}/ready`)).json()) as { status: string; checks: { migrations: { ok: boolean; expected: number } } };
      if (ready.status !== 'ready' || ready.checks.migrations.expected !== migrations.count) checks.push(`${port} no está listo con la migración nueva: ${JSON.stringify(ready)}`);
    }
    const invariants = readFileSync(path.join(root, 'bench', 'invariants.sql'), 'utf8');
    const broken = await sql.unsafe(invariants);
    if (broken.length) checks.push(`invariantes: ${JSON.stringify(broken)}`);
  } finally {
    await sql.end({ timeout: 5 });
  }

  const held = await holdConnections(70);
  for (const socket of held.sockets) socket.destroy();
  console.log(`Conexiones retenidas por una dirección: 70; nginx respondió 429 a ${held.refused} (límite 64)`);
  if (held.refused < 1 || held.refused > 70 - 64) checks.push(`limit_conn: ${held.refused} respuestas 429`);

  if (total < 50) checks.push(`muy poco tráfico: ${total}`);
  if (failed > 0) checks.push(`${failed} solicitudes fallidas`);
  for (const check of checks) console.error(`✘ ${check}`);
  ok = checks.length === 0;
  console.log(ok ? '✔ Ensayo del despliegue: ninguna solicitud fallida.' : '✘ Ensayo del despliegue con fallas.');
} finally {
  agent.destroy();
  if (nginxStarted) nginx('-s', 'quit');
  await Promise.all(ports.map((port) => stopServer(port)));
  await database.drop();
  rmSync(build, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
}
process.exit(ok ? 0 : 1);
