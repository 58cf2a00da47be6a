import { describe, expect, it } from 'vitest';
import {
  addPeriod,
  cardBrand,
  cardBrandLabel,
  comparePackages,
  declineMessage,
  discountedCents,
  effectivePriceCents,
  formatMXN,
  fromCents,
  isFreePackage,
  isTrialPackage,
  nextChargeDate,
  purchaseErrorMessage,
  regularPackages,
  renewalPeriodText,
  sandboxCardToken,
  sandboxOutcome,
  subscriptionPeriodText,
  toCents,
  trialDays,
  trialEnd,
} from '../../src/index.ts';

describe('money', () => {
  it('turns decimal strings into centavos and back', () => {
    expect(toCents('250.00')).toBe(25000);
    expect(toCents('0.5')).toBe(50);
    expect(toCents('1350')).toBe(135000);
    expect(toCents(12.34)).toBe(1234);
    expect(toCents('19.999')).toBe(1999);
    expect(fromCents(25000)).toBe('250.00');
    expect(fromCents(5)).toBe('0.05');
    expect(fromCents(0)).toBe('0.00');
    expect(() => toCents('abc')).toThrow(RangeError);
  });
  it('formats MXN with thousands separators and two decimals', () => {
    expect(formatMXN(25000)).toBe('$250.00');
    expect(formatMXN(135000)).toBe('$1,350.00');
    expect(formatMXN(0)).toBe('$0.00');
  });
});

const pkg = (over: Partial<Parameters<typeof isTrialPackage>[0] & Record<string, unknown>> = {}) => ({
  price: '100.00',
  sale_price: null,
  class_amount: 5,
  is_trial: false,
  is_special_event: false,
  is_subscription: false,
  limit_per_customer: null,
  order: 0,
  ...over,
});

describe('package rules', () => {
  it('detects trials by flag or by one class limited to one purchase', () => {
    expect(isTrialPackage(pkg({ is_trial: true }))).toBe(true);
    expect(isTrialPackage(pkg({ class_amount: 1, limit_per_customer: 1 }))).toBe(true);
    expect(isTrialPackage(pkg({ class_amount: 1, limit_per_customer: 2 }))).toBe(false);
    expect(isTrialPackage(pkg({ class_amount: 1 }))).toBe(false);
  });
  it('regular list excludes events and one-per-customer packages, unlimited last', () => {
    const list = [
      { ...pkg({ class_amount: -1 }), id: 'unl' },
      { ...pkg({ class_amount: 10 }), id: 'ten' },
      { ...pkg({ class_amount: 1, limit_per_customer: 1 }), id: 'trial' },
      { ...pkg({ class_amount: 1, is_special_event: true }), id: 'event' },
      { ...pkg({ class_amount: 1 }), id: 'one' },
      { ...pkg({ class_amount: 5 }), id: 'five' },
    ];
    expect(regularPackages(list).map((p) => p.id)).toEqual(['one', 'five', 'ten', 'unl']);
    expect(comparePackages(pkg({ class_amount: -1 }), pkg({ class_amount: 100 }))).toBeGreaterThan(0);
  });
  it('charges the sale price when set and knows free packages', () => {
    expect(effectivePriceCents(pkg({ price: '1500.00', sale_price: '1350.00' }))).toBe(135000);
    expect(effectivePriceCents(pkg({ price: '800.00' }))).toBe(80000);
    expect(isFreePackage(pkg({ price: '0.00' }))).toBe(true);
    expect(isFreePackage(pkg({ price: '0.00', is_subscription: true }))).toBe(false);
  });
  it('writes the subscription period text', () => {
    const sub = (period: string, interval: number) =>
      subscriptionPeriodText({ is_subscription: true, subscription_period: period, subscription_interval: interval });
    expect(sub('month', 1)).toBe('por mes');
    expect(sub('month', 3)).toBe('cada 3 meses');
    expect(sub('year', 1)).toBe('por año');
    expect(sub('year', 2)).toBe('cada 2 años');
    expect(sub('day', 15)).toBe('cada 15 días');
    expect(sub('week', 1)).toBe('por semana');
    expect(subscriptionPeriodText({ is_subscription: false })).toBe('');
  });
  it("says how often a subscription renews by its period, not a count of days (a monthly plan read 'cada 30 días')", () => {
    expect(renewalPeriodText({ subscription_period: 'month', subscription_interval: 1 })).toBe('cada mes');
    expect(renewalPeriodText({ subscription_period: 'month', subscription_interval: 3 })).toBe('cada 3 meses');
    expect(renewalPeriodText({ subscription_period: 'year', subscription_interval: null })).toBe('cada año');
    expect(renewalPeriodText({ subscription_period: 'week', subscription_interval: 2 })).toBe('cada 2 semanas');
    // The spec: any other period is days.
    expect(renewalPeriodText({ subscription_period: null, subscription_interval: 15 })).toBe('cada 15 días');
    expect(renewalPeriodText({ subscription_period: 'quincena', subscription_interval: 1 })).toBe('cada día');
  });
});

