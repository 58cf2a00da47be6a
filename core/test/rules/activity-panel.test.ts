import { describe, expect, it } from 'vitest';
import { activityKindOf, activitySentence, type ActivityFacts } from '../../src/rules/activity.ts';

/** Decision 040: what the previous panel did reads in Actividad as the owner would say it. */
const admin = { name: 'Carlos Méndez', email: 'admin@estudio.demo' };
const facts = (action: string, changes: unknown): ActivityFacts => ({ entity: 'customer', action, entityId: '1', changes, actor: admin, customerName: 'Mariana López' });

describe('Actividad for the previous panel (decision 040)', () => {
  it('a sale at a negotiated total names the list price beside what was collected', () => {
    expect(activitySentence(facts('access.sell', { title: '10 Clases', list_price: '1350.00', total_payment: '1500.00' }))).toBe(
      'Carlos Méndez (admin@estudio.demo) dio acceso a 10 Clases a Mariana López, cobrado en recepción ($1,500.00; precio de lista $1,350.00).',
    );
    // At the list price nothing extra is said.
    expect(activitySentence(facts('access.sell', { title: '10 Clases', list_price: '1350.00', total_payment: '1350.00' }))).toContain('cobrado en recepción ($1,350.00).');
  });

  it('a purchase cancelled by an admin is among the access taken away, with the panel reason', () => {
    const row = facts('purchase.cancel', { title: '10 Clases', reason: 'Sin motivo (panel anterior)' });
    expect(activityKindOf(row.entity, row.action)).toBe('accessRevoked');
    expect(activitySentence(row)).toBe('Carlos Méndez (admin@estudio.demo) canceló la compra de 10 Clases de Mariana López — motivo: Sin motivo (panel anterior).');
  });

  it('a customer registered with her documents pending says so', () => {
    expect(activitySentence(facts('customer.create', { documents_pending: [1] }))).toBe(
      'Carlos Méndez (admin@estudio.demo) registró a Mariana López como cliente nuevo (documentos por aceptar al entrar al portal).',
    );
    expect(activitySentence(facts('customer.create', { accepted_page_ids: [1] }))).toBe('Carlos Méndez (admin@estudio.demo) registró a Mariana López como cliente nuevo.');
  });
});

describe('Actividad for notes on a customer', () => {
  it('says what was written or removed, and never a health note’s text (the log does not keep it)', () => {
    expect(activityKindOf('customer', 'customer.note.add')).toBe('customerChanged');
    expect(activitySentence(facts('customer.note.add', { kind: 'alert', body: 'Debe $200.' }))).toBe('Carlos Méndez (admin@estudio.demo) escribió una alerta sobre Mariana López: «Debe $200.».');
    expect(activitySentence(facts('customer.note.add', { kind: 'health' }))).toBe('Carlos Méndez (admin@estudio.demo) escribió una nota de salud sobre Mariana López.');
    expect(activitySentence(facts('customer.note.remove', { kind: 'note', body: 'Lugar 3.' }))).toBe('Carlos Méndez (admin@estudio.demo) quitó una nota de Mariana López: «Lugar 3.».');
  });
});

describe('Actividad for the cash drawer', () => {
  it('says the float, and at the close the count, what was expected, the difference and why', () => {
    expect(activityKindOf('cash_shift', 'cash_shift.close')).toBe('cashShift');
    const open = { ...facts('cash_shift.open', { opening_float: '500.00' }), entity: 'cash_shift', customerName: null };
    expect(activitySentence(open)).toBe('Carlos Méndez (admin@estudio.demo) abrió la caja con $500.00 de fondo.');
    const close = (changes: Record<string, unknown>) => activitySentence({ ...facts('cash_shift.close', changes), entity: 'cash_shift', customerName: null });
    expect(close({ counted_cash: '1140.00', expected_cash: '1140.00', difference: '0.00', note: null })).toBe(
      'Carlos Méndez (admin@estudio.demo) cerró la caja: contó $1,140.00, se esperaban $1,140.00; cuadró.',
    );
    expect(close({ counted_cash: '1090.00', expected_cash: '1140.00', difference: '-50.00', note: 'Cambio de más.', staff_name: 'Lucía Ramírez' })).toBe(
      'Carlos Méndez (admin@estudio.demo) cerró la caja de Lucía Ramírez: contó $1,090.00, se esperaban $1,140.00; faltaron $50.00 — «Cambio de más.».',
    );
    expect(close({ counted_cash: '1160.00', expected_cash: '1140.00', difference: '20.00', note: 'Propina.' })).toContain('sobraron $20.00');
  });
});
