import { describe, expect, it } from 'vitest';
import { bookingValueCents, classPayCents, payRuleOn, payRuleText, type CoachPayRule } from '../../src/index.ts';

const rule = (over: Partial<CoachPayRule>): CoachPayRule => ({ kind: 'per_class', amount: null, percent: null, minimum: null, maximum: null, effective_from: '2026-01-01', ...over });

describe('coach pay', () => {
  it('pays the rule that started last on or before the class day', () => {
    const rules = [rule({ effective_from: '2026-01-01', amount: '100.00' }), rule({ effective_from: '2026-03-01', amount: '150.00' })];
    expect(payRuleOn(rules, '2025-12-31')).toBeNull();
    expect(payRuleOn(rules, '2026-02-28')?.amount).toBe('100.00');
    expect(payRuleOn(rules, '2026-03-01')?.amount).toBe('150.00');
  });

  it('per class: the amount, whoever came', () => {
    expect(classPayCents(rule({ amount: '250.00' }), { attendees: 0, revenueCents: 0, coaches: 1 })).toBe(25_000);
  });

  it('per attendee: the amount times the people who came, held between the minimum and the maximum', () => {
    const r = rule({ kind: 'per_attendee', amount: '35.00', minimum: '150.00', maximum: '400.00' });
    expect(classPayCents(r, { attendees: 2, revenueCents: 0, coaches: 1 })).toBe(15_000);
    expect(classPayCents(r, { attendees: 8, revenueCents: 0, coaches: 1 })).toBe(28_000);
    expect(classPayCents(r, { attendees: 20, revenueCents: 0, coaches: 1 })).toBe(40_000);
  });

  it('a share of revenue, split between the class coaches, to the centavo', () => {
    const r = rule({ kind: 'revenue_share', percent: '40' });
    expect(classPayCents(r, { attendees: 5, revenueCents: 100_001, coaches: 1 })).toBe(40_000);
    expect(classPayCents(r, { attendees: 5, revenueCents: 100_000, coaches: 2 })).toBe(20_000);
    expect(classPayCents({ ...r, minimum: '300.00' }, { attendees: 1, revenueCents: 10_000, coaches: 1 })).toBe(30_000);
  });

  it('a booking is worth its package price over its classes; a membership spreads over its bookings; a gift is worth nothing', () => {
    expect(bookingValueCents({ paid: true, total: '1000.00', classes: 8 }, 3)).toBe(12_500);
    expect(bookingValueCents({ paid: true, total: '1500.00', classes: -1 }, 12)).toBe(12_500);
    expect(bookingValueCents({ paid: true, total: '1500.00', classes: -1 }, 0)).toBe(150_000);
    expect(bookingValueCents({ paid: false, total: '1000.00', classes: 8 }, 1)).toBe(0);
    expect(bookingValueCents(null, 1)).toBe(0);
  });

  it('says the rule in words', () => {
    expect(payRuleText(rule({ amount: '250.00' }))).toBe('$250.00 por clase');
    expect(payRuleText(rule({ kind: 'per_attendee', amount: '35.00', minimum: '150.00', maximum: '400.00' }))).toBe('$35.00 por asistente (mín. $150.00, máx. $400.00)');
    expect(payRuleText(rule({ kind: 'revenue_share', percent: '40.00' }))).toBe('40% de lo que vale la clase');
  });
});