describe('discount totals', () => {
  it('applies percent and amount discounts in centavos, never below zero', () => {
    expect(discountedCents(150000, { amount: '10.00', is_percent: true })).toBe(135000);
    expect(discountedCents(34900, { amount: '50.00', is_percent: true })).toBe(17450);
    expect(discountedCents(99999, { amount: '33.33', is_percent: true })).toBe(66669);
    expect(discountedCents(135000, { amount: '200.00', is_percent: false })).toBe(115000);
    expect(discountedCents(10000, { amount: '200.00', is_percent: false })).toBe(0);
    expect(discountedCents(10000, { amount: '100.00', is_percent: true })).toBe(0);
    expect(discountedCents(10000, null)).toBe(10000);
  });
});

describe('subscriptions', () => {
  const created = '2026-01-31T15:00:00.000Z';
  it('adds periods keeping the day of month', () => {
    expect(addPeriod(created, 1, 'month').toISOString()).toBe('2026-02-28T15:00:00.000Z');
    expect(addPeriod(created, 1, 'year').toISOString()).toBe('2027-01-31T15:00:00.000Z');
    expect(addPeriod(created, 2, 'week').toISOString()).toBe('2026-02-14T15:00:00.000Z');
    expect(addPeriod(created, 3, 'day').toISOString()).toBe('2026-02-03T15:00:00.000Z');
  });
  it('next charge: trial end while in the future, otherwise creation + interval × period', () => {
    const s = { status: 'active', createdAt: '2026-03-10T12:00:00.000Z', subscription_interval: 1, subscription_period: 'month', free_trial_length: 7 };
    expect(nextChargeDate(s, '2026-03-12T00:00:00.000Z', 'America/Mexico_City')?.toISOString()).toBe('2026-03-17T12:00:00.000Z');
    const noTrial = { ...s, free_trial_length: null };
    expect(nextChargeDate(noTrial, '2026-03-12T00:00:00.000Z', 'America/Mexico_City')?.toISOString()).toBe('2026-04-10T12:00:00.000Z');
    expect(nextChargeDate(noTrial, '2026-05-11T00:00:00.000Z', 'America/Mexico_City')?.toISOString()).toBe('2026-06-10T12:00:00.000Z');
    expect(nextChargeDate({ ...noTrial, status: 'cancelled' }, '2026-03-12T00:00:00.000Z', 'America/Mexico_City')).toBeNull();
    expect(nextChargeDate({ ...noTrial, subscription_period: null }, '2026-03-12T00:00:00.000Z', 'America/Mexico_City')).toBeNull();
  });
  it('computes trial end and Stripe trial days', () => {
    expect(trialEnd({ createdAt: '2026-03-10T12:00:00.000Z', free_trial_length: 7 })?.toISOString()).toBe('2026-03-17T12:00:00.000Z');
    expect(trialEnd({ createdAt: '2026-03-10T12:00:00.000Z', free_trial_length: 0 })).toBeNull();
    expect(trialDays(7, null)).toBe(7);
    expect(trialDays(2, 'week')).toBe(14);
    expect(trialDays(null, null)).toBe(0);
  });
});

