import type { z, penaltyOutput, waitlistOutput } from '@estudio/core';

export type { AvailableClassOutput, ReservationWithClass, SingleClassOutput } from '@estudio/core';
export type WaitlistOutput = z.infer<typeof waitlistOutput>;
export type PenaltyOutput = z.infer<typeof penaltyOutput>;

/** What the modals show of a class: a schedule row or the class of a reservation or waitlist. */
export interface ClassSummaryData {
  class_date: string;
  duration_minutes: number;
  class_type: { name: string };
  location: { name: string };
  class_instructors: { name: string; last_name: string | null; nick_name: string | null }[];
}
