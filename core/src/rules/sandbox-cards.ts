/**
 * The sandbox card form: the browser turns a typed card number into one of
 * Stripe's test PaymentMethod ids, so the same tokens work with Stripe test
 * mode and the embedded sandbox provider. Card data never leaves the browser.
 */

export interface SandboxCard {
  /** Stripe test PaymentMethod id. */
  token: string;
  brand: 'visa' | 'mastercard' | 'amex' | 'other';
  last4: string;
}

/** Stripe's decline codes of the test cards. */
export const sandboxDeclines: Record<string, { decline_code: string }> = {
  pm_card_visa_chargeDeclinedInsufficientFunds: { decline_code: 'insufficient_funds' },
  pm_card_chargeDeclined: { decline_code: 'generic_decline' },
  pm_card_chargeDeclinedExpiredCard: { decline_code: 'expired_card' },
  pm_card_chargeDeclinedIncorrectCvc: { decline_code: 'incorrect_cvc' },
  pm_card_chargeDeclinedStolenCard: { decline_code: 'stolen_card' },
  pm_card_chargeDeclinedLostCard: { decline_code: 'lost_card' },
};

/** Tokens the sandbox accepts as paying. */
export const sandboxPayingTokens = ['pm_card_visa', 'pm_card_mastercard', 'pm_card_amex', 'pm_card_mx'] as const;

/**
 * Stripe's Mexican test card (4000 0048 4000 8001, pm_card_mx), a Mexican
 * credit card: the one the sandbox offers meses sin intereses on, as Stripe's
 * test mode does for Mexican cards; the US test cards (4242…) have none.
 */
export const installmentTestCard = { number: '4000004840008001', token: 'pm_card_mx' } as const;

/** The plans the sandbox says a card's bank offers (Stripe's available_plans for its test cards). */
export function sandboxInstallmentPlans(token: string): number[] {
  return token.split('.')[0] === installmentTestCard.token ? [3, 6, 9, 12] : [];
}

const byLast4: Record<string, string> = {
  '9995': 'pm_card_visa_chargeDeclinedInsufficientFunds',
  '0002': 'pm_card_chargeDeclined',
  '0069': 'pm_card_chargeDeclinedExpiredCard',
  '0127': 'pm_card_chargeDeclinedIncorrectCvc',
  '9979': 'pm_card_chargeDeclinedStolenCard',
  '9987': 'pm_card_chargeDeclinedLostCard',
};

/**
 * A card's expiry as typed: MM/AA or MM/AAAA, with or without the slash
 * ('1230', '12/30', '12/2030'); the spec's MM/YYYY only refused '12/30'
 * after the form itself wrote it (decision 090). The reason names the part
 * to fix; `month`/`year` (four digits) when it is a real future month.
 */
export type CardExpiry = { ok: true; month: number; year: number } | { ok: false; reason: 'format' | 'month' | 'past' };

export function parseCardExpiry(value: string, now: Date = new Date()): CardExpiry {
  const digits = value.replace(/\D/g, '');
  if (digits.length !== 4 && digits.length !== 6) return { ok: false, reason: 'format' };
  const month = Number(digits.slice(0, 2));
  const year = digits.length === 4 ? 2000 + Number(digits.slice(2)) : Number(digits.slice(2));
  if (month < 1 || month > 12) return { ok: false, reason: 'month' };
  if (year * 12 + month < now.getFullYear() * 12 + now.getMonth() + 1) return { ok: false, reason: 'past' };
  return { ok: true, month, year };
}

/** The expiry field as it is typed: digits only, the slash written after the month ('1230' → '12/30'). */
export function formatCardExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 6);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/** A saved card's brand as people name it ('visa' → 'Visa', 'amex' → 'American Express'); an unknown one as stored. */
export function cardBrandLabel(cardType: string): string {
  return cardType === 'mastercard' ? 'Mastercard' : cardType === 'amex' ? 'American Express' : cardType === 'visa' ? 'Visa' : cardType;
}

/** Spec §5: brand from the first digit: 3 amex, 4 visa, otherwise mastercard. */
export function cardBrand(number: string): SandboxCard['brand'] {
  const digits = number.replace(/\D/g, '');
  if (digits.startsWith('3')) return 'amex';
  if (digits.startsWith('4')) return 'visa';
  return 'mastercard';
}

/** Typed card number → test token, brand and last 4 digits (4242… pays; 9995 insufficient funds; …). */
export function sandboxCardToken(number: string): SandboxCard {
  const digits = number.replace(/\D/g, '');
  const last4 = digits.slice(-4);
  const brand = cardBrand(digits);
  const declined = byLast4[last4];
  if (declined) return { token: declined, brand, last4 };
  if (digits === installmentTestCard.number) return { token: installmentTestCard.token, brand, last4 };
  const token = brand === 'visa' ? 'pm_card_visa' : brand === 'amex' ? 'pm_card_amex' : 'pm_card_mastercard';
  return { token, brand, last4 };
}

/** The Luhn check every card number passes (Stripe's test numbers too): 4242 4242 4242 4241 does not. */
export function passesLuhn(number: string): boolean {
  const digits = number.replace(/\D/g, '');
  if (digits.length < 12) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** What the sandbox does with a token: pay, or decline with Stripe's code. Unknown tokens are declined. */
export function sandboxOutcome(token: string): { ok: true } | { ok: false; decline_code: string } {
  if ((sandboxPayingTokens as readonly string[]).includes(token)) return { ok: true };
  const decline = sandboxDeclines[token];
  return { ok: false, decline_code: decline?.decline_code ?? 'generic_decline' };
}