describe('sandbox cards', () => {
  it('maps typed numbers to Stripe test tokens', () => {
    expect(sandboxCardToken('4242 4242 4242 4242')).toEqual({ token: 'pm_card_visa', brand: 'visa', last4: '4242' });
    expect(sandboxCardToken('4000000000009995').token).toBe('pm_card_visa_chargeDeclinedInsufficientFunds');
    expect(sandboxCardToken('4000000000000002').token).toBe('pm_card_chargeDeclined');
    expect(sandboxCardToken('4000000000000069').token).toBe('pm_card_chargeDeclinedExpiredCard');
    expect(sandboxCardToken('4000000000000127').token).toBe('pm_card_chargeDeclinedIncorrectCvc');
    expect(sandboxCardToken('4000000000009979').token).toBe('pm_card_chargeDeclinedStolenCard');
    expect(sandboxCardToken('5555555555554444')).toEqual({ token: 'pm_card_mastercard', brand: 'mastercard', last4: '4444' });
    expect(sandboxCardToken('4111111111111111').token).toBe('pm_card_visa');
    expect(cardBrand('378282246310005')).toBe('amex');
    // As the checkout, Métodos de Pago and the receipt name it.
    expect(['visa', 'mastercard', 'amex', 'other'].map(cardBrandLabel)).toEqual(['Visa', 'Mastercard', 'American Express', 'other']);
  });
  it('pays or declines like Stripe', () => {
    expect(sandboxOutcome('pm_card_visa')).toEqual({ ok: true });
    expect(sandboxOutcome('pm_card_visa_chargeDeclinedInsufficientFunds')).toEqual({ ok: false, decline_code: 'insufficient_funds' });
    expect(sandboxOutcome('pm_card_chargeDeclinedStolenCard')).toEqual({ ok: false, decline_code: 'stolen_card' });
    expect(sandboxOutcome('tok_whatever')).toEqual({ ok: false, decline_code: 'generic_decline' });
  });
});

describe('purchase error messages (spec §8)', () => {
  it('maps declines', () => {
    const d = (decline_code: string) => purchaseErrorMessage(402, { code: 'payment/card-declined', message: 'x', decline_code });
    expect(d('insufficient_funds')).toBe('Lo sentimos. Tu tarjeta ha sido rechazada por fondos insuficientes.');
    expect(d('stolen_card')).toBe('Lo sentimos. Esta tarjeta ha sido reportada como robada o perdida y no puede utilizarse.');
    expect(d('lost_card')).toBe('Lo sentimos. Esta tarjeta ha sido reportada como robada o perdida y no puede utilizarse.');
    expect(d('generic_decline')).toBe('Lo sentimos. Tu tarjeta ha sido rechazada por tu banco. Comunícate con tu banco para saber más.');
    expect(d('expired_card')).toBe('Lo sentimos. Tu tarjeta ha expirado');
    expect(d('incorrect_cvc')).toBe('Lo sentimos. El CVV de tu tarjeta es incorrecto');
    expect(d('incorrect_number')).toBe('Lo sentimos. El número de la tarjeta es incorrecto.');
    expect(declineMessage(undefined)).toBe('Lo sentimos. Tu tarjeta ha sido rechazada por tu banco. Comunícate con tu banco para saber más.');
  });
  it('maps statuses', () => {
    expect(purchaseErrorMessage(400, { message: 'x' })).toBe('No has seleccionado un método de pago.');
    expect(purchaseErrorMessage(412, { message: 'Lo sentimos, ya has agotado este descuento.' })).toBe('Lo sentimos, ya has agotado este descuento.');
    expect(purchaseErrorMessage(412, {})).toBe('Lo sentimos, se ha alcanzado el límite de personas para este paquete.');
    expect(purchaseErrorMessage(409, { message: 'otro' })).toBe('Lo sentimos, ya has alcanzado el límite de compras de este paquete.');
    expect(purchaseErrorMessage(500, { message: 'Algo pasó' })).toBe('Algo pasó');
    expect(purchaseErrorMessage(500, null)).toBe('Hubo un error al procesar tu compra. Inténtalo más tarde.');
    expect(purchaseErrorMessage(undefined)).toBe('Hubo un error al procesar tu compra. Inténtalo más tarde.');
  });
});

describe('isFreePackage', () => {
  it('uses the sale price', () => {
    expect(isFreePackage({ price: '100.00', sale_price: '0.00', is_subscription: false })).toBe(true);
  });
});
