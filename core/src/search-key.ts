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
