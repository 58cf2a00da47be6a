import { describe, expect, it } from 'vitest';
import {
  appConfigProblem,
  bankTransferReference,
  cashAllowedFor,
  chargePlan,
  classesPathAfterPurchase,
  clabeCheckDigit,
  formatClabe,
  isValidAppConfigValue,
  isValidClabe,
} from '../../src/index.ts';

const onlineMonthly = { price: '349.00', sale_price: null, is_subscription: true, free_trial_length: 7, free_trial_period: null };

describe('what a checkout charges today and when the first charge comes', () => {
  it('a subscription with a 7-day trial: $0 today, its price on the trial’s last day', () => {
    const plan = chargePlan(onlineMonthly, { startedAt: '2026-10-14T17:00:00Z' });
    expect(plan.todayCents).toBe(0);
    expect(plan.firstCharge).toEqual({ cents: 34900, at: new Date('2026-10-21T17:00:00Z') });
  });

  it('a trial in months counts calendar months (31 Jan + 1 month is 28 Feb)', () => {
    const plan = chargePlan({ ...onlineMonthly, free_trial_length: 1, free_trial_period: 'month' }, { startedAt: '2027-01-31T18:00:00Z' });
    expect(plan.firstCharge?.at.toISOString()).toBe('2027-02-28T18:00:00.000Z');
  });

  it('the first charge after a trial carries the discount and the sale price', () => {
    const plan = chargePlan({ ...onlineMonthly, sale_price: '300.00' }, { startedAt: '2026-10-14T17:00:00Z', discount: { amount: '10', is_percent: true } });
    expect(plan).toMatchObject({ todayCents: 0, firstCharge: { cents: 27000 } });
  });

  it('without a trial everything is charged today and there is no later first charge', () => {
    expect(chargePlan({ ...onlineMonthly, free_trial_length: 0 }, { startedAt: new Date() })).toEqual({ todayCents: 34900, firstCharge: null });
    expect(chargePlan({ price: '1500.00', sale_price: '1350.00', is_subscription: false, free_trial_length: 7 }, { startedAt: new Date() })).toEqual({
      todayCents: 135000,
      firstCharge: null,
    });
  });

  it('cash is offered for anything but a subscription that starts with a free trial', () => {
    expect(cashAllowedFor(onlineMonthly)).toBe(false);
    expect(cashAllowedFor({ ...onlineMonthly, free_trial_length: null })).toBe(true);
    expect(cashAllowedFor({ is_subscription: false, free_trial_length: 7 })).toBe(true);
  });

  it('after an online-only package the classes are the video library; otherwise the calendar', () => {
    expect(classesPathAfterPurchase({ is_online: true, is_presencial: false })).toBe('/mystudio/online');
    expect(classesPathAfterPurchase({ is_online: true, is_presencial: true })).toBe('/mystudio');
    expect(classesPathAfterPurchase({ is_online: false, is_presencial: true })).toBe('/mystudio');
  });
});

describe('CLABE', () => {
  it('accepts 18 digits whose last is the check digit (Banco de México examples)', () => {
    expect(isValidClabe('002010077777777771')).toBe(true);
    expect(isValidClabe('032180000118359719')).toBe(true);
    expect(clabeCheckDigit('01218000123456789')).toBe(9);
  });

  it('refuses a wrong check digit, a digit swapped, the wrong length and anything not a digit', () => {
    expect(isValidClabe('002010077777777772')).toBe(false);
    expect(isValidClabe('002010077777777717')).toBe(false);
    expect(isValidClabe('00201007777777777')).toBe(false);
    expect(isValidClabe('0020100777777777710')).toBe(false);
    expect(isValidClabe('002 010 07777777777 1')).toBe(false);
    expect(isValidClabe('')).toBe(false);
  });

  it('is printed grouped, and the order number is the transfer reference', () => {
    expect(formatClabe('012180001234567899')).toBe('012 180 00123456789 9');
    expect(bankTransferReference(42)).toBe('Orden 0042');
  });

  it('the bank_clabe setting takes a valid CLABE or nothing, and says why in Spanish', () => {
    expect(isValidAppConfigValue('bank_clabe', '012180001234567899')).toBe(true);
    expect(isValidAppConfigValue('bank_clabe', '')).toBe(true);
    expect(appConfigProblem([{ key: 'bank_clabe', value: '012180001234567890' }], {})).toEqual({
      key: 'bank_clabe',
      message: 'El valor de «CLABE interbancaria» no es válido: debe tener 18 dígitos y el último debe ser su dígito verificador; revísala en tu estado de cuenta.',
    });
    expect(isValidAppConfigValue('bank_beneficiary', 'x'.repeat(121))).toBe(false);
  });
});
