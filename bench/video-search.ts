// Video search latency on PostgreSQL with 5,000 extra videos: GET /api/videos
// through the real server on a loopback port (token verification, membership
// check, search, the page's details) beside the search's own two statements
// (the count and the page of ids, the SQL the service builds) run directly with
// postgres.js. Prints p50 and p95 of each over the same queries.
//
//   npx tsx bench/video-search.ts
//
// Uses TEST_DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres)
// to create a fresh seeded database, dropped at the end. Knobs: BENCH_VIDEOS (5000),
// BENCH_QUERIES (200).
import { count, desc, eq, sql } from 'drizzle-orm';
import { VIDEO_PAGE_SIZE } from '@estudio/core';
import { createDb } from '@estudio/db';
import { instructor } from '@estudio/db/schema/catalogue';
import { tag, video, video_tag, video_type } from '@estudio/db/schema/videos';
import { createTestDb } from '@estudio/db/testing';
import { buildServer } from '../server/src/app.ts';
import { searchTsQuery, videoWhere, type VideoFilters } from '../server/src/services/videos/list-videos.ts';
import { demoPassword, testConfig } from '../server/test/support/helpers.ts';

process.env.TEST_DATABASE_URL ||= 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const videoCount = Number(process.env.BENCH_VIDEOS ?? 5000);
const queryCount = Number(process.env.BENCH_QUERIES ?? 200);

