import { DomainError, formatDateTime, studioDayRange, studioTimeZone, type SingleClassSubstituteInput } from '@estudio/core';
import { classCoachChanged } from '@estudio/core/messages/templates/studio';
import { and, asc, eq, gt, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import { class_type, instructor } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class, single_class_instructor } from '@estudio/db/schema/schedule';
import type { Db } from '../../db.ts';
import { recordAudit } from '../audit/record-audit.ts';
import { reservationsUrlOf } from '../clock/booked-class.ts';
import type { MessageContext } from '../messages/message-context.ts';
import { queueCustomerMessages } from '../messages/queue-message.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';
import type { Actor } from './save-class.ts';
import { refuseScheduleClash } from './schedule-clash.ts';

export interface SubstituteResult {
  singleClassIds: number[];
  messagesQueued: number;
}

/**
 * POST /api/single_class/substitute: another coach gives one class of a
 * coach, or every class of that coach between two local dates, among the
 * classes still to start and not cancelled. The substitute takes the
 * coach's place on each class (the schedule, the portal, the coach's own
 * view and the previous panel read a class's coaches, so all show who gives
 * it, and attendance by coach credits who taught). A class the substitute
 * already gives at that time elsewhere refuses it, unless staff confirmed the
 * overlap. Each class is in the activity log; with `notify`, the people
 * booked on it are told in the same transaction.
 */
export async function substituteCoach(db: Db, input: SingleClassSubstituteInput, actor: Actor, messages: MessageContext, now = new Date()): Promise<SubstituteResult> {
  if (input.from_instructor_id === input.to_instructor_id) throw new DomainError('schedule/same-coach');
  const oneClass = input.single_class_id !== undefined;
  const range = input.start_date !== undefined && input.end_date !== undefined ? { start: input.start_date, end: input.end_date } : null;
  // One class, or a whole range: never both, never half a range.
  const scoped = oneClass ? input.start_date === undefined && input.end_date === undefined : range !== null;
  if (!scoped) throw new DomainError('schedule/substitute-scope');
  const tz = studioTimeZone(await loadStudioSettings(db));
  const window = range ? studioDayRange(range.start, range.end, tz) : null;
  return db.transaction(async (tx) => {
    const coaches = await tx
      .select({ id: instructor.instructor_id, name: sql<string>`${instructor.name} || ' ' || ${instructor.last_name}` })
      .from(instructor)
      .where(inArray(instructor.instructor_id, [input.from_instructor_id, input.to_instructor_id]));
    const from = coaches.find((c) => c.id === input.from_instructor_id);
    const to = coaches.find((c) => c.id === input.to_instructor_id);
    if (!from || !to) throw new DomainError('schedule/instructor-not-found');

    const classes = await tx
      .select({ id: single_class.single_class_id, start: single_class.class_date, minutes: single_class.duration_minutes, locationId: single_class.location_id, className: class_type.name })
      .from(single_class)
      .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
      .where(
        and(
          window ? and(gte(single_class.class_date, window.from), lte(single_class.class_date, window.to)) : eq(single_class.single_class_id, input.single_class_id ?? 0),
          isNull(single_class.cancelledAt),
          gt(single_class.class_date, now),
          sql`exists (select 1 from single_class_instructor sci where sci.single_class_id = ${single_class.single_class_id} and sci.instructor_id = ${from.id})`,
        ),
      )
      .orderBy(asc(single_class.class_date), asc(single_class.single_class_id))
      .for('update', { of: single_class });
    if (classes.length === 0) throw new DomainError('schedule/nothing-to-substitute');

    for (const c of classes) {
      await refuseScheduleClash(
        tx,
        { starts: [c.start], minutes: c.minutes, locationId: c.locationId, instructorIds: [to.id], exceptClassId: c.id, checkPlace: false },
        tz,
        input.allow_overlap,
      );
    }
    const ids = classes.map((c) => c.id);
    await tx.delete(single_class_instructor).where(and(inArray(single_class_instructor.single_class_id, ids), eq(single_class_instructor.instructor_id, from.id)));
    await tx
      .insert(single_class_instructor)
      .values(ids.map((single_class_id) => ({ single_class_id, instructor_id: to.id })))
      .onConflictDoNothing();
    // The week's cache and the desk's replica follow a class's row.
    await tx.update(single_class).set({ updatedAt: now }).where(inArray(single_class.single_class_id, ids));
    for (const c of classes) {
      await recordAudit(tx, {
        actorId: actor.customerId,
        action: 'substitute',
        entity: 'single_class',
        entityId: c.id,
        changes: { from_instructor_id: from.id, to_instructor_id: to.id, from: from.name, to: to.name, notify: input.notify, ...(input.allow_overlap ? { allow_overlap: true } : {}) },
      });
    }

    let messagesQueued = 0;
    if (input.notify) {
      const booked = await tx
        .select({ classId: class_reservation.single_class_id, customerId: customer.customer_id, name: customer.name })
        .from(class_reservation)
        .innerJoin(customer, eq(customer.customer_id, class_reservation.customer_id))
        .where(and(inArray(class_reservation.single_class_id, ids), isNull(class_reservation.deletedAt), isNull(customer.deletedAt)))
        .orderBy(asc(class_reservation.single_class_id), asc(customer.customer_id));
      const byId = new Map(classes.map((c) => [c.id, c]));
      messagesQueued = await queueCustomerMessages(
        tx,
        messages,
        booked.map((b) => {
          const c = byId.get(b.classId)!;
          return {
            customerId: b.customerId,
            parts: classCoachChanged({ name: b.name, className: c.className, when: formatDateTime(c.start, tz), coach: to.name, previousCoach: from.name, reservationsUrl: reservationsUrlOf(messages) }),
            dedupeKey: `class-coach-changed:${c.id}:${to.id}:${b.customerId}`,
          };
        }),
      );
    }
    return { singleClassIds: ids, messagesQueued };
  });
}
