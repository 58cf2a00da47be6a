import {
  customerInvitationDefaultLimit,
  DomainError,
  type CustomerInvitationsInput,
  type CustomerInvitationsOutput,
} from '@estudio/core';
import { customerInvitation } from '@estudio/core/messages/templates/account';
import { and, asc, eq, isNull, notLike, or, sql, type SQL } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { auth_user } from '@estudio/db/schema/identity';
import { outbox_message } from '@estudio/db/schema/outbox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { auditedBy, recordAudit } from '../audit/record-audit.ts';
import { identitiesToClaim, passwordLinks, UNSET_PASSWORD } from '../auth/recover-password.ts';
import { messagingChannels } from '../messages/channels.ts';
import { messageContextOf } from '../messages/message-context.ts';
import { queueEmails } from '../messages/queue-message.ts';
import type { StaffActor } from '../permissions/staff-permissions.ts';
import { loadStudioSettings } from '../schedule/studio-settings.ts';

/** An invitation is read days after it is sent, not at once: its link works a week (a reset's works an hour). */
export const invitationLinkDays = 7;
/** Customers invited per transaction: a run of 1,000 commits twice, each batch with its line in the activity log. */
export const invitationBatchSize = 500;

const invitationKind = 'customer-invitation';

/**
 * A customer who cannot sign in yet and can be invited: a customer (not staff), neither deleted nor anonymised,
 * with no identity at all or one made without a password (UNSET_PASSWORD, the claim path's). Read over
 * `customer left join auth_user on the e-mail`.
 */
const withoutPassword = and(
  isNull(customer.deletedAt),
  eq(customer.role, 'customer'),
  notLike(customer.email, '%.invalid'),
  or(and(isNull(customer.uid), isNull(auth_user.uid)), eq(auth_user.password_hash, UNSET_PASSWORD)),
);

/**
 * She was invited (since `since`, when resending those invited before it). The record of an invitation is its outbox
 * row, kind 'customer-invitation': it keeps its customer and date even once sent, or anonymised (decision 124).
 */
const invited = (since: Date | null): SQL =>
  sql`exists (select 1 from ${outbox_message} where ${outbox_message.customer_id} = ${customer.customer_id} and ${outbox_message.kind} = ${invitationKind}${
    since ? sql` and ${outbox_message.createdAt} > ${since.toISOString()}::timestamptz` : sql``
  })`;

const resendCutoff = (input: CustomerInvitationsInput, now: Date): Date | null =>
  input.resend_after_days ? new Date(now.getTime() - input.resend_after_days * 24 * 60 * 60_000) : null;

async function counted(db: Db, since: Date | null): Promise<{ waiting: number; already: number }> {
  const [row] = await db
    .select({
      waiting: sql<number>`count(*) filter (where not ${invited(since)})`.mapWith(Number),
      already: sql<number>`count(*) filter (where ${invited(since)})`.mapWith(Number),
    })
    .from(customer)
    .leftJoin(auth_user, eq(auth_user.email, customer.email))
    .where(withoutPassword);
  return { waiting: row?.waiting ?? 0, already: row?.already ?? 0 };
}

/**
 * The dry run (the console's count): how many customers without a password are waiting for an invitation, how many
 * this limit would invite, how many were invited already, and whether the studio sends e-mail now.
 */
export async function previewCustomerInvitations(db: Db, config: Config, input: CustomerInvitationsInput, now: Date = new Date()): Promise<CustomerInvitationsOutput> {
  const { waiting, already } = await counted(db, resendCutoff(input, now));
  return {
    waiting,
    invited: Math.min(waiting, input.limit ?? customerInvitationDefaultLimit),
    already_invited: already,
    email_configured: (await messagingChannels(db, config)).email,
  };
}

/**
 * Queues "Crea tu contraseña" to up to `limit` customers without a password who were not invited (decision 128),
 * in batches of 500, each batch one transaction with its line in the activity log. The link is the claim path's
 * (identitiesToClaim, passwordLinks): opening it sets her password and binds her customer row (resetPassword).
 * Refused while the studio sends no e-mail: the run would claim invitations that never leave. Two runs at once mail
 * nobody twice: each invitation's dedupe key is the customer and how many she had before.
 */
export async function inviteCustomers(
  db: Db,
  config: Config,
  actor: StaffActor,
  input: CustomerInvitationsInput,
  options: { now?: Date; batchSize?: number } = {},
): Promise<CustomerInvitationsOutput> {
  const now = options.now ?? new Date();
  const batchSize = options.batchSize ?? invitationBatchSize;
  if (config.AUTH_PROVIDER === 'firebase') throw new DomainError('customer-invitation/firebase');
  if (!(await messagingChannels(db, config)).email) throw new DomainError('customer-invitation/no-email-channel');
  const ctx = messageContextOf(config);
  const since = resendCutoff(input, now);
  const limit = input.limit ?? customerInvitationDefaultLimit;
  let total = 0;
  while (total < limit) {
    const size = Math.min(batchSize, limit - total);
    const batch = await db.transaction(async (tx) => {
      const people = await tx
        .select({
          id: customer.customer_id,
          email: customer.email,
          name: customer.name,
          before: sql<number>`(select count(*) from ${outbox_message} where ${outbox_message.customer_id} = ${customer.customer_id} and ${outbox_message.kind} = ${invitationKind})`.mapWith(Number),
        })
        .from(customer)
        .leftJoin(auth_user, eq(auth_user.email, customer.email))
        .where(and(withoutPassword, sql`not ${invited(since)}`))
        .orderBy(asc(customer.customer_id))
        .limit(size);
      if (people.length === 0) return { found: 0, queued: 0 };
      const uids = await identitiesToClaim(
        tx,
        people.map((p) => p.email),
      );
      const links = await passwordLinks(tx, { publicUrl: ctx.publicUrl, ttlMinutes: invitationLinkDays * 24 * 60 }, [...uids.values()]);
      const businessName = (await loadStudioSettings(tx)).business_name;
      const queued = await queueEmails(
        tx,
        ctx,
        people.map((p) => ({
          to: p.email,
          customerId: p.id,
          dedupeKey: `${invitationKind}:${p.id}:${p.before + 1}`,
          parts: customerInvitation({ businessName, name: p.name, link: links.get(uids.get(p.email) as string) as string, days: invitationLinkDays }),
        })),
      );
      await recordAudit(tx, {
        ...auditedBy(actor),
        action: 'customer.invite',
        entity: 'customer',
        entityId: null,
        changes: { invited: queued, customer_ids: people.map((p) => p.id), ...(since ? { resend_after_days: input.resend_after_days } : {}) },
      });
      return { found: people.length, queued };
    });
    total += batch.queued;
    // The last of them, or a run at the same moment invited these first (their rows now exist): stop either way.
    if (batch.found < size || batch.queued === 0) break;
  }
  const { waiting, already } = await counted(db, since);
  return { waiting, invited: total, already_invited: already, email_configured: true };
}
