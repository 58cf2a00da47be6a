import type { z, penaltyOutput, waitlistOutput } from '@estudio/core';

export type { AvailableClassOutput, ReservationWithClass, SingleClassOutput } from '@estudio/core';
export type WaitlistOutput = z.infer<typeof waitlistOutput>;
export type PenaltyOutput = z.infer<typeof penaltyOutput>;

/** What the modals show of a class: a schedule row or the class of a reservation or waitlist. */
export interface ClassSummaryData {
  class_date: string;
  duration_minutes: number;
  /** The class's own description; its type's is shown when it has none. */
  description?: string | null;
  class_type: { name: string; description?: string | null; level?: string | null; what_to_bring?: string | null };
  location: { name: string };
  /** The room of the location, when the class is in one: shown after the location's name. */
  room?: { name: string } | null;
  class_instructors: { name: string; last_name: string | null; nick_name: string | null; file?: { src: string } | null }[];
}
