import { describe, expect, it } from 'vitest';
import {
  code128Modules,
  code128Patterns,
  code128Values,
  globalPeriodOf,
  installmentOptions,
  installmentsAllowed,
  invoiceCorrection,
  invoiceRequestDeadline,
  periodicityFitsWindow,
} from '../../src/index.ts';

const tz = 'America/Mexico_City';

describe('meses sin intereses', () => {
  const all = [3, 6, 9, 12];
  it('offers the plans the card has, whose minimum the amount reaches, above the studio’s amount', () => {
    // $1,350: 3, 6 and 9 months (12 needs $1,200… and 1,350 reaches it).
    expect(installmentOptions(135_000, all, '1000').map((o) => o.count)).toEqual([3, 6, 9, 12]);
    expect(installmentOptions(70_000, all, '500').map((o) => o.count)).toEqual([3, 6]);
    expect(installmentOptions(135_000, [3, 6], '1000').map((o) => o.count)).toEqual([3, 6]);
    expect(installmentOptions(135_000, [], '1000')).toEqual([]);
  });
  it('says each monthly amount', () => {
    expect(installmentOptions(120_000, all, '1000')).toEqual([
      { count: 3, monthlyCents: 40_000 },
      { count: 6, monthlyCents: 20_000 },
      { count: 9, monthlyCents: 13_333 },
      { count: 12, monthlyCents: 10_000 },
    ]);
  });
  it('is off below the studio’s amount, at 0, or below Stripe’s $300', () => {
    expect(installmentsAllowed(99_999, '1000')).toBe(false);
    expect(installmentsAllowed(200_000, '0')).toBe(false);
    expect(installmentsAllowed(200_000, '')).toBe(false);
    expect(installmentsAllowed(29_900, '100')).toBe(false);
    expect(installmentsAllowed(100_000, '1000')).toBe(true);
  });
});

describe('Code 128 for the OXXO reference', () => {
  it('has 107 patterns of 11 modules and a 13-module stop', () => {
    expect(code128Patterns).toHaveLength(107);
    for (const p of code128Patterns.slice(0, 106)) expect([...p].reduce((s, d) => s + Number(d), 0)).toBe(11);
    expect([...(code128Patterns[106] as string)].reduce((s, d) => s + Number(d), 0)).toBe(13);
  });
  it('writes digits in pairs with the weighted check symbol', () => {
    // Start C, 12, 34, check (105 + 1×12 + 2×34) mod 103 = 82, stop.
    expect(code128Values('1234')).toEqual([105, 12, 34, 82, 106]);
    // An odd length starts in code B with its first digit, then switches to C.
    expect(code128Values('12345')).toEqual([104, 17, 99, 23, 45, (104 + 17 + 2 * 99 + 3 * 23 + 4 * 45) % 103, 106]);
    expect(code128Values('12A4')).toBeNull();
  });
  it('starts with a bar and alternates bars and spaces', () => {
    const modules = code128Modules('93000012345678')!;
    // 1 start + 7 pairs + check = 9 symbols × 6 widths + the stop's 7.
    expect(modules).toHaveLength(9 * 6 + 7);
    expect(modules.reduce((s, w) => s + w, 0)).toBe(9 * 11 + 13);
  });
});

describe('CFDI periods', () => {
  it('lets a customer ask for the invoice until the end of the purchase’s month, in the studio’s zone', () => {
    // 31 Oct 23:30 in Mexico City is already 1 Nov in UTC: still October's window.
    expect(invoiceRequestDeadline('2026-11-01T05:30:00Z', '0', tz).toISOString()).toBe('2026-11-01T06:00:00.000Z');
    expect(invoiceRequestDeadline('2026-11-01T05:30:00Z', '3', tz).toISOString()).toBe('2026-11-04T05:30:00.000Z');
  });
  it('finds the global invoice’s period and its SAT month key', () => {
    const m = globalPeriodOf('2026-11-15T18:00:00Z', 'month', tz);
    expect([m.start.toISOString(), m.end.toISOString(), m.months, m.year]).toEqual(['2026-11-01T06:00:00.000Z', '2026-12-01T06:00:00.000Z', '11', 2026]);
    const f = globalPeriodOf('2026-11-20T18:00:00Z', 'fortnight', tz);
    expect([f.start.toISOString(), f.end.toISOString()]).toEqual(['2026-11-16T06:00:00.000Z', '2026-12-01T06:00:00.000Z']);
    const b = globalPeriodOf('2026-12-05T18:00:00Z', 'two_months', tz);
    expect([b.start.toISOString(), b.months]).toEqual(['2026-11-01T06:00:00.000Z', '18']);
    // Monday 30 Nov 2026: its week is cut at 1 December.
    const w = globalPeriodOf('2026-11-30T18:00:00Z', 'week', tz);
    expect([w.start.toISOString(), w.end.toISOString()]).toEqual(['2026-11-30T06:00:00.000Z', '2026-12-01T06:00:00.000Z']);
    const d = globalPeriodOf('2026-11-30T18:00:00Z', 'day', tz);
    expect(d.end.toISOString()).toBe('2026-12-01T06:00:00.000Z');
  });
  it('keeps the window and the periodicity in step', () => {
    expect(periodicityFitsWindow('month', '0')).toBe(true);
    expect(periodicityFitsWindow('two_months', '0')).toBe(true);
    expect(periodicityFitsWindow('day', '0')).toBe(false);
    expect(periodicityFitsWindow('day', '3')).toBe(true);
    expect(periodicityFitsWindow('week', '10')).toBe(false);
  });
  it('cancels a fully undone sale of the year, and writes a credit note otherwise', () => {
    const base = { issuedAt: '2026-03-10T18:00:00Z', tz, invoicedCents: 135_000 };
    expect(invoiceCorrection({ ...base, now: '2026-04-01T18:00:00Z', returnedCents: 135_000 })).toEqual({ kind: 'cancel', motive: '03' });
    expect(invoiceCorrection({ ...base, now: '2026-04-01T18:00:00Z', returnedCents: 48_000 })).toEqual({ kind: 'credit-note' });
    expect(invoiceCorrection({ ...base, now: '2027-01-05T18:00:00Z', returnedCents: 135_000 })).toEqual({ kind: 'credit-note' });
  });
});
