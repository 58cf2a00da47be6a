import { describe, expect, it } from 'vitest';
import { classPackageCreateInput, discountCreateInput, discountRuleViolation, packageRuleViolation } from '../../src/index.ts';

describe('package rules', () => {
  const pkg = { price: '1200.00' };

  it('the sale price must be below the price, to the centavo', () => {
    expect(packageRuleViolation({ ...pkg, sale_price: '1199.99' })).toBeNull();
    expect(packageRuleViolation({ ...pkg, sale_price: '1200.00' })).toEqual({ code: 'package/sale-price', field: 'sale_price' });
    expect(packageRuleViolation({ ...pkg, sale_price: null })).toBeNull();
  });

  it('a subscription needs period and interval; a one-off package carries none of the subscription fields', () => {
    expect(packageRuleViolation({ ...pkg, is_subscription: true, subscription_period: 'month', subscription_interval: 1 })).toBeNull();
    expect(packageRuleViolation({ ...pkg, is_subscription: true, subscription_period: 'month' })?.code).toBe('package/subscription-fields');
    expect(packageRuleViolation({ ...pkg, is_subscription: false, free_trial_length: 7 })?.code).toBe('package/not-subscription');
    expect(packageRuleViolation({ ...pkg, is_subscription: false, free_trial_length: 0 })).toBeNull();
  });

  it('prices arrive as strings or numbers and are stored with two decimals', () => {
    const parse = (price: unknown) => classPackageCreateInput.safeParse({ title: 'Paquete', class_amount: 1, price });
    expect(parse('1350').data?.price).toBe('1350.00');
    expect(parse(999.5).data?.price).toBe('999.50');
    expect(parse('0').data?.price).toBe('0.00');
    for (const bad of ['1e3', '12.345', '-1', '', 'mil', 12345678901]) expect(parse(bad).success, String(bad)).toBe(false);
  });

  it('class_amount is -1 (unlimited) or more', () => {
    expect(classPackageCreateInput.safeParse({ title: 'Ilimitado', price: '1', class_amount: -1 }).success).toBe(true);
    expect(classPackageCreateInput.safeParse({ title: 'Nada', price: '1', class_amount: -2 }).success).toBe(false);
  });
});

describe('discount rules', () => {
  it('a percent is 1 to 100; an amount is above 0', () => {
    expect(discountRuleViolation({ amount: '1.00', is_percent: true })).toBeNull();
    expect(discountRuleViolation({ amount: '100.00', is_percent: true })).toBeNull();
    expect(discountRuleViolation({ amount: '0.99', is_percent: true })?.code).toBe('discount/percent-range');
    expect(discountRuleViolation({ amount: '0.01', is_percent: false })).toBeNull();
    expect(discountRuleViolation({ amount: '0.00', is_percent: false })?.code).toBe('discount/amount-positive');
  });

  it('ends after it starts, and never allows fewer uses than it already has', () => {
    const start = '2026-12-01T00:00:00-06:00';
    expect(discountRuleViolation({ amount: '10', starts_at: start, expires_at: start })?.code).toBe('discount/dates');
    expect(discountRuleViolation({ amount: '10', starts_at: new Date('2026-12-01T06:00:00Z'), expires_at: '2026-12-01T00:00:01-06:00' })).toBeNull();
    expect(discountRuleViolation({ amount: '10', max_uses: 3, uses: 4 })?.code).toBe('discount/max-uses-below-uses');
    expect(discountRuleViolation({ amount: '10', max_uses: 4, uses: 4 })).toBeNull();
  });

  it('codes are upper-cased, so uniqueness ignores case', () => {
    expect(discountCreateInput.parse({ code: ' Verano-2026 ', amount: '10' }).code).toBe('VERANO-2026');
  });
});

describe('a discount saved without an amount', () => {
  it('is a Spanish message under the amount, not a thrown "Importe inválido: "', () => {
    for (const amount of ['', '   ', 'diez']) {
      const parsed = discountCreateInput.safeParse({ code: 'VERANO', amount, is_percent: true });
      expect(parsed.success).toBe(false);
      const issue = parsed.error?.issues[0];
      expect(issue?.path).toEqual(['amount']);
      expect(issue?.message).toBe(amount.trim() === '' ? 'Escribe el descuento.' : 'El descuento debe ser un importe en pesos con hasta dos decimales.');
    }
  });
});
