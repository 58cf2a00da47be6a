/**
 * Phone editing keeps digits only (spec, account area §5) and the studio
 * stores Mexico's 10 national digits. Mexico's prefixes are recognised as the
 * WhatsApp rules below read them ('+52 (55) 4444-3333', '0052…', the old
 * mobile '521…', '044'/'045', '01'), so the number is kept, not cut: the
 * spec's cut to 10 characters saved '+52 55 4444 3333' as '5255444433'
 * (decision 090). Anything else longer than 10 digits is kept (up to 15) and
 * refused by the format check instead of being cut into another number.
 */
export function normalizePhone(input: string): string {
  let digits = input.replace(/\D/g, '');
  if (digits.startsWith('00')) digits = digits.slice(2);
  if (digits.length === 12 && digits.startsWith('52')) return digits.slice(2);
  if (digits.length === 13 && digits.startsWith('521')) return digits.slice(3);
  if (digits.length === 13 && (digits.startsWith('044') || digits.startsWith('045'))) return digits.slice(3);
  if (digits.length === 12 && digits.startsWith('01')) return digits.slice(2);
  return digits.slice(0, 15);
}

/** Whether normalizePhone dropped a country or trunk prefix the person typed ('+52 55…'), so the form can say what is saved. */
export function phonePrefixDropped(input: string): boolean {
  const digits = input.replace(/\D/g, '');
  return digits.length > 10 && normalizePhone(input).length === 10;
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
 * The WhatsApp Cloud API's recipient (issue 17): E.164 digits without '+'.
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
