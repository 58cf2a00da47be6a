import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { packageAccessStatuses, scheduleOutput, studioTimeZone, type SingleClassOutput } from '@estudio/core';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '@estudio/db';
import { preparedStatement } from '@estudio/db/prepared';
import type { Db } from '../db.ts';
import { datesBetween, panelWeekClass } from '../legacy/shapes.ts';
import { listSchedule, type ScheduleFilters } from '../services/schedule/list-schedule.ts';
import { loadPlaces, placesOf } from '../services/schedule/single-class-output.ts';
import { loadStudioSettings } from '../services/schedule/studio-settings.ts';

/** A week as GET /api/single_class answers it, with the representation's ETag and its JSON text. */
export interface WeekRead {
  single_classes: SingleClassOutput[];
  /** Strong ETag of this representation (anonymous and signed-in answers never share one). */
  etag: string;
  /**
   * GET /api/single_class's JSON, built from pre-serialised classes:
   * `{"single_classes":[…],"classes":[{"date","details":[…]}…]}`, the second
   * part being the previous panel's days (decision 033, legacy-admin.ts).
   */
  json(): string;
  /** The same as bytes (the anonymous answer's are encoded once per cached week). */
  bytes(): Buffer;
  /**
   * The bytes compressed with `coding` (decision 047). The anonymous answer's
   * are compressed once per cached week and kept with it, so a hit sends them
   * as they are; a signed-in answer is compressed for its one request.
   */
  encoded(coding: WeekCoding): Promise<Buffer>;
}

/** The content codings the week is sent in besides identity, best first. */
export const weekCodings = ['br', 'gzip'] as const;
export type WeekCoding = (typeof weekCodings)[number];

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/**
 * Compresses a week's JSON. Brotli at quality 5: about the bytes of gzip -9
 * in a few milliseconds (quality 11 takes ~100 ms for 80 KB, paid on every
 * change of a week); both run in libuv's pool, off the event loop.
 */
