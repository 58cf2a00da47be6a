import {
  bookingValueCents,
  classPayCents,
  DomainError,
  fromCents,
  localDate,
  payRuleOn,
  payRuleText,
  studioDayRange,
  studioTimeZone,
  toCsv,
  type CoachPayRuleInput,
  type PayrollOutput,
  type ReportRangeInput,
} from '@estudio/core';
import { and, asc, eq, gte, inArray, isNull, lt, lte, sql } from 'drizzle-orm';
import { class_type, instructor, location } from '@estudio/db/schema/catalogue';
import { coach_pay_rule } from '@estudio/db/schema/coach-pay';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { instructorOf } from '../schedule/coach-classes.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

/**
 * Coach pay (decision 139): the owner's rules per coach, and the payroll of a
 * range of studio days. A class pays the coaches it has when it is given (a
 * substitute took the coach's place on it, decision 136), each under their
 * rule of that day. Classes cancelled or still to start pay nothing.
 */

type RuleRow = typeof coach_pay_rule.$inferSelect;
const coachName = sql<string>`${instructor.name} || ' ' || ${instructor.last_name}`;

const ruleOutput = (r: RuleRow & { coach: string }) => ({
  coach_pay_rule_id: r.coach_pay_rule_id,
  instructor_id: r.instructor_id,
  coach: r.coach,
  effective_from: r.effective_from,
  kind: r.kind,
  amount: r.amount,
  percent: r.percent,
  minimum: r.minimum,
  maximum: r.maximum,
  text: payRuleText(r),
});

/** GET /api/coach_pay_rules: every coach's rules, by coach and start day. */
export async function listPayRules(db: Db) {
  const rows = await db
    .select({ rule: coach_pay_rule, coach: coachName })
    .from(coach_pay_rule)
    .innerJoin(instructor, eq(instructor.instructor_id, coach_pay_rule.instructor_id))
    .orderBy(asc(instructor.name), asc(instructor.last_name), asc(coach_pay_rule.effective_from));
  return { rules: rows.map((r) => ruleOutput({ ...r.rule, coach: r.coach })) };
}

/** POST /api/coach_pay_rules: a coach's rule from a day on; the same coach and day again replaces it. Logged. */
export async function savePayRule(db: Db, input: CoachPayRuleInput, actorId: number) {
  return db.transaction(async (tx) => {
    const [coach] = await tx.select({ name: coachName }).from(instructor).where(eq(instructor.instructor_id, input.instructor_id));
    if (!coach) throw new DomainError('schedule/instructor-not-found');
    const values = {
      instructor_id: input.instructor_id,
      effective_from: input.effective_from,
      kind: input.kind,
      amount: input.kind === 'revenue_share' ? null : (input.amount ?? null),
      percent: input.kind === 'revenue_share' && input.percent !== null && input.percent !== undefined ? input.percent.toFixed(2) : null,
      // A floor and a cap mean nothing for a fixed amount per class.
      minimum: input.kind === 'per_class' ? null : (input.minimum ?? null),
      maximum: input.kind === 'per_class' ? null : (input.maximum ?? null),
    };
    const [row] = await tx
      .insert(coach_pay_rule)
      .values(values)
      .onConflictDoUpdate({ target: [coach_pay_rule.instructor_id, coach_pay_rule.effective_from], set: { ...values, updatedAt: new Date() } })
      .returning();
    if (!row) throw new DomainError('internal');
    await recordAudit(tx, { actorId, action: 'create', entity: 'coach_pay_rule', entityId: row.coach_pay_rule_id, changes: { ...values, coach: coach.name } });
    return { rule: ruleOutput({ ...row, coach: coach.name }) };
  });
}

/** DELETE /api/coach_pay_rules/{id}: the classes it paid fall to the coach's previous rule, if any. Logged. */
export async function deletePayRule(db: Db, id: number, actorId: number) {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(coach_pay_rule).where(eq(coach_pay_rule.coach_pay_rule_id, id)).returning();
    if (!row) throw new DomainError('coach-pay/rule-not-found');
    await recordAudit(tx, { actorId, action: 'delete', entity: 'coach_pay_rule', entityId: id, changes: { instructor_id: row.instructor_id, effective_from: row.effective_from } });
    return { rule: ruleOutput({ ...row, coach: '' }) };
  });
}

/**
 * The payroll of a range of studio days: each class given (not cancelled, already started) with each of its coaches,
 * its bookings, the people who came, what its bookings were worth, the rule that pays it and the amount; totals by
 * coach. With `instructorId`, only that coach's classes (the coach's own view).
 */
