import { z } from '../zod.ts';
import { scheduleInput } from './booking.ts';
import { id } from './fields.ts';

/**
 * The coach's console (decision 045): its own classes of a range and each
 * one's roster, read-only. Who is in a roster is told by name, seat and
 * attendance only: a coach reads no e-mail, phone or money.
 */


/** The coach's classes of a range of studio days (the schedule's own range rules: at most 62 days). */
export const coachClassesInput = scheduleInput;

export const coachClassOutput = z.object({
  single_class_id: z.number(),
  class_date: z.string(),
  duration_minutes: z.number(),
  capacity: z.number(),
  /** Places taken: live reservations plus their guests. */
  reservation_count: z.number(),
  cancelledAt: z.string().nullable(),
  class_type: z.object({ class_type_id: z.number(), name: z.string() }),
  location: z.object({ location_id: z.number(), name: z.string() }),
  /** Every coach of the class (a class may have two), by name. */
  coaches: z.array(z.string()),
});
export type CoachClassOutput = z.infer<typeof coachClassOutput>;
export const coachClassesOutput = z.object({
  /** The coach the account signs in as; null until the owner links it (Coaches › Cuenta del coach). */
  instructor: z.object({ instructor_id: z.number(), name: z.string() }).nullable(),
  single_classes: z.array(coachClassOutput),
});
export type CoachClassesOutput = z.infer<typeof coachClassesOutput>;

export const coachRosterInput = z.object({ id });
/** No ids: a coach names no customer's row anywhere (decision 045); the list is in name order. */
export const coachRosterEntry = z.object({
  name: z.string(),
  last_name: z.string(),
  /** The seat on the spot map, if the class has one. */
  spot: z.number().nullable(),
  /** The guest's name who came with the customer, if any. */
  guest: z.string().nullable(),
  attend: z.boolean(),
  /**
   * What the customer told the studio the coach should know (the sensitive answers, health: decision 087), each with
   * its question; only those stored with the customer's consent. Only the class's coach and staff read them.
   */
  health: z.array(z.object({ label: z.string(), text: z.string() })),
});
export const coachRosterOutput = z.object({ single_class: coachClassOutput, class_reservations: z.array(coachRosterEntry) });
export type CoachRosterOutput = z.infer<typeof coachRosterOutput>;
