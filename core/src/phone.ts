/** Phone editing keeps digits only and cuts to 10 characters (spec, account area §5). */
export function normalizePhone(input: string): string {
  return input.replace(/\D/g, '').slice(0, 10);
}

/**
 * Phone format of the spec: optional +, optional parentheses around a 3-digit
 * area code, 3 digits, then 4 to 6 digits, optional separators.
 */
export const phoneFormat = /^\+?\(?(\d{3})\)?[-. ]?(\d{3})[-. ]?(\d{4,6})$/;

export function isValidPhone(input: string): boolean {
  return phoneFormat.test(input.trim());
}
