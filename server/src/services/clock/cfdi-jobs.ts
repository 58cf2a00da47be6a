import { renewVoucherSubscriptions } from '../billing/voucher-renewals.ts';
import { issueGlobalInvoices } from '../cfdi/global-invoice.ts';
import { sendDueCfdis } from '../cfdi/send-cfdi.ts';
import type { ClockJob } from './job.ts';

/**
 * Stamps what waits (decision 084): invoices customers and staff asked for,
 * global invoices, credit notes and cancellations, through the studio's PAC.
 * Without a PAC key nothing leaves and everything waits as pending.
 */
export const cfdiSenderJob: ClockJob = {
  name: 'cfdi-sender',
  schedule: { everyMs: 30_000 },
  leaseMs: 10 * 60_000,
  run: (ctx, now) => sendDueCfdis({ db: ctx.db, config: ctx.config, messages: ctx.messages, log: ctx.log }, now),
};

/** Every night, the global invoice of each period whose sales can no longer be invoiced to a person (decision 085). */
export const cfdiGlobalJob: ClockJob = {
  name: 'cfdi-global',
  schedule: { daily: () => ({ hour: 2, minute: 0 }) },
  leaseMs: 10 * 60_000,
  run: (ctx, now) => issueGlobalInvoices(ctx.db, now),
};

/** Subscriptions paid by OXXO or SPEI: the next voucher or transfer before each charge date, reminders, the lapse (decision 083). */
export const voucherRenewalsJob: ClockJob = {
  name: 'voucher-renewals',
  schedule: { everyMs: 15 * 60_000 },
  run: (ctx, now) => renewVoucherSubscriptions({ db: ctx.db, config: ctx.config, messages: ctx.messages, log: ctx.log }, now),
};