function compress(bytes: Buffer, coding: WeekCoding): Promise<Buffer> {
  return coding === 'br'
    ? brotli(bytes, {
        params: {
          [zlibConstants.BROTLI_PARAM_MODE]: zlibConstants.BROTLI_MODE_TEXT,
          [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
          [zlibConstants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      })
    : gzipped(bytes, { level: 6 });
}

export interface WeekCacheStats {
  hits: number;
  /** Reads that found the week changed (a reload or a refresh). */
  misses: number;
  /** Misses answered by re-reading only the week's places, or nothing at all (decision 056). */
  refreshes: number;
}

export interface WeekCache {
  /**
   * The classes of `filters` (listSchedule's answer), the shared part from
   * memory when the database has not changed since it was read, and for a
   * signed-in customer their own reservations, waitlist entries and package
   * access from the same statement that checks freshness.
   */
  read(db: Db, filters: ScheduleFilters, customerId: number | null): Promise<WeekRead>;
  readonly stats: WeekCacheStats;
}

/** Filter combinations kept; a new one beyond this forgets the least recently read. */
const maxEntries = 256;

interface Entry {
  stamp: string;
  /** The stamp's snapshot (pg_snapshot as text): a change whose transaction it saw is already in the entry. */
  snapshot: string;
  /** The stamp's parts the log does not cover (zone, photos, tags): a refresh needs them unchanged. */
  outside: string;
  /** The studio's zone the panel's wall times were written in. */
  zone: string;
  /** The studio dates asked for: the panel's days are every one of them, empty ones too. */
  range: { start_date: string; end_date: string };
  classes: SingleClassOutput[];
  /** Each class's JSON without its last three (per-caller) fields and without the closing brace. */
  heads: string[];
  /** The class as the panel's week reads it (panelWeekClass), without its last three fields and the closing brace. */
  panelHeads: string[];
  /** Each class's day on the studio's wall clock (the panel's day it is listed under). */
  classDays: string[];
  /** The panel's days in order, each with the positions of its classes. */
  days: { date: string; members: number[] }[];
  anonymousJson: string;
  anonymousBytes: Buffer;
  /** The anonymous bytes compressed, made on first demand and kept as long as the entry (a failed one is forgotten). */
  anonymousEncoded: Map<WeekCoding, Promise<Buffer>>;
  etag: string;
}

interface Stamp {
  stamp: string;
  /** The statement's snapshot (pg_snapshot as text), which the entry read under this stamp keeps. */
  snapshot: string;
  outside: string;
  /** The snapshot of the entry the changes were listed against, or null when there was no entry. */
  since: string | null;
  /** The tables of the log's changes the asking entry had not seen, or null when there are too many to list (or no entry). */
  changedTables: Set<string> | null;
  own: OwnRows | null;
}

interface OwnRows {
  own: { single_class_id: number; class_reservation_id: number; spot: number | null; guest: string | null; guest_spot: number | null }[];
  waits: { single_class_id: number; waitlist_id: number }[];
  access: number[];
}

const hash = (text: string) => createHash('sha1').update(text).digest('base64url').slice(0, 22);

/**
 * Classes within a day and a half of the asked dates, whatever the studio's
 * zone (zones are at most 14 h from UTC): the range the fingerprints and a
 * customer's own rows read before the zone itself is known.
 */
function widened(filters: ScheduleFilters): { from: Date; to: Date } {
  return {
    from: new Date(Date.parse(`${filters.start_date}T00:00:00Z`) - 36 * 3_600_000),
    to: new Date(Date.parse(`${filters.end_date}T00:00:00Z`) + 60 * 3_600_000),
  };
}

/** The week's range, as text cast in SQL: drizzle hands a bound parameter's value to the driver as it is. */
const rangeFrom = sql`${sql.placeholder('from')}::timestamptz`;
const rangeTo = sql`${sql.placeholder('to')}::timestamptz`;

/**
 * What readStamp reads for everyone (see there). `h` is the statement's one
 * row: its snapshot, and that snapshot's xmin. Written as SQL with qualified names: in a select's
 * fields drizzle renders its columns without their table, which is ambiguous
 * in these joins.
 */
function stampColumns() {
  const sinceSnapshot = sql`${sql.placeholder('sinceSnapshot')}::pg_snapshot`;
  const listLimit = sql.raw(String(changesListed + 1));
  return {
    snapshot: sql<string>`h.snapshot`,
    settled: sql<string | null>`(select c.txid::text || ':' || c.change_id::text from sync_change c where c.txid < h.xmin order by c.txid desc, c.change_id desc limit 1)`,
    recent: sql<string | null>`(select count(*) from sync_change c where c.txid >= h.xmin)::text`,
    zone: sql<string | null>`(select string_agg(a.key || '=' || a.value, ';' order by a.key) from app_config a where a.key in ('timezone', 'timezone_offset'))`,
    photos: sql<string | null>`(select md5(coalesce(string_agg(i.instructor_id || ':' || f.file_id || ':' || f.src || ':' || f.name || ':' || f.type, ';'
      order by i.instructor_id), '')) from instructor i join file f on f.file_id = i.file_id)`,
    // The week's classes first, by their date (a materialized CTE): the statement is prepared, and its generic plan,
    // not knowing the dates, walked single_class by its key to merge with the few tagged classes, 409 blocks at
    // 100x the classes (bench/growth.ts), where the week's own classes are 5.
    tags: sql<string | null>`(with week as materialized (select sc.single_class_id from single_class sc where sc.class_date >= ${rangeFrom} and sc.class_date <= ${rangeTo})
      select md5(coalesce(string_agg(st.single_class_id || ':' || t.tag_id || ':' || t.name || ':' || coalesce(t.color, ''), ';'
      order by st.single_class_id, t.tag_id), ''))
      from week w join single_class_tag st on st.single_class_id = w.single_class_id join tag t on t.tag_id = st.tag_id)`,
    // The changes the cached entry's snapshot did not see, at most changesListed + 1 of each kind, and their tables:
    // "count:table,table". Unseen are the transactions at or after the snapshot's xmax, and those it saw running (its
    // xip list, a late commit among them), each looked up in sync_change_position_idx (a lateral join: `= any` of an
    // array the planner cannot see read all of sync_change instead). So the cost is the unseen changes themselves,
    // even while a transaction anywhere in the cluster holds the xmin (and the settled position) back behind changes
    // the entry already shows. A null snapshot (no entry) gives "0:".
    changed: sql<string | null>`(select count(*)::text || ':' || coalesce(string_agg(distinct t.table_name, ','), '') from (
      (select c.table_name from sync_change c where c.txid >= pg_snapshot_xmax(${sinceSnapshot})::text::bigint order by c.txid, c.change_id limit ${listLimit})
      union all
      (select c.table_name from pg_snapshot_xip(${sinceSnapshot}) x
        cross join lateral (select c.table_name from sync_change c where c.txid = x::text::bigint order by c.txid, c.change_id limit ${listLimit}) c
        limit ${listLimit})) t)`,
  };
}

/** How many changes an entry did not see a stamp lists; a week behind by more is read again whole. */
const changesListed = 200;

/**
 * The tables of the change log (decision 008) by what a change of theirs does
 * to the shared part of a cached week (decision 056). Any table of the log
 * not named here reads the week again whole: a table the week starts to show
 * is safe by default. server/test/schedule/week-cache.test.ts checks that every table
 * with a log trigger is named here or in weekReloadTables.
 */
export const weekPlacesTables: ReadonlySet<string> = new Set(['class_reservation']);
/** The week's shared part shows nothing of these (the caller's own rows come from the stamp statement itself). */
export const weekUnshownTables: ReadonlySet<string> = new Set([
  'accepted_page',
  'available_classes',
  'class_package',
  'class_reservation_penalty',
  'customer',
  'customer_note',
  'page',
  'payment_method',
  'product',
  'purchase',
  'waitlist',
]);
/** The tables whose changes read the week again whole (listed for the test; unknown tables do the same). */
export const weekReloadTables: ReadonlySet<string> = new Set(['class_type', 'instructor', 'location', 'room', 'single_class', 'single_class_instructor']);

/** The signed-in caller's own rows of the week, read in the same statement. */
function ownColumns() {
  const customerId = sql.placeholder('customerId');
  const statuses = sql.join(
    packageAccessStatuses.map((status) => sql`${status}`),
    sql`, `,
  );
  return {
    own: sql<string | null>`(select coalesce(json_agg(json_build_object('single_class_id', r.single_class_id, 'class_reservation_id', r.class_reservation_id,
        'spot', r.spot, 'guest', r.guest, 'guest_spot', r.guest_spot) order by r.class_reservation_id), '[]'::json)
      from class_reservation r join single_class sc on sc.single_class_id = r.single_class_id
      where r.customer_id = ${customerId} and r.deleted_at is null and sc.class_date >= ${rangeFrom} and sc.class_date <= ${rangeTo})::text`,
    waits: sql<string | null>`(select coalesce(json_agg(json_build_object('single_class_id', w.single_class_id, 'waitlist_id', w.waitlist_id)), '[]'::json)
      from waitlist w join single_class sc on sc.single_class_id = w.single_class_id
      where w.customer_id = ${customerId} and sc.class_date >= ${rangeFrom} and sc.class_date <= ${rangeTo})::text`,
    access: sql<string | null>`(select coalesce(json_agg(distinct p.class_package_id), '[]'::json) from purchase p
      where p.customer_id = ${customerId} and p.status in (${statuses}))::text`,
  };
}

const snapshotRow = sql`(select s::text as snapshot, pg_snapshot_xmin(s)::text::bigint as xmin from pg_current_snapshot() s) h`;

/*
 * Built once (db/src/prepared.ts): drizzle built this text on every signed-in
 * week, 10 % of its CPU.
 */
/** The anonymous freshness statement, unprepared (its generic plan is checked in week-stamp-plan.postgres.test.ts). */
export const anonymousStampQuery = (db: DbOrTx) => db.select(stampColumns()).from(snapshotRow);
const anonymousStamp = preparedStatement((db) => anonymousStampQuery(db).prepare('week_stamp_since'));
const signedStamp = preparedStatement((db) => db.select({ ...stampColumns(), ...ownColumns() }).from(snapshotRow).prepare('week_stamp_since_signed'));

/**
 * One statement that says whether anything the week shows may have changed,
 * read at the same instant as the caller's own rows:
 * - the change log (decision 008): the newest settled position (txid below
 *   the oldest running transaction) and the number of committed changes
 *   above that horizon. Together they move whenever any change commits, even
 *   a late commit of an old transaction that the position alone would not
 *   show while an older transaction is still open (decision 041 has the
 *   argument). The log covers classes, reservations, class types, locations,
 *   coaches and their classes, packages, purchases and waitlists;
 * - what the log does not cover, fingerprinted here so the cache never
 *   depends on it silently: the studio's zone settings (app_config), the
 *   week's tags (single_class_tag, tag) and the coaches' photos (file).
 */
async function readStamp(db: Db, filters: ScheduleFilters, customerId: number | null, since: string | null): Promise<Stamp> {
  const range = widened(filters);
  const values = {
    from: range.from.toISOString(),
    to: range.to.toISOString(),
    customerId,
    sinceSnapshot: since,
  };
  const rows: Partial<Record<keyof ReturnType<typeof stampColumns> | keyof ReturnType<typeof ownColumns>, string | null>>[] =
    customerId === null ? await anonymousStamp(db, values) : await signedStamp(db, values);
  const row = rows[0] ?? {};
  const outside = [row.zone ?? '', row.photos ?? '', row.tags ?? ''].join('|');
  const stamp = [row.settled ?? '0:0', row.recent ?? '0', outside].join('|');
  const [listed, tables] = (row.changed ?? '0:').split(/:(.*)/s);
  const changedTables = since === null || Number(listed) > changesListed ? null : new Set((tables ?? '').split(',').filter(Boolean));
  const own =
    customerId === null
      ? null
      : {
          own: JSON.parse(row.own ?? '[]') as OwnRows['own'],
          waits: JSON.parse(row.waits ?? '[]') as OwnRows['waits'],
          access: JSON.parse(row.access ?? '[]') as number[],
        };
  return { stamp, snapshot: row.snapshot ?? '', outside, since, changedTables, own };
}

type StampRead = () => Promise<Stamp>;

/**
 * Shares one statement among the callers waiting for it without ever giving
 * a caller an answer read before it called: the first caller starts a read;
 * callers arriving while it runs wait for the next one, which starts when it
 * ends, and share that. A write committed before a caller arrived is in the
 * statement it gets (each statement sees what was committed when it began).
 * Under 20 parallel readers this turns 20 statements per round trip into
 * one, so the freshness check costs the database almost nothing (decision 041).
 */
function readAfterArrival(read: () => Promise<Stamp>, idle: () => void): StampRead {
  let running: Promise<Stamp> | null = null;
  let waiting: Promise<Stamp> | null = null;
  const start = (): Promise<Stamp> => {
    const current = read();
    running = current;
    const settle = () => {
      running = null;
      if (!waiting) idle();
    };
    current.then(settle, settle);
    return current;
  };
  return () => {
    if (!running) return start();
    waiting ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        waiting = null;
        return start();
      });
    return waiting;
  };
}

const sameNumbers = (a: readonly number[], b: readonly number[]) => a.length === b.length && a.every((n, i) => n === b[i]);

const filtersKey = (f: ScheduleFilters) => [f.start_date, f.end_date, f.instructor_id ?? '', f.location_id ?? '', f.class_type_id ?? ''].join('/');

/**
 * The week schedule from memory (decision 041). Every read costs
 * one small statement (readStamp); when it differs from the one the week was
 * read under, the week is brought up to date before answering, so a committed
 * write, through this process or any other, shows on the next read. A booking
 * or a cancellation re-reads only the week's places; a change the shared week
 * does not show re-reads nothing; anything else reads the week again whole
 * (decision 056). Concurrent misses of the same week and stamp share one read.
 */
export function createWeekCache(): WeekCache {
  const entries = new Map<string, Entry>();
  const loading = new Map<string, Promise<Entry>>();
  const stats: WeekCacheStats = { hits: 0, misses: 0, refreshes: 0 };
  const stampReads = new Map<string, StampRead>();
  /** Anonymous readers of one week share stamp statements, but only ones that start after they arrived (readAfterArrival). */
  const sharedStamp = (key: string, read: () => Promise<Stamp>): Promise<Stamp> => {
    let reader = stampReads.get(key);
    if (!reader) {
      reader = readAfterArrival(read, () => stampReads.delete(key));
      stampReads.set(key, reader);
    }
    return reader();
  };

  const load = async (db: Db, filters: ScheduleFilters, read: Stamp): Promise<Entry> => {
    // The stamp was read before the classes, so the classes are at least as new as it says.
    const [listed, settings] = await Promise.all([listSchedule(db, filters, null), loadStudioSettings(db)]);
    const classes = scheduleOutput.parse({ single_classes: listed }).single_classes;
    return entryOf(read, classes, studioTimeZone(settings), { start_date: filters.start_date, end_date: filters.end_date }, null);
  };

  /**
   * The cached week brought up to `read` when only its places can have
   * changed (decision 056): every change the entry may not show belongs to
   * a transaction its snapshot did not see, so the tables of those changes
   * say what to do.
   * Null when the week must be read again whole.
   */
  const refresh = async (db: Db, entry: Entry, read: Stamp): Promise<Entry | null> => {
    const tables = read.changedTables;
    if (tables === null || read.outside !== entry.outside) return null;
    for (const table of tables) if (!weekPlacesTables.has(table) && !weekUnshownTables.has(table)) return null;
    const placesMayDiffer = [...tables].some((table) => weekPlacesTables.has(table));
    if (!placesMayDiffer || entry.classes.length === 0) return { ...entry, stamp: read.stamp, snapshot: read.snapshot };
    const rows = await loadPlaces(db, entry.classes.map((c) => c.single_class_id));
    const placesBy = new Map(rows.map((row) => [row.single_class_id, row]));
    let moved = false;
    const classes = entry.classes.map((c) => {
      const places = placesOf(placesBy.get(c.single_class_id));
      if (places.reservation_count === c.reservation_count && sameNumbers(places.taken_spots, c.taken_spots)) return c;
      moved = true;
      return { ...c, ...places };
    });
    // Nothing this week shows moved: the same answer, bytes and ETag under the new stamp.
    if (!moved) return { ...entry, stamp: read.stamp, snapshot: read.snapshot };
    return entryOf(read, classes, entry.zone, entry.range, entry);
  };

  return {
    stats,
    async read(db, filters, customerId) {
      const key = filtersKey(filters);
      // The changes are listed against what the entry had seen when the statement starts (a shared one starts after its callers arrived).
      const since = () => entries.get(key)?.snapshot ?? null;
      const stamp = customerId === null ? await sharedStamp(key, () => readStamp(db, filters, null, since())) : await readStamp(db, filters, customerId, since());
      const { own } = stamp;
      let entry = entries.get(key);
      if (entry && entry.stamp === stamp.stamp) {
        stats.hits++;
        entries.delete(key);
        entries.set(key, entry);
      } else {
        stats.misses++;
        const loadKey = `${key}#${stamp.stamp}`;
        let pending = loading.get(loadKey);
        if (!pending) {
          const cached = entry;
          pending = (async () => {
            // The changes were listed against the entry current when the stamp was read; a different entry now needs a reload.
            const refreshed = cached && cached.snapshot === stamp.since ? await refresh(db, cached, stamp) : null;
            if (refreshed) stats.refreshes++;
            return refreshed ?? (await load(db, filters, stamp));
          })().finally(() => loading.delete(loadKey));
          loading.set(loadKey, pending);
        }
        entry = await pending;
        entries.delete(key);
        entries.set(key, entry);
        if (entries.size > maxEntries) entries.delete(entries.keys().next().value as string);
      }
      return answerFor(entry, own);
    },
  };
}

/**
 * A cached week from its classes (shared part checked by zod), written in
 * `zone`. A class that is the same object in `previous` keeps its pieces of
 * JSON, so a refresh of a few classes' places rewrites only those.
 */
function entryOf(read: Stamp, classes: SingleClassOutput[], zone: string, range: Entry['range'], previous: Entry | null): Entry {
  const reused = new Map(previous?.classes.map((c, i) => [c, i]) ?? []);
  const heads: string[] = [];
  const panelHeads: string[] = [];
  const classDays: string[] = [];
  const byDay = new Map<string, number[]>(datesBetween(range.start_date, range.end_date).map((d) => [d, []]));
  classes.forEach((c, i) => {
    const kept = reused.get(c);
    let day: string;
    if (previous && kept !== undefined) {
      heads.push(previous.heads[kept] as string);
      panelHeads.push(previous.panelHeads[kept] as string);
      day = previous.classDays[kept] as string;
    } else {
      const { class_reservations: _own, waitlist_id: _wait, package_access: _access, ...shared } = c;
      heads.push(JSON.stringify(shared).slice(0, -1));
      const { waitlist_id: _wait2, package_access: _access2, class_date_utc: _utc, ...panel } = panelWeekClass({ ...shared, waitlist_id: null, package_access: false }, zone);
      panelHeads.push(JSON.stringify(panel).slice(0, -1));
      day = String(panel.class_date).slice(0, 10);
    }
    classDays.push(day);
    // The panel's week has no look for a cancelled class: it lists the classes that take place.
    if (c.cancelledAt === null) byDay.set(day, [...(byDay.get(day) ?? []), i]);
  });
  const days = [...byDay.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([date, members]) => ({ date, members }));
  const entry: Entry = {
    stamp: read.stamp,
    snapshot: read.snapshot,
    outside: read.outside,
    zone,
    range,
    classes,
    heads,
    panelHeads,
    classDays,
    days,
    anonymousJson: '',
    anonymousBytes: Buffer.alloc(0),
    anonymousEncoded: new Map(),
    etag: '',
  };
  entry.anonymousJson = weekJson(entry, null);
  entry.anonymousBytes = Buffer.from(entry.anonymousJson);
  entry.etag = `"w-${hash(entry.anonymousJson)}"`;
  return entry;
}

/** The three per-caller fields that close a class's JSON. */
function tailOf(c: SingleClassOutput, mine: PerClass | null): string {
  return `,"class_reservations":${mine === null ? '[]' : JSON.stringify(mine.reservations)}${panelTailOf(c, mine)}`;
}

/** The per-caller fields that close a class in the panel's days (its class_reservations are the places taken, in the head). */
function panelTailOf(c: SingleClassOutput, mine: PerClass | null): string {
  if (mine === null) return `,"waitlist_id":null,"package_access":${c.class_package_id === null}`;
  return `,"waitlist_id":${JSON.stringify(mine.waitlistId)},"package_access":${mine.access}`;
}

/** The answer's text: the spec's single_classes, then the panel's days (same keys, same order as JSON.stringify of the objects). */
function weekJson(entry: Entry, mine: PerClass[] | null): string {
  const tails = entry.classes.map((c, i) => tailOf(c, mine?.[i] ?? null));
  const spec = entry.classes.map((_, i) => `${entry.heads[i]}${tails[i]}}`);
  const days = entry.days.map(
    (d) =>
      `{"date":${JSON.stringify(d.date)},"details":[${d.members
        .map((i) => `${entry.panelHeads[i]}${panelTailOf(entry.classes[i] as SingleClassOutput, mine?.[i] ?? null)},"class_date_utc":${JSON.stringify(entry.classes[i]?.class_date)}}`)
        .join(',')}]}`,
  );
  return `{"single_classes":[${spec.join(',')}],"classes":[${days.join(',')}]}`;
}

