import { z } from '../zod.ts';
import { activityKinds } from '../rules/activity.ts';
import { refusedActivityKind } from '../rules/activity-refused.ts';

const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Escribe la fecha como AAAA-MM-DD.' });

/** GET /api/activity (admin): what staff did, newest first, 30 a page (decision 037). */
export const activityListInput = z.object({
  /** The staff member who did it. */
  staff_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  /** The customer it was about. */
  customer_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  /** One of core's kinds, or 'refusedBySync': the desks' changes the server refused (decision 039). */
  kind: z.enum([refusedActivityKind as string, ...activityKinds] as [string, ...string[]]).optional(),
  /** Studio days, both included. */
  from: date.optional(),
  to: date.optional(),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});
export type ActivityListInput = z.infer<typeof activityListInput>;

/** GET /api/customer/{id}/activity (staff and admin): the same list for one customer's card. */
export const customerActivityInput = z.object({
  id: z.coerce.number().int().positive().max(2_147_483_647),
  page: z.coerce.number().int().min(1).max(10_000).default(1),
});

export const activityEntryOutput = z.object({
  /** Unique in the list: 'audit-<audit_log_id>' or 'refused-<desk>-<mutation id>'. */
  id: z.string(),
  /** Null for a desk's change the server refused: it wrote no audit row. */
  audit_log_id: z.number().nullable(),
  at: z.string(),
  kind: z.string(),
  /** The sentence people read: who did what, to whom, and why. */
  text: z.string(),
  staff: z.object({ customer_id: z.number(), name: z.string(), email: z.string().nullable() }).nullable(),
  customer: z.object({ customer_id: z.number(), name: z.string() }).nullable(),
  reason: z.string().nullable(),
  /** Done at a front desk: which one (the first characters of its id) and when on its clock; `at` is when it reached the server. */
  desk: z.object({ id: z.string(), occurred_at: z.string() }).nullable(),
  /** A desk's change the server refused (kind 'refusedBySync'): which desk, what it tried, and the server's Spanish reason. */
  refused: z
    .object({
      desk: z.string(),
      attempted: z.string(),
      code: z.string().nullable(),
      message: z.string().nullable(),
    })
    .nullable(),
});

export const activityListOutput = z.object({
  entries: z.array(activityEntryOutput),
  page: z.number(),
  pages: z.number(),
  total: z.number(),
});
export type ActivityEntry = z.infer<typeof activityEntryOutput>;

export const activityStaffOutput = z.object({ staff: z.array(z.object({ customer_id: z.number(), name: z.string(), email: z.string() })) });