export async function payroll(db: Db, range: ReportRangeInput, options: { instructorId?: number; now?: Date } = {}): Promise<PayrollOutput> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  const { from, to } = studioDayRange(range.start_date, range.end_date, tz);
  const now = options.now ?? new Date();
  const taught = await db
    .select({
      id: single_class.single_class_id,
      class_date: single_class.class_date,
      class_type: class_type.name,
      location: location.name,
      instructor_id: single_class_instructor.instructor_id,
      coach: coachName,
    })
    .from(single_class)
    .innerJoin(single_class_instructor, eq(single_class_instructor.single_class_id, single_class.single_class_id))
    .innerJoin(instructor, eq(instructor.instructor_id, single_class_instructor.instructor_id))
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .innerJoin(location, eq(location.location_id, single_class.location_id))
    .where(
      and(
        gte(single_class.class_date, from),
        lte(single_class.class_date, to),
        lt(single_class.class_date, now),
        isNull(single_class.cancelledAt),
        options.instructorId === undefined ? undefined : eq(single_class_instructor.instructor_id, options.instructorId),
      ),
    )
    .orderBy(asc(single_class.class_date), asc(single_class.single_class_id), asc(coachName));
  const classIds = [...new Set(taught.map((t) => t.id))];
  const coachIds = [...new Set(taught.map((t) => t.instructor_id))];

  // Each live booking: whether they came (and their guest), and the purchase its credit came from.
  const bookings =
    classIds.length === 0
      ? []
      : await db
          .select({
            classId: class_reservation.single_class_id,
            attend: class_reservation.attend,
            guest: class_reservation.guest,
            creditId: class_reservation.available_class_id,
            paid: sql<boolean>`${purchase.paidAt} is not null and ${purchase.refundedAt} is null`,
            total: purchase.total_payment,
            classes: purchase.class_amount,
          })
          .from(class_reservation)
          .leftJoin(available_classes, eq(available_classes.available_class_id, class_reservation.available_class_id))
          .leftJoin(purchase, eq(purchase.purchase_id, available_classes.purchase_id))
          .where(and(inArray(class_reservation.single_class_id, classIds), isNull(class_reservation.deletedAt)));
  // A membership's price is spread over every class booked with it, whenever: how many that is, per credit row.
  const creditIds = [...new Set(bookings.flatMap((b) => (b.creditId !== null && b.classes !== null && b.classes <= 0 ? [b.creditId] : [])))];
  const usesOfCredit = new Map(
    (creditIds.length === 0
      ? []
      : await db
          .select({ id: class_reservation.available_class_id, n: sql<number>`count(*)::int` })
          .from(class_reservation)
          .where(and(inArray(class_reservation.available_class_id, creditIds), isNull(class_reservation.deletedAt)))
          .groupBy(class_reservation.available_class_id)
    ).map((r) => [r.id, Number(r.n)]),
  );
  const facts = new Map<number, { reservations: number; attendees: number; revenueCents: number }>();
  for (const b of bookings) {
    const f = facts.get(b.classId) ?? { reservations: 0, attendees: 0, revenueCents: 0 };
    f.reservations += 1;
    if (b.attend) f.attendees += b.guest ? 2 : 1;
    const bought = b.total === null || b.classes === null ? null : { paid: b.paid, total: b.total, classes: b.classes };
    f.revenueCents += bookingValueCents(bought, b.creditId === null ? 0 : (usesOfCredit.get(b.creditId) ?? 0));
    facts.set(b.classId, f);
  }

  const rules = coachIds.length === 0 ? [] : await db.select().from(coach_pay_rule).where(inArray(coach_pay_rule.instructor_id, coachIds));
  const coachesOf = new Map<number, number>();
  for (const t of taught) coachesOf.set(t.id, (coachesOf.get(t.id) ?? 0) + 1);

  const classes: PayrollOutput['classes'] = [];
  const byCoach = new Map<number, PayrollOutput['coaches'][number] & { cents: number }>();
  let totalCents = 0;
  for (const t of taught) {
    const f = facts.get(t.id) ?? { reservations: 0, attendees: 0, revenueCents: 0 };
    const rule = payRuleOn(
      rules.filter((r) => r.instructor_id === t.instructor_id),
      localDate(t.class_date, tz),
    );
    const cents = rule ? classPayCents(rule, { attendees: f.attendees, revenueCents: f.revenueCents, coaches: coachesOf.get(t.id) ?? 1 }) : null;
    classes.push({
      single_class_id: t.id,
      class_date: t.class_date.toISOString(),
      class_type: t.class_type,
      location: t.location,
      instructor_id: t.instructor_id,
      coach: t.coach,
      reservations: f.reservations,
      attendees: f.attendees,
      revenue: fromCents(f.revenueCents),
      rule: rule ? payRuleText(rule) : null,
      amount: cents === null ? null : fromCents(cents),
    });
    const sum = byCoach.get(t.instructor_id) ?? { instructor_id: t.instructor_id, coach: t.coach, classes: 0, attendees: 0, amount: '0.00', without_rule: 0, cents: 0 };
    sum.classes += 1;
    sum.attendees += f.attendees;
    if (cents === null) sum.without_rule += 1;
    else sum.cents += cents;
    byCoach.set(t.instructor_id, sum);
    totalCents += cents ?? 0;
  }
  return {
    coaches: [...byCoach.values()].sort((a, b) => b.cents - a.cents || a.coach.localeCompare(b.coach)).map(({ cents, ...c }) => ({ ...c, amount: fromCents(cents) })),
    classes,
    total: fromCents(totalCents),
  };
}

/** The payroll as the studio's CSV (the exports' kind 'coach_pay'): one line per class and coach. */
export async function payrollCsv(db: Db, range: ReportRangeInput): Promise<string> {
  const tz = studioTimeZone(await loadStudioSettings(db));
  const report = await payroll(db, range);
  const local = (iso: string) => `${localDate(iso, tz)} ${new Intl.DateTimeFormat('es-MX', { timeZone: tz, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(new Date(iso))}`;
  return toCsv(
    ['ID clase', 'Fecha', 'Clase', 'Ubicación', 'ID coach', 'Coach', 'Reservaciones', 'Asistentes', 'Valor de la clase', 'Tarifa', 'Pago'],
    report.classes.map((c) => [c.single_class_id, local(c.class_date), c.class_type, c.location, c.instructor_id, c.coach, c.reservations, c.attendees, c.revenue, c.rule ?? 'Sin tarifa', c.amount ?? '']),
  );
}

/** GET /api/coach/pay: the signed-in coach's own classes of the range and what they pay; nothing before the owner links the account. */
export async function ownPayroll(db: Db, customerId: number, range: ReportRangeInput) {
  const coach = await instructorOf(db, customerId);
  if (!coach) return { instructor: null, coaches: [], classes: [], total: '0.00' };
  return { instructor: coach, ...(await payroll(db, range, { instructorId: coach.instructor_id })) };
}
