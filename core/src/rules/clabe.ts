/** The weights of the CLABE check digit, repeated over its first 17 digits (Banco de México). */
const weights = [3, 7, 1] as const;

/** The check digit of a CLABE's first 17 digits: each digit × 3, 7, 1 …, each product mod 10, summed; (10 − sum mod 10) mod 10. */
export function clabeCheckDigit(first17: string): number {
  let sum = 0;
  for (let i = 0; i < 17; i += 1) sum += (Number(first17[i]) * (weights[i % 3] as number)) % 10;
  return (10 - (sum % 10)) % 10;
}

/** A CLABE (Mexican interbank account number): 18 digits whose last is the check digit of the first 17. */
export function isValidClabe(value: string): boolean {
  if (!/^\d{18}$/.test(value)) return false;
  return clabeCheckDigit(value.slice(0, 17)) === Number(value[17]);
}

/** '012180001234567899' → '012 180 00123456789 9' (bank, place, account, check digit), as banks print it. */
export function formatClabe(value: string): string {
  return /^\d{18}$/.test(value) ? `${value.slice(0, 3)} ${value.slice(3, 6)} ${value.slice(6, 17)} ${value.slice(17)}` : value;
}

/** The concept a customer writes on a transfer so the studio finds the order: 'Orden 0042' for order #0042. */
export function bankTransferReference(purchaseId: number): string {
  return `Orden 00${purchaseId}`;
}
