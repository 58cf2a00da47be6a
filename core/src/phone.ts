/**
 * Phone editing keeps digits only and cuts to 10 characters (spec, account
 * area §5), and the studio stores Mexico's 10 national digits. Mexico's
 * prefixes are recognised as the WhatsApp rules below read them
 * ('+52 (55) 4444-3333', '0052…', the old mobile '521…', '044'/'045', '01')
 * instead of being cut into another number: the cut alone saved
 * '+52 55 4444 3333' as '5255444433' (decision 090). No national number
 * starts with 52, 0 or 1, so a number that does is kept whole while it is
 * typed (up to 13 digits) and its prefix dropped once complete; a foreign
 * number ('+1 415…', '0044…') is kept as typed and refused by the format
 * check. Anything else is the spec's: digits only, the first 10.
 */
export function normalizePhone(input: string): string {
  let digits = input.replace(/\D/g, '');
  const international = digits.startsWith('00');
  if (international) digits = digits.slice(2);
  if (/^521\d{10}$/.test(digits)) return digits.slice(3);
  if (/^52[2-9]\d{9}$/.test(digits)) return digits.slice(2);
  if (/^04[45]\d{10}$/.test(digits)) return digits.slice(3);
  if (/^01\d{10}$/.test(digits)) return digits.slice(2);
  if (international || /^(52|0|1)/.test(digits)) return digits.slice(0, 15);
  return digits.slice(0, 10);
}

/** Whether normalizePhone dropped a country or trunk prefix the person typed ('+52 55…'), so the form can say what is kept. */
export function phonePrefixDropped(input: string): boolean {
  const digits = input.replace(/\D/g, '');
  const kept = normalizePhone(input);
  return kept.length === 10 && digits.length > 10 && kept !== digits.slice(0, 10);
}

/**
 * Phone format of the spec: optional +, optional parentheses around a 3-digit
 * area code, 3 digits, then 4 to 6 digits, optional separators.
 */
export const phoneFormat = /^\+?\(?(\d{3})\)?[-. ]?(\d{3})[-. ]?(\d{4,6})$/;

export function isValidPhone(input: string): boolean {
  return phoneFormat.test(input.trim());
}

/**
 * The WhatsApp Cloud API's recipient: E.164 digits without '+'.
 * Mexico's rules: 10 national digits get 52; '52' + 10 stays; the old mobile
 * prefix '521' + 10 drops its 1 (WhatsApp no longer uses it); the old
 * national prefixes 044, 045 and 01 before 10 digits are dropped. A number
 * written with '+' and another country code (8 to 15 digits) stays as it is.
 * Anything else is null: the message fails with "El número de WhatsApp no es válido".
 */
export function whatsappRecipient(phone: string): string | null {
  const trimmed = phone.trim();
  const explicit = trimmed.startsWith('+') || trimmed.startsWith('00');
  let digits = trimmed.replace(/\D/g, '');
  if (!explicit) {
    if (digits.length === 10) return `52${digits}`;
    if (digits.length === 13 && (digits.startsWith('044') || digits.startsWith('045'))) return `52${digits.slice(3)}`;
    if (digits.length === 12 && digits.startsWith('01')) return `52${digits.slice(2)}`;
  } else if (trimmed.startsWith('00')) {
    digits = digits.slice(2);
  }
  if (digits.length === 12 && digits.startsWith('52')) return digits;
  if (digits.length === 13 && digits.startsWith('521')) return `52${digits.slice(3)}`;
  if (explicit && !digits.startsWith('52') && digits.length >= 8 && digits.length <= 15 && !digits.startsWith('0')) return digits;
  return null;
}
