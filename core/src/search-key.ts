/**
 * One rule for what staff type and what a name is searched by: accents and
 * case do not count ('López', 'LOPEZ' and 'lopez' are the same word). Used in
 * JavaScript (`searchKey`, `searchWords`) and in SQL as
 * `lower(translate(text, searchFold.from, searchFold.to))`, which gives the
 * same text: `translate` maps each accented letter to its plain lowercase
 * letter one for one, and `lower` (C collation) then lowers ASCII only, as
 * `searchKey` does.
 */
const groups: Record<string, string> = {
  a: 'ÁÀÂÄÃÅĀĂĄáàâäãåāăą',
  c: 'ÇĆČçćč',
  e: 'ÉÈÊËĒĖĘĚéèêëēėęě',
  i: 'ÍÌÎÏĪíìîïī',
  n: 'ÑŃŇñńň',
  o: 'ÓÒÔÖÕØŌóòôöõøō',
  u: 'ÚÙÛÜŪŮúùûüūů',
  y: 'ÝŸýÿ',
  s: 'ŠšŚś',
  z: 'ŽžŹźŻż',
};

export const searchFold: { readonly from: string; readonly to: string } = {
  from: Object.values(groups).join(''),
  to: Object.entries(groups)
    .map(([plain, accented]) => plain.repeat([...accented].length))
    .join(''),
};

const folded = new Map([...searchFold.from].map((c, i) => [c, searchFold.to[i] as string]));

/** The text as searched: accented letters plain, ASCII lowercase. */
export function searchKey(text: string): string {
  let out = '';
  for (const c of text) out += folded.get(c) ?? c;
  return out.replace(/[A-Z]+/g, (s) => s.toLowerCase());
}

/** The words of a text as searched: runs of a-z and 0-9 of its `searchKey` ('Ana-Sofía O'Neil' → ana, sofia, o, neil). */
export function searchWords(text: string): string[] {
  return searchKey(text)
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * The digits of a phone as searched: every run of 4 or more of its digits is
 * the start of one of these suffixes ('5512349666' → 5512349666, 512349666, …, 9666).
 */
export function phoneSearchSuffixes(phone: string): string[] {
  const digits = phone.replace(/\D/g, '');
  const out: string[] = [];
  for (let i = 0; i + 4 <= digits.length; i++) out.push(digits.slice(i));
  return out;
}

/**
 * How many slips a typed word may have and still find a name: none below four letters (too many short words are
 * one letter apart), one from four, two from eight ('Gonzales', 'Ramires', 'Marina Lopes').
 */
export function allowedTypos(typedLength: number): number {
  return typedLength < 4 ? 0 : typedLength < 8 ? 1 : 2;
}

/**
 * The fewest slips (a letter changed, missing, extra, or two swapped) that turn a typed word into the start of
 * `word`, both as `searchWords` gives them; null when that takes more than `allowedTypos`. The start, because staff
 * search as they type: 'gonsal' reaches 'gonzalez'. Optimal string alignment over the typed word's rows and the
 * word's columns, stopped as soon as no column can come back under the limit.
 */
export function typosToReach(typed: string, word: string): number | null {
  const limit = allowedTypos(typed.length);
  const n = typed.length;
  if (word.length < n - limit) return null;
  // Column j of a row: the distance from a prefix of typed to word's first j letters; only j ≤ n + limit matters.
  const width = Math.min(word.length, n + limit);
  // Each slip leaves at most one typed letter that the word's start lacks: more missing letters, no need to align.
  if (lettersMissing(typed, word, width) > limit) return null;
  // Three rows reused from call to call: a search tries thousands of words per keystroke.
  if (rows[0].length <= width) rows = [new Int32Array(width + 1), new Int32Array(width + 1), new Int32Array(width + 1)];
  let [before, previous, current] = rows;
  for (let j = 0; j <= width; j++) previous[j] = j;
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    let best = i;
    const t = typed.charCodeAt(i - 1);
    const tBefore = i > 1 ? typed.charCodeAt(i - 2) : -1;
    for (let j = 1; j <= width; j++) {
      const w = word.charCodeAt(j - 1);
      let d = previous[j - 1]! + (t === w ? 0 : 1);
      const up = previous[j]! + 1;
      if (up < d) d = up;
      const left = current[j - 1]! + 1;
      if (left < d) d = left;
      if (j > 1 && t === word.charCodeAt(j - 2) && tBefore === w && before[j - 2]! + 1 < d) d = before[j - 2]! + 1;
      current[j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return null;
    [before, previous, current] = [previous, current, before];
  }
  // The typed word ends anywhere in the word: the best of the last row (after the swap, in `previous`).
  let distance = limit + 1;
  for (let j = Math.max(0, n - limit); j <= width; j++) if (previous[j]! < distance) distance = previous[j]!;
  return distance <= limit ? distance : null;
}

let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(32), new Int32Array(32), new Int32Array(32)];

/** How many of typed's letters (as a multiset) the word's first `width` letters do not have. */
function lettersMissing(typed: string, word: string, width: number): number {
  for (let j = 0; j < width; j++) letterCounts[word.charCodeAt(j) & 127]!++;
  let missing = 0;
  for (let i = 0; i < typed.length; i++) {
    const c = typed.charCodeAt(i) & 127;
    if (letterCounts[c]! > 0) letterCounts[c]!--;
    else missing++;
  }
  for (let j = 0; j < width; j++) letterCounts[word.charCodeAt(j) & 127] = 0;
  return missing;
}

const letterCounts = new Int32Array(128);
