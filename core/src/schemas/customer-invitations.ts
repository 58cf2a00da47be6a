import { z } from '../zod.ts';

/** One run invites at most this many; a studio with more sends in several runs (decision 128). */
export const customerInvitationMaxLimit = 1000;
export const customerInvitationDefaultLimit = 200;

const limitMessage = `Escribe cuántos invitar, de 1 a ${customerInvitationMaxLimit.toLocaleString('es-MX')}.`;
const daysMessage = 'Escribe los días, de 1 a 365.';

/**
 * Inviting the customers with no password (brought over from another system, or registered at the desk) to create
 * one: at most `limit` in this run. `resend_after_days` also invites again those whose last invitation is at least
 * that old; absent, whoever was invited once is never mailed again by this.
 */
export const customerInvitationsInput = z.object({
  limit: z.number({ error: limitMessage }).int({ error: limitMessage }).min(1, { error: limitMessage }).max(customerInvitationMaxLimit, { error: limitMessage }).default(customerInvitationDefaultLimit),
  resend_after_days: z.number({ error: daysMessage }).int({ error: daysMessage }).min(1, { error: daysMessage }).max(365, { error: daysMessage }).optional(),
});
export type CustomerInvitationsInput = z.input<typeof customerInvitationsInput>;

/** The dry run, as a query (GET): the same numbers, read from the address. */
export const customerInvitationsPreviewInput = z.object({
  limit: z.coerce.number({ error: limitMessage }).int({ error: limitMessage }).min(1, { error: limitMessage }).max(customerInvitationMaxLimit, { error: limitMessage }).default(customerInvitationDefaultLimit),
  resend_after_days: z.coerce.number({ error: daysMessage }).int({ error: daysMessage }).min(1, { error: daysMessage }).max(365, { error: daysMessage }).optional(),
});

export const customerInvitationsOutput = z.object({
  /** Customers with an e-mail and no password who would be invited with no limit (not invited yet, or not lately). */
  waiting: z.number(),
  /** Invited by this run (queued in the outbox); in the dry run, how many this limit would invite. */
  invited: z.number(),
  /** Customers without a password already invited, and not due again: they are not mailed by this run. */
  already_invited: z.number(),
  /** Whether the studio can send e-mail now: the invitations leave within minutes; without it the run is refused. */
  email_configured: z.boolean(),
});
export type CustomerInvitationsOutput = z.infer<typeof customerInvitationsOutput>;
