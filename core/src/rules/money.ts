/**
 * Money in integer centavos. Amounts arrive as numeric(12,2) strings
 * ('250.00'); arithmetic happens on integers so no float ever touches a price.
 */

/** '250.00' → 25000, '0.5' → 50, 12 → 1200. Throws on anything that is not a decimal amount. */
export function toCents(value: string | number): number {
  const text = typeof value === 'number' ? value.toFixed(2) : value.trim();
  const match = /^(-)?(\d+)(?:\.(\d{0,2})\d*)?$/.exec(text);
  if (!match) throw new RangeError(`Importe inválido: ${String(value)}`);
  const [, sign, whole = '0', frac = ''] = match;
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0'));
  return sign ? -cents : cents;
}

/** 25000 → '250.00' (the numeric(12,2) text the database stores). */
export function fromCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(Math.round(cents));
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

const mxn = new Intl.NumberFormat('es-MX', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** 135000 → '$1,350.00' (es-MX, thousands separators, 2 decimals). */
export function formatMXN(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  return `${sign}$${mxn.format(Math.abs(cents) / 100)}`;
}
