/**
 * Code 128 barcodes for the OXXO voucher's reference on the order page and in
 * the e-mail: the cashier scans it from the customer's phone. Digits go in
 * code set C (two per symbol); an odd-length reference starts with its first
 * digit in code set B. Pure: the portal draws the modules as SVG bars.
 */

/** The bar/space widths of each symbol value (0-105), then the stop pattern; each symbol is 11 modules wide, the stop 13. */
const patterns = [
  '212222', '222122', '222221', '121223', '121322', '131222', '122213', '122312', '132212', '221213',
  '221312', '231212', '112232', '122132', '122231', '113222', '123122', '123221', '223211', '221132',
  '221231', '213212', '223112', '312131', '311222', '321122', '321221', '312212', '322112', '322211',
  '212123', '212321', '232121', '111323', '131123', '131321', '112313', '132113', '132311', '211313',
  '231113', '231311', '112133', '112331', '132131', '113123', '113321', '133121', '313121', '211331',
  '231131', '213113', '213311', '213131', '311123', '311321', '331121', '312113', '312311', '332111',
  '314111', '221411', '431111', '111224', '111422', '121124', '121421', '141122', '141221', '112214',
  '112412', '122114', '122411', '142112', '142211', '241211', '221114', '413111', '241112', '134111',
  '111242', '121142', '121241', '114212', '124112', '124211', '411212', '421112', '421211', '212141',
  '214121', '412121', '111143', '111341', '131141', '114113', '114311', '411113', '411311', '113141',
  '114131', '311141', '411131', '211412', '211214', '211232', '2331112',
] as const;

export const code128Patterns: readonly string[] = patterns;

const startB = 104;
const startC = 105;
const codeC = 99;
const stop = 106;

/** The symbol values of a numeric text (start, data, check symbol, stop), or null when it is not only digits. */
export function code128Values(digits: string): number[] | null {
  if (!/^\d+$/.test(digits)) return null;
  const values: number[] = [];
  let rest = digits;
  if (digits.length % 2 === 1) {
    // Set B writes one digit as its ASCII code minus 32; then code C for the pairs.
    values.push(startB, (digits.charCodeAt(0) - 32), codeC);
    rest = digits.slice(1);
  } else values.push(startC);
  for (let i = 0; i < rest.length; i += 2) values.push(Number(rest.slice(i, i + 2)));
  const check = values.reduce((sum, value, i) => sum + value * (i === 0 ? 1 : i), 0) % 103;
  values.push(check, stop);
  return values;
}

/**
 * The barcode as alternating bar and space widths in modules, starting with
 * a bar, quiet zones excluded (the caller leaves 10 modules each side).
 */
export function code128Modules(digits: string): number[] | null {
  const values = code128Values(digits);
  if (!values) return null;
  return values.flatMap((value) => [...(patterns[value] as string)].map(Number));
}
