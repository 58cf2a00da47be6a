import { z } from '../zod.ts';
import { moneyInput } from './admin-commerce.ts';
import { reportRangeInput } from './admin-operations.ts';
import { calendarDate } from './dates.ts';
import { id } from './fields.ts';

/**
 * Coach pay (decision 139): the owner's pay rules per coach, effective from a
 * day, and the payroll of a range of days; each coach reads their own part.
 */

export const coachPayKindInput = z.enum(['per_class', 'per_attendee', 'revenue_share'], { error: 'Elige cómo se paga: por clase, por asistente o un porcentaje de lo que vale la clase.' });

const percentInput = z.coerce
  .number({ error: 'El porcentaje debe ser un número.' })
  .min(0, { error: 'El porcentaje debe ser de 0 a 100.' })
  .max(100, { error: 'El porcentaje debe ser de 0 a 100.' });

/** POST /api/coach_pay_rules: a coach's rule from a day on (the same coach and day again replaces it). */
export const coachPayRuleInput = z
  .object({
    instructor_id: id,
    effective_from: calendarDate('La fecha de inicio'),
    kind: coachPayKindInput,
    amount: moneyInput('El monto').nullish(),
    percent: percentInput.nullish(),
    minimum: moneyInput('El mínimo').nullish(),
    maximum: moneyInput('El máximo').nullish(),
  })
  .refine((v) => v.kind === 'revenue_share' || (v.amount !== null && v.amount !== undefined), { error: 'Escribe el monto que se paga.', path: ['amount'] })
  .refine((v) => v.kind !== 'revenue_share' || (v.percent !== null && v.percent !== undefined), { error: 'Escribe el porcentaje que se paga.', path: ['percent'] })
  .refine((v) => !v.minimum || !v.maximum || Number(v.minimum) <= Number(v.maximum), { error: 'El máximo no puede ser menor que el mínimo.', path: ['maximum'] });
export type CoachPayRuleInput = z.infer<typeof coachPayRuleInput>;

export const coachPayRuleOutput = z.object({
  coach_pay_rule_id: z.number(),
  instructor_id: z.number(),
  /** The coach's name, as the schedule shows it. */
  coach: z.string(),
  effective_from: z.string(),
  kind: coachPayKindInput,
  amount: z.string().nullable(),
  percent: z.string().nullable(),
  minimum: z.string().nullable(),
  maximum: z.string().nullable(),
  /** The rule in words ('$35.00 por asistente (mín. $150.00)'). */
  text: z.string(),
});
export const coachPayRulesOutput = z.object({ rules: z.array(coachPayRuleOutput) });
export const coachPayRuleResult = z.object({ rule: coachPayRuleOutput });
export const coachPayRuleIdInput = z.object({ id });

/** One class a coach taught in the range, and what it pays them. */
export const payrollClass = z.object({
  single_class_id: z.number(),
  class_date: z.string(),
  class_type: z.string(),
  location: z.string(),
  instructor_id: z.number(),
  coach: z.string(),
  /** Live bookings of the class, and the people who came (attended, with their guests). */
  reservations: z.number(),
  attendees: z.number(),
  /** What the class's bookings were worth (MXN). */
  revenue: z.string(),
  /** The rule that paid it, in words; null when the coach had none on that day. */
  rule: z.string().nullable(),
  /** What it pays; null without a rule. */
  amount: z.string().nullable(),
});

export const payrollOutput = z.object({
  /** Each coach with classes in the range: classes taught, what they are owed, and classes with no rule. */
  coaches: z.array(z.object({ instructor_id: z.number(), coach: z.string(), classes: z.number(), attendees: z.number(), amount: z.string(), without_rule: z.number() })),
  classes: z.array(payrollClass),
  total: z.string(),
});
export type PayrollOutput = z.infer<typeof payrollOutput>;

/** GET /api/reports/coach_pay and the coach's own GET /api/coach/pay: a range of studio days (at most 366). */
export const payrollInput = reportRangeInput;

/** GET /api/coach/pay: the coach's own payroll (the same lines, only theirs). */
export const ownPayrollOutput = payrollOutput.extend({ instructor: z.object({ instructor_id: z.number(), name: z.string() }).nullable() });