interface PerClass {
  reservations: SingleClassOutput['class_reservations'];
  waitlistId: number | null;
  access: boolean;
}

function answerFor(entry: Entry, own: OwnRows | null): WeekRead {
  if (own === null) {
    const encoded = (coding: WeekCoding) => {
      let kept = entry.anonymousEncoded.get(coding);
      if (!kept) {
        kept = compress(entry.anonymousBytes, coding);
        entry.anonymousEncoded.set(coding, kept);
        kept.catch(() => entry.anonymousEncoded.delete(coding));
      }
      return kept;
    };
    return { single_classes: entry.classes, etag: entry.etag, json: () => entry.anonymousJson, bytes: () => entry.anonymousBytes, encoded };
  }
  const reservationsBy = new Map<number, SingleClassOutput['class_reservations']>();
  for (const r of own.own) {
    const list = reservationsBy.get(r.single_class_id) ?? [];
    list.push({ class_reservation_id: r.class_reservation_id, spot: r.spot, guest: r.guest, guest_spot: r.guest_spot });
    reservationsBy.set(r.single_class_id, list);
  }
  const waitBy = new Map(own.waits.map((w) => [w.single_class_id, w.waitlist_id]));
  const access = new Set(own.access);
  const mine = entry.classes.map(
    (c): PerClass => ({
      reservations: reservationsBy.get(c.single_class_id) ?? [],
      waitlistId: waitBy.get(c.single_class_id) ?? null,
      access: c.class_package_id === null || access.has(c.class_package_id),
    }),
  );
  const single_classes = entry.classes.map((c, i) => {
    const m = mine[i] as PerClass;
    return { ...c, class_reservations: m.reservations, waitlist_id: m.waitlistId, package_access: m.access };
  });
  let json: string | null = null;
  const body = () => (json ??= weekJson(entry, mine));
  // Signed-in answers hash their own part beside the shared one: never equal to an anonymous ETag.
  const etag = `"c-${hash(`${entry.etag}|${JSON.stringify(mine)}`)}"`;
  return { single_classes, etag, json: body, bytes: () => Buffer.from(body()), encoded: (coding) => compress(Buffer.from(body()), coding) };
}

const caches = new WeakMap<Db, WeekCache>();

/** The cache of one database handle (every server and caller of this process that shares `db` shares it). */
export function weekCacheFor(db: Db): WeekCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = createWeekCache();
    caches.set(db, cache);
  }
  return cache;
}

/** The schedule the way listSchedule answers it, from the week cache. */
export async function readWeek(db: Db, filters: ScheduleFilters, customerId: number | null): Promise<SingleClassOutput[]> {
  return (await weekCacheFor(db).read(db, filters, customerId)).single_classes;
}

