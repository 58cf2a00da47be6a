import { sql } from 'drizzle-orm';
import { check, date, index, integer, numeric, pgTable, text, unique } from 'drizzle-orm/pg-core';
import { instructor } from './catalogue.ts';
import { createdAt, money, updatedAt } from './columns.ts';

export const coachPayKinds = ['per_class', 'per_attendee', 'revenue_share'] as const;

/**
 * What a coach earns for a class they teach, from a date on (the latest rule
 * on or before a class's day is the one that pays it): a fixed amount per
 * class, an amount per attendee (with a minimum and a maximum), or a
 * percentage of the class's revenue. One rule per coach and day.
 */
export const coach_pay_rule = pgTable(
  'coach_pay_rule',
  {
    coach_pay_rule_id: integer('coach_pay_rule_id').primaryKey().generatedAlwaysAsIdentity(),
    instructor_id: integer('instructor_id')
      .notNull()
      .references(() => instructor.instructor_id, { onDelete: 'cascade' }),
    /** The studio's local day the rule starts to pay. */
    effective_from: date('effective_from').notNull(),
    kind: text('kind', { enum: coachPayKinds }).notNull(),
    /** Per class or per attendee, in MXN; null for a share of revenue. */
    amount: money('amount'),
    /** The share of the class's revenue, 0–100; only for revenue_share. */
    percent: numeric('percent', { precision: 5, scale: 2 }),
    /** Floor and cap of what one class pays (per attendee or a share of revenue). */
    minimum: money('minimum'),
    maximum: money('maximum'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    unique('coach_pay_rule_instructor_day_key').on(t.instructor_id, t.effective_from),
    index('coach_pay_rule_instructor_idx').on(t.instructor_id, t.effective_from),
    check('coach_pay_rule_amount_check', sql`${t.amount} is null or ${t.amount} >= 0`),
    check('coach_pay_rule_percent_check', sql`${t.percent} is null or (${t.percent} >= 0 and ${t.percent} <= 100)`),
  ],
);
