import { searchKey } from '@estudio/core';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db.ts';

/**
 * Which piece of a customer search the trigram index looks up (decision 062).
 *
 * pg_trgm answers `search_text like '%text%'` from customer_search_idx by
 * looking up every trigram of the text and intersecting the lists. A trigram
 * most customers have ('com', 'gma' and '@gm' of '@gmail.com') has a list as
 * long as the table: it removes few candidates, yet the intersection walks it
 * from end to end. At 200,000 customers 'crece-2053@' read 240 blocks of the
 * index where '2053@' read 8. So the index is asked for the piece of the text
 * that leaves out the trigrams more than half of the customers have, and the
 * whole text is checked on the rows it finds (admin-customers.ts, matching).
 *
 * The shares come from ANALYZE: the statistics object customer_search_trigrams
 * (migration 0018) keeps the most common trigrams of the search texts and the
 * share of customers that has each. They only choose the piece; any piece of
 * the text finds every row the text finds, so stale or missing statistics can
 * make a search slower, never wrong.
 */

/** A trigram in more than this share of the customers' texts is left out of the index's lookup. */
export const commonTrigramShare = 0.5;

/**
 * What ANALYZE last saw of the customers' search texts: the share of them that has each of the most common trigrams
 * (pg_trgm's show_trgm). Empty while the table has never been analyzed.
 */
export interface TrigramStatistics {
  shares: ReadonlyMap<string, number>;
}

/** How long the server keeps the statistics it read: they move as the studio grows, over weeks, not minutes. */
export const trigramStatisticsRefreshMs = 10 * 60_000;

const read = new WeakMap<object, { at: number; statistics: Promise<TrigramStatistics> }>();

/**
 * The trigram statistics of the customers' search texts, read at most every
 * trigramStatisticsRefreshMs per database. Empty while the table has never
 * been analyzed, and when the server's role does not own the table
 * (PostgreSQL shows a table's statistics to its owner): then the whole text is
 * looked up, as before decision 062.
 */
export function customerTrigramStatistics(db: Db, now = Date.now()): Promise<TrigramStatistics> {
  const kept = read.get(db);
  if (kept && now - kept.at < trigramStatisticsRefreshMs) return kept.statistics;
  const statistics = readTrigramStatistics(db);
  read.set(db, { at: now, statistics });
  // A failed read is not kept: the next search asks again.
  statistics.catch(() => read.delete(db));
  return statistics;
}

async function readTrigramStatistics(db: Db): Promise<TrigramStatistics> {
  const [row] = await db
    .select({
      trigrams: sql<string[] | null>`to_json(most_common_elems::text::text[])`,
      shares: sql<number[] | null>`to_json(most_common_elem_freqs)`,
    })
    .from(sql`pg_stats_ext_exprs`)
    .where(sql`statistics_name = 'customer_search_trigrams' and statistics_schemaname = current_schema()`)
    .limit(1);
  const trigrams = row?.trigrams ?? [];
  // most_common_elem_freqs has three figures more than there are trigrams (the least and the most common share among
  // them, and the share of empty texts): only the first ones belong to the trigrams.
  return { shares: new Map(trigrams.map((trigram, i) => [trigram, row?.shares?.[i] ?? 0])) };
}

/** pg_trgm's word characters (its default build keeps letters and digits only). */
const wordCharacter = /[\p{L}\p{N}]/u;

/**
 * A trigram of the text: which one, and the positions [from, to) a piece must
 * span to have it. pg_trgm pads a word with two spaces before it and one after
 * it; in `like '%piece%'` (generate_wildcard_trgm) a side of a word is padded
 * only when the pattern shows where the word ends there: the piece has the
 * character before it, or after it. So '2053@' has '205', '053' and '53 ',
 * and '-2053@' also '  2' and ' 20'.
 */
interface TrigramSpan {
  trigram: string;
  from: number;
  to: number;
}

/** Every trigram some piece of `chars` (the folded text, one entry per character of the typed one) can have. */
function trigramSpans(chars: readonly string[]): TrigramSpan[] {
  const spans: TrigramSpan[] = [];
  let start = 0;
  while (start < chars.length) {
    if (!wordCharacter.test(chars[start] ?? '')) {
      start++;
      continue;
    }
    let end = start;
    while (end < chars.length && wordCharacter.test(chars[end] ?? '')) end++;
    // The word padded as pg_trgm pads it; each padded position remembers which position of the text it needs.
    const padded: { c: string; at: number }[] = [
      ...(start > 0 ? [' ', ' '].map((c) => ({ c, at: start - 1 })) : []),
      ...chars.slice(start, end).map((c, i) => ({ c, at: start + i })),
      ...(end < chars.length ? [{ c: ' ', at: end }] : []),
    ];
    for (let i = 0; i + 3 <= padded.length; i++) {
      const three = padded.slice(i, i + 3);
      spans.push({ trigram: three.map((p) => p.c).join(''), from: three[0]!.at, to: three[2]!.at + 1 });
    }
    start = end;
  }
  return spans;
}

/**
 * The trigrams pg_trgm looks up for `like '%piece%'`, piece folded as searched
 * (core's searchKey); exported for the test that holds it to pg_trgm's own.
 */
export function likeTrigrams(piece: string): string[] {
  const chars = [...piece].map(searchKey);
  return [...new Set(trigramSpans(chars).map((s) => s.trigram))];
}

/**
 * The piece of `text` (as typed, spaces already collapsed) for the index to look
 * up: the one with the most trigrams among those with no common trigram
 * (commonTrigramShare), as characters [start, end) of the text; undefined when
 * the whole text is that piece, or when no piece has a trigram that is not
 * common (then there is nothing better to look up than the whole text).
 * Trigrams the statistics do not list are rarer than every listed one.
 */
export function indexPiece(text: string, { shares }: TrigramStatistics): { start: number; end: number } | undefined {
  if (shares.size === 0) return undefined;
  // Folded one character at a time, so a position in the folded text is the same position in the typed one.
  const chars = [...text].map(searchKey);
  const spans = trigramSpans(chars);
  const isCommon = (s: TrigramSpan) => (shares.get(s.trigram) ?? 0) > commonTrigramShare;
  if (!spans.some(isCommon)) return undefined;
  let best: { start: number; end: number; trigrams: number; share: number } | undefined;
  for (let start = 0; start < chars.length; start++) {
    // The longest piece from `start`: it ends before the first common trigram that begins at or after `start`
    // ends, since a longer piece would have it.
    const end = Math.min(chars.length, ...spans.filter((s) => isCommon(s) && s.from >= start).map((s) => s.to - 1));
    const inside = new Set(spans.filter((s) => s.from >= start && s.to <= end).map((s) => s.trigram));
    if (inside.size === 0) continue;
    const share = [...inside].reduce((sum, t) => sum + (shares.get(t) ?? 0), 0);
    // Most trigrams first, then the rarer ones; of pieces that look up the same trigrams, the shortest.
    const better =
      !best ||
      inside.size > best.trigrams ||
      (inside.size === best.trigrams && (share < best.share || (share === best.share && end - start < best.end - best.start)));
    if (better) best = { start, end, trigrams: inside.size, share };
  }
  return best && { start: best.start, end: best.end };
}

