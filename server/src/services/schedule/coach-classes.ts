import { and, asc, eq, isNull } from 'drizzle-orm';
import { DomainError, type CoachClassOutput, type CoachClassesOutput, type CoachRosterOutput, type SingleClassOutput } from '@estudio/core';
import { instructor } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class_instructor } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { sensitiveAnswersOf } from '../customer/customer-answers.ts';
import { healthNotesOf } from '../customer/customer-notes.ts';
import { listSchedule, type ScheduleFilters } from './list-schedule.ts';
import { loadSingleClassOutput } from './single-class-output.ts';

/**
 * The coach's own classes and rosters (decision 045). A class is the coach's
 * when one of its single_class_instructor rows names the instructor whose
 * account (instructor.customer_id) is the caller; the filter lives here, so
 * the console, REST and any later client read the same. An account with no
 * coach linked has no classes. Read-only: nothing here writes.
 */

/** The instructor the account signs in as, if the owner linked one (instructor.customer_id is unique). */
export async function instructorOf(db: Db, customerId: number): Promise<{ instructor_id: number; name: string } | null> {
  const [row] = await db
    .select({ instructor_id: instructor.instructor_id, name: instructor.name, last_name: instructor.last_name })
    .from(instructor)
    .where(and(eq(instructor.customer_id, customerId), isNull(instructor.deletedAt)))
    .limit(1);
  return row ? { instructor_id: row.instructor_id, name: [row.name, row.last_name].filter(Boolean).join(' ') } : null;
}

function toCoachClass(c: SingleClassOutput): CoachClassOutput {
  return {
    single_class_id: c.single_class_id,
    class_date: c.class_date,
    duration_minutes: c.duration_minutes,
    capacity: c.capacity,
    reservation_count: c.reservation_count,
    cancelledAt: c.cancelledAt,
    class_type: { class_type_id: c.class_type.class_type_id, name: c.class_type.name },
    location: { location_id: c.location.location_id, name: c.location.name },
    coaches: c.class_instructors.map((i) => [i.name, i.last_name].filter(Boolean).join(' ')),
  };
}

/** The caller's classes of a range of studio days, sorted by start (the schedule's own range and filters, its instructor fixed to the caller's). */
export async function listCoachClasses(db: Db, customerId: number, filters: ScheduleFilters): Promise<CoachClassesOutput> {
  const coach = await instructorOf(db, customerId);
  if (coach === null) return { instructor: null, single_classes: [] };
  const classes = await listSchedule(db, { ...filters, instructor_id: coach.instructor_id }, null);
  return { instructor: coach, single_classes: classes.map(toCoachClass) };
}

/**
 * One of the caller's classes with who booked it: name, seat, guest and
 * attendance, no contact data. A class that is not the caller's is 404
 * 'coach/class-not-found', the same answer as a class that does not exist.
 */
export async function getCoachRoster(db: Db, customerId: number, singleClassId: number): Promise<CoachRosterOutput> {
  const instructorId = (await instructorOf(db, customerId))?.instructor_id ?? null;
  const mine =
    instructorId !== null &&
    (
      await db
        .select({ one: single_class_instructor.single_class_id })
        .from(single_class_instructor)
        .where(and(eq(single_class_instructor.single_class_id, singleClassId), eq(single_class_instructor.instructor_id, instructorId)))
        .limit(1)
    ).length > 0;
  const found = mine ? await loadSingleClassOutput(db, singleClassId, null) : null;
  if (!found) throw new DomainError('coach/class-not-found');
  const rows = await db
    .select({
      customer_id: customer.customer_id,
      name: customer.name,
      last_name: customer.last_name,
      spot: class_reservation.spot,
      guest: class_reservation.guest,
      attend: class_reservation.attend,
    })
    .from(class_reservation)
    .innerJoin(customer, eq(customer.customer_id, class_reservation.customer_id))
    .where(and(eq(class_reservation.single_class_id, singleClassId), isNull(class_reservation.deletedAt)))
    .orderBy(asc(customer.name), asc(customer.last_name), asc(class_reservation.class_reservation_id));
  const health = await sensitiveAnswersOf(
    db,
    rows.map((r) => r.customer_id),
  );
  // Staff's health notes too: the class's coach is who needs them (an injury to work around).
  const notes = await healthNotesOf(
    db,
    rows.map((r) => r.customer_id),
  );
  // No ids in the answer (decision 045): the customer's id only joined her answers.
  return {
    single_class: toCoachClass(found),
    class_reservations: rows.map(({ customer_id, ...r }) => ({ ...r, health: [...(health.get(customer_id) ?? []), ...(notes.get(customer_id) ?? [])] })),
  };
}