/** A small deterministic generator, so every run searches the same library. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1_664_525 + 1_013_904_223) >>> 0;
    return s / 2 ** 32;
  };
}

const disciplines = ['Yoga', 'Pilates', 'Barre', 'Cycling', 'Meditación', 'Respiración', 'Movilidad', 'Estiramientos', 'HIIT', 'Fuerza'];
const styles = ['vinyasa', 'suave', 'intenso', 'restaurativo', 'para principiantes', 'avanzado', 'express', 'completo', 'en casa', 'matutino'];
const focuses = ['caderas', 'espalda baja', 'core', 'glúteos', 'brazos', 'hombros', 'columna', 'piernas', 'equilibrio', 'la ansiedad', 'dormir mejor', 'postura'];
const verbs = ['Fortalece', 'Relaja', 'Activa', 'Libera', 'Tonifica', 'Estira', 'Equilibra', 'Calma'];
const extras = [
  'con música latina',
  'sin equipo',
  'con una silla',
  'con respiración consciente',
  'con intervalos de cardio',
  'al ritmo de tu respiración',
  'con bandas elásticas',
  'en veinte minutos',
];
const searchTerms = [
  'yoga',
  'respiracion',
  'ansiedad',
  'pilates core',
  'glúteos',
  'meditacion',
  'caderas',
  'espalda',
  'barre brazos',
  'estiramientos piernas',
  'principiantes',
  'dormir',
  'fuerza',
  'cardio',
  'movilidad columna',
  'postura',
];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

async function main() {
  const testDb = await createTestDb();
  const pool = await createDb(testDb.url, { max: 10 });
  if (pool.kind !== 'postgres') throw new Error('the bench needs PostgreSQL');
  const { db, client } = pool;
  const config = testConfig();
  const app = await buildServer({ config, db });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });

  try {
    const random = rng(2026);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const coaches = (await db.select({ id: instructor.instructor_id }).from(instructor)).map((r) => r.id);
    const types = (await db.select({ id: video_type.video_type_id }).from(video_type)).map((r) => r.id);
    const tags = (await db.select({ id: tag.tag_id }).from(tag).where(eq(tag.type, 'video'))).map((r) => r.id);

    const loadStarted = performance.now();
    for (let start = 0; start < videoCount; start += 500) {
      const rows = Array.from({ length: Math.min(500, videoCount - start) }, (_, k) => {
        const i = start + k;
        return {
          name: `${pick(disciplines)} ${pick(styles)} para ${pick(focuses)} ${i + 1}`,
          description: `${pick(verbs)} ${pick(focuses)} y ${pick(focuses)} ${pick(extras)}. ${pick(verbs)} tu cuerpo ${pick(extras)}.`,
          duration: 5 + Math.floor(random() * 55),
          url: `https://player.vimeo.com/video/${700_000_000 + i}`,
          instructor_id: pick(coaches),
          video_type_id: pick(types),
          release_date: new Date(Date.now() - (i + 1) * 3_600_000),
        };
      });
      const inserted = await db.insert(video).values(rows).returning({ id: video.video_id });
      const links = inserted.flatMap((v) => {
        const first = pick(tags);
        const second = pick(tags);
        return first === second ? [{ video_id: v.id, tag_id: first }] : [{ video_id: v.id, tag_id: first }, { video_id: v.id, tag_id: second }];
      });
      await db.insert(video_tag).values(links);
    }
    await client.unsafe('analyze video; analyze video_tag');
    const loadSeconds = (performance.now() - loadStarted) / 1000;

    const login = await fetch(`${base}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ilimitado@estudio.demo', password: demoPassword }),
    });
    const { idToken } = (await login.json()) as { idToken: string };

    // Half the queries also filter by one or two tags (any of them).
    const queries: VideoFilters[] = Array.from({ length: queryCount }, (_, i) => ({
      query: pick(searchTerms),
      ...(i % 2 === 1 ? { tag_id: i % 4 === 1 ? [pick(tags)] : [pick(tags), pick(tags)] } : {}),
    }));
    const urlOf = (f: VideoFilters) => {
      const params = new URLSearchParams({ query: f.query ?? '' });
      for (const t of f.tag_id ?? []) params.append('tag_id', String(t));
      return `${base}/api/videos?${params.toString()}`;
    };
    const viaApi = async (f: VideoFilters) => {
      const res = await fetch(urlOf(f), { headers: { authorization: `Bearer ${idToken}` } });
      if (res.status !== 200) throw new Error(`GET ${urlOf(f)}: ${res.status} ${await res.text()}`);
      return ((await res.json()) as { total: number }).total;
    };
    const [me] = await client<{ id: number }[]>`select customer_id as id from customer where email = 'ilimitado@estudio.demo'`;
    const customerId = me?.id ?? 0;
    /** The statements listVideos runs for the search itself, as drizzle renders them, sent with postgres.js. */
    const viaSql = async (f: VideoFilters) => {
      const where = videoWhere(f, customerId, new Date());
      const rank = sql`ts_rank(${video.search}, ${searchTsQuery(f.query ?? '') ?? sql`''::tsquery`})`;
      const total = db.select({ n: count() }).from(video).where(where).toSQL();
      const page = db
        .select({ id: video.video_id })
        .from(video)
        .where(where)
        .orderBy(desc(rank), desc(video.release_date), desc(video.video_id))
        .limit(VIDEO_PAGE_SIZE)
        .toSQL();
      const [n] = await client.unsafe(total.sql, total.params as never[]);
      await client.unsafe(page.sql, page.params as never[]);
      // drizzle maps columns by position, so the count comes back unnamed ('count').
      return Number(Object.values(n ?? {})[0] ?? 0);
    };

    const measure = async (run: (f: VideoFilters) => Promise<number>) => {
      const times: number[] = [];
      const totals: number[] = [];
      for (const f of queries) {
        const started = performance.now();
        totals.push(await run(f));
        times.push(performance.now() - started);
      }
      return { sorted: [...times].sort((a, b) => a - b), totals };
    };

    if (process.env.BENCH_EXPLAIN) {
      const where = videoWhere(queries[1] ?? {}, customerId, new Date());
      const q = db.select({ n: count() }).from(video).where(where).toSQL();
      const plan = await client.unsafe(`explain analyze ${q.sql}`, q.params as never[]);
      console.log(plan.map((r) => Object.values(r)[0]).join('\n'));
    }

    // Warm-up: JIT, prepared statements, caches.
    for (const f of queries.slice(0, 20)) {
      await viaApi(f);
      await viaSql(f);
    }
    const api = await measure(viaApi);
    const direct = await measure(viaSql);
    const mismatch = api.totals.findIndex((t, i) => t !== direct.totals[i]);
    if (mismatch !== -1) throw new Error(`query ${mismatch}: /api total ${api.totals[mismatch]} vs SQL ${direct.totals[mismatch]}`);
    const matched = api.totals.reduce((a, b) => a + b, 0) / api.totals.length;

    console.log(`\nVideo search on PostgreSQL: ${videoCount} videos added to the demo library (${loadSeconds.toFixed(1)} s to insert in batches of 500)`);
    console.log(`${queryCount} sequential queries (16 Spanish terms, half with a tag filter), ${matched.toFixed(0)} matches on average, page of ${VIDEO_PAGE_SIZE}\n`);
    console.log('path                                   p50 ms   p95 ms   max ms');
    for (const [label, r] of [
      ['GET /api/videos (HTTP, full answer)', api],
      ['postgres.js (count + page of ids)', direct],
    ] as const) {
      console.log(
        `${label.padEnd(38)} ${percentile(r.sorted, 50).toFixed(2).padStart(6)}   ${percentile(r.sorted, 95).toFixed(2).padStart(6)}   ${(r.sorted.at(-1) ?? 0).toFixed(2).padStart(6)}`,
      );
    }
  } finally {
    await app.close();
    await pool.close();
    await testDb.close();
  }
}

await main();
