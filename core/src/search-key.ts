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
  // Column j of the rows: the distance from a prefix of typed to word's first j letters; only j ≤ n + limit matters.
  const width = Math.min(word.length, n + limit);
  let before = new Array<number>(width + 1).fill(0);
  let previous = Array.from({ length: width + 1 }, (_, j) => j);
  let current = new Array<number>(width + 1).fill(0);
  for (let i = 1; i <= n; i++) {
    current[0] = i;
    let best = i;
    const t = typed.charCodeAt(i - 1);
    for (let j = 1; j <= width; j++) {
      const w = word.charCodeAt(j - 1);
      let d = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (t === w ? 0 : 1));
      if (i > 1 && j > 1 && t === word.charCodeAt(j - 2) && typed.charCodeAt(i - 2) === w) d = Math.min(d, (before[j - 2] as number) + 1);
      current[j] = d;
      if (d < best) best = d;
    }
    if (best > limit) return null;
    [before, previous, current] = [previous, current, before];
  }
  // The typed word ends anywhere in the word: the best of the last row (after the swap, in `previous`).
  let distance = Infinity;
  for (let j = Math.max(0, n - limit); j <= width; j++) distance = Math.min(distance, previous[j] as number);
  return distance <= limit ? distance : null;
}
