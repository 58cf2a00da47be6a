/**
 * The RFC (Registro Federal de Contribuyentes), the SAT's tax id: 13
 * characters for a person (persona física: 4 letters, the birth date as
 * YYMMDD, a 3-character homoclave) and 12 for a company (persona moral: 3
 * letters, the date of incorporation, the homoclave). The homoclave's last
 * character is a check digit over the first 12 (or 11) characters.
 */

export type RfcKind = 'fisica' | 'moral';

/** The SAT's generic RFCs: the public in general (global invoices) and foreigners. Never a customer's own. */
export const genericRfcs = { publicoEnGeneral: 'XAXX010101000', extranjero: 'XEXX010101000' } as const;

/** Each character's value in the SAT's check-digit algorithm: 0-9 → 0-9, A-N → 10-23, & → 24, O-Z → 25-36, space → 37, Ñ → 38. */
const checkDigitAlphabet = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';

/** Upper case, no spaces, dots or dashes ('gode-561231-gr8' → 'GODE561231GR8'). */
export function normalizeRfc(value: string): string {
  return value.normalize('NFC').toUpperCase().replace(/[\s.\-_]/g, '');
}

const fisicaFormat = /^[A-ZÑ&]{4}(\d{2})(\d{2})(\d{2})[A-Z\d]{2}[A\d]$/;
const moralFormat = /^[A-ZÑ&]{3}(\d{2})(\d{2})(\d{2})[A-Z\d]{2}[A\d]$/;

/** 'fisica' for a 13-character RFC, 'moral' for a 12-character one, null when its shape is neither. */
export function rfcKind(rfc: string): RfcKind | null {
  if (fisicaFormat.test(rfc)) return 'fisica';
  if (moralFormat.test(rfc)) return 'moral';
  return null;
}

/**
 * The check digit of an RFC (its last character) from the first 12 of its
 * 13 characters (a company's 12-character RFC gets a leading space): each
 * character's value times its weight, 13 down to 2, summed; the remainder
 * mod 11 of 0 gives '0', otherwise 11 − remainder, written 'A' for 10.
 */
export function rfcCheckDigit(rfc: string): string {
  const padded = rfc.length === 12 ? ` ${rfc}` : rfc;
  let sum = 0;
  for (let i = 0; i < 12; i += 1) {
    const value = checkDigitAlphabet.indexOf(padded[i] ?? '');
    if (value < 0) return '';
    sum += value * (13 - i);
  }
  const remainder = sum % 11;
  if (remainder === 0) return '0';
  const digit = 11 - remainder;
  return digit === 10 ? 'A' : String(digit);
}

/** A YYMMDD that names a real day (either century: 00 is 2000 or 1900, both valid for the day and month). */
function isRealDate(yy: string, mm: string, dd: string): boolean {
  const month = Number(mm);
  const day = Number(dd);
  if (month < 1 || month > 12 || day < 1) return false;
  // 29 February is valid in a leap year of either century the two digits could mean.
  const years = [1900 + Number(yy), 2000 + Number(yy)];
  return years.some((year) => day <= new Date(Date.UTC(year, month, 0)).getUTCDate());
}

export type RfcProblem = 'empty' | 'format' | 'date' | 'check-digit' | 'generic';

/**
 * Why a typed RFC cannot be a customer's own, or null when it can: its
 * shape (4 or 3 letters, 6 digits of a date, 3 characters), a real date,
 * and its check digit. The generic RFCs (público en general, extranjero)
 * are refused: they are for the studio's global invoice, not a person.
 */
export function rfcProblem(value: string): RfcProblem | null {
  const rfc = normalizeRfc(value);
  if (!rfc) return 'empty';
  if (rfc === genericRfcs.publicoEnGeneral || rfc === genericRfcs.extranjero) return 'generic';
  const match = fisicaFormat.exec(rfc) ?? moralFormat.exec(rfc);
  if (!match) return 'format';
  if (!isRealDate(match[1] as string, match[2] as string, match[3] as string)) return 'date';
  if (rfcCheckDigit(rfc) !== rfc.at(-1)) return 'check-digit';
  return null;
}
