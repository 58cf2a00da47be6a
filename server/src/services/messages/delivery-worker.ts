import { isOptionalMessage } from '@estudio/core';
import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import { outbox_message } from '@estudio/db/schema/outbox';
import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import { DeliveryFailure, type MessageSender, type OutgoingMessage } from '../../providers/messages/types.ts';
import { messageContextOf } from './message-context.ts';
import { resolveMessaging, sendersOf, timeoutOf } from './messaging-settings.ts';
import { oneClickStopUrlOf } from './preferences.ts';
import { preferencesOf } from './queue-message.ts';

type OutboxRow = typeof outbox_message.$inferSelect;
type Channel = OutboxRow['channel'];

/** After this many attempts a temporary failure becomes final ('failed'). */
export const maxAttempts = 8;
/** Rows claimed at once by one process, and sent at once. */
const batchSize = 20;
const parallel = 5;

/** 30 s, 1 min, 2 min… capped at 1 h, jittered ±20 % so a burst of failures does not come back as one burst. */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
  return Math.round(base * (0.8 + 0.4 * random()));
}

export interface WorkerLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface DeliveryWorker {
  /** Stops polling and waits for the batch in flight. */
  stop(): Promise<void>;
  /** Sends everything due now (repeating until nothing is due); answers how many rows it attempted. */
  drain(): Promise<number>;
}

type WorkerConfig = Parameters<typeof resolveMessaging>[1] & Pick<Config, 'MESSAGE_POLL_MS' | 'MESSAGE_CLAIM_LEASE_MS'>;

/**
 * Claims up to `limit` due rows of the given channels for this process
 * (decision 022): pending, due, and not leased by a live sender. One
 * statement, so one short transaction: the subquery locks the rows it picks
 * and skips rows another sender is claiming (FOR UPDATE SKIP LOCKED); a row
 * that another sender claimed and committed meanwhile is re-checked against
 * its new lease and left out. The lease and the attempt are written at once.
 */
export async function claimDue(db: Db, channels: Channel[], now: Date, leaseMs: number, limit = batchSize): Promise<{ rows: OutboxRow[]; lease: Date }> {
  const lease = new Date(now.getTime() + leaseMs);
  if (channels.length === 0) return { rows: [], lease };
  const due = db
    .select({ id: outbox_message.outbox_message_id })
    .from(outbox_message)
    .where(
      and(
        eq(outbox_message.status, 'pending'),
        inArray(outbox_message.channel, channels),
        lte(outbox_message.next_attempt_at, now),
        or(isNull(outbox_message.claimed_until), lt(outbox_message.claimed_until, now)),
      ),
    )
    .orderBy(asc(outbox_message.next_attempt_at), asc(outbox_message.outbox_message_id))
    .limit(limit)
    .for('update', { skipLocked: true });
  const rows = await db
    .update(outbox_message)
    .set({ claimed_until: lease, attempts: sql`${outbox_message.attempts} + 1` })
    .where(inArray(outbox_message.outbox_message_id, due))
    .returning();
  rows.sort((a, b) => a.outbox_message_id - b.outbox_message_id);
  return { rows, lease };
}

/** The row is still ours: pending, with the lease and attempt count this process wrote. A sender whose lease lapsed cannot overwrite a newer claim. */
const fenced = (row: OutboxRow, lease: Date) =>
  and(
    eq(outbox_message.outbox_message_id, row.outbox_message_id),
    eq(outbox_message.status, 'pending'),
    eq(outbox_message.claimed_until, lease),
    eq(outbox_message.attempts, row.attempts),
  );

/** Records what the provider said about one claimed row. Answers false when the claim was lost (nothing written). */
export async function recordOutcome(
  db: Db,
  row: OutboxRow,
  lease: Date,
  outcome: { sent: true; providerMessageId: string } | { sent: false; failure: DeliveryFailure },
  now: Date = new Date(),
): Promise<boolean> {
  let set: Partial<OutboxRow>;
  if (outcome.sent) {
    set = { status: 'sent', sentAt: now, provider_message_id: outcome.providerMessageId, claimed_until: null, last_error: null };
  } else if (outcome.failure.permanent) {
    set = { status: 'failed', last_error: outcome.failure.reason, claimed_until: null };
  } else if (outcome.failure.setup) {
    // The studio's setup is at fault (expired token, wrong password): the attempt does not count against the message.
    const wait = Math.max(outcome.failure.retryAfterMs ?? 0, backoffMs(1));
    set = { last_error: outcome.failure.reason, claimed_until: null, attempts: Math.max(0, row.attempts - 1), next_attempt_at: new Date(now.getTime() + wait) };
  } else if (row.attempts >= maxAttempts) {
    set = { status: 'failed', last_error: `${outcome.failure.reason} Se agotaron los ${maxAttempts} intentos.`, claimed_until: null };
  } else {
    const wait = Math.max(outcome.failure.retryAfterMs ?? 0, backoffMs(row.attempts));
    set = { last_error: outcome.failure.reason, claimed_until: null, next_attempt_at: new Date(now.getTime() + wait) };
  }
  const updated = await db.update(outbox_message).set(set).where(fenced(row, lease)).returning({ id: outbox_message.outbox_message_id });
  if (updated.length > 0 && set.status && row.kind === 'privacy-request-answered') await forgetAnonymisedRecipient(db, row.outbox_message_id);
  return updated.length > 0;
}

/**
 * The answer to a cancellation is the one message that leaves after her data was cancelled (decision 128): once it
 * is sent or has failed for good, its row forgets her address and text like the messages before it (decision 124).
 */
async function forgetAnonymisedRecipient(db: Db, id: number): Promise<void> {
  await db
    .update(outbox_message)
    .set({ recipient: 'anonimizado', subject: null, body: '', html: null })
    .where(
      and(
        eq(outbox_message.outbox_message_id, id),
        sql`exists (select 1 from customer c where c.customer_id = ${outbox_message.customer_id} and c.email like 'anonimizado-%@anonimizado.invalid')`,
      ),
    );
}

/** Gives a claimed row back untried: no attempt counted, free for the next claim at once. */
export async function releaseClaim(db: Db, row: OutboxRow, lease: Date): Promise<boolean> {
  const updated = await db
    .update(outbox_message)
    .set({ claimed_until: null, attempts: Math.max(0, row.attempts - 1) })
    .where(fenced(row, lease))
    .returning({ id: outbox_message.outbox_message_id });
  return updated.length > 0;
}

/**
 * The delivery worker (decision 022): every MESSAGE_POLL_MS it
 * claims due rows of the configured channels, sends each outside the claim's
 * transaction, and records the outcome fenced on its claim. At-least-once:
 * a process that dies after the provider accepted a message and before the
 * row says 'sent' leaves a claim that lapses, and the message goes again
 * with the same Message-ID (receivers de-duplicate on it).
 */
/** Told when each poll begins and ends (the process's readiness, decision 075). */
export interface LoopHeartbeat {
  start(): void;
  end(): void;
}

export function startDeliveryWorker({ db, config, log, heartbeat }: { db: Db; config: WorkerConfig; log: WorkerLog; heartbeat?: LoopHeartbeat | undefined }): DeliveryWorker {
  const ctx = messageContextOf(config);
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<number> | null = null;
  let senders: { key: string; email: MessageSender | null; whatsapp: MessageSender | null } | null = null;
  /**
   * Channels held back by a setup failure (expired token, refused login): the
   * rest of their messages wait without calling the provider again, until the
   * failure's wait is over or the settings change.
   */
  const paused = new Map<Channel, { key: string; until: number; failure: DeliveryFailure | null }>();
  /** The channel's pause: with a failure (setup) its rows are recorded with it; without (the provider is down) they are given back untried. */
  const pauseOf = (channel: Channel, key: string, now: number) => {
    const pause = paused.get(channel);
    if (pause && (pause.key !== key || pause.until <= now)) paused.delete(channel);
    return paused.get(channel) ?? null;
  };
  /** A send is started only with this much of the lease left, so no row is sent after another process may have claimed it. */
  const leaseMargin = Math.min(timeoutOf(config), config.MESSAGE_CLAIM_LEASE_MS / 2);

  async function currentSenders() {
    const resolved = await resolveMessaging(db, config);
    const key = JSON.stringify(resolved);
    if (senders?.key !== key) {
      const old = senders;
      senders = { key, ...sendersOf(resolved) };
      if (old) await Promise.all([old.email?.close(), old.whatsapp?.close()]);
    }
    return senders;
  }

  async function outgoing(row: OutboxRow): Promise<OutgoingMessage> {
    let unsubscribeUrl: string | null = null;
    if (row.channel === 'email' && row.customer_id !== null && isOptionalMessage(row.kind)) {
      // RFC 8058: the List-Unsubscribe URL takes the one-click POST (a GET leads to the portal's stop page).
      unsubscribeUrl = oneClickStopUrlOf(ctx, (await preferencesOf(db, row.customer_id)).stop_token);
    }
    return {
      id: row.outbox_message_id,
      stamp: row.createdAt.getTime(),
      kind: row.kind,
      recipient: row.recipient,
      subject: row.subject,
      text: row.body,
      html: row.html,
      attachments: row.attachments,
      whatsappTemplate: row.whatsapp_template,
      unsubscribeUrl,
    };
  }

  async function deliver(row: OutboxRow, lease: Date, sender: MessageSender, key: string, probe: boolean): Promise<void> {
    let outcome: Parameters<typeof recordOutcome>[3];
    const pause = pauseOf(row.channel, key, Date.now());
    if ((pause && !pause.failure) || Date.now() + leaseMargin > lease.getTime()) {
      await releaseClaim(db, row, lease);
      return;
    }
    if (pause?.failure) {
      outcome = { sent: false, failure: pause.failure };
    } else {
      try {
        const sent = await sender.send(await outgoing(row));
        outcome = { sent: true, providerMessageId: sent.providerMessageId };
      } catch (error) {
        const failure =
          error instanceof DeliveryFailure ? error : new DeliveryFailure('Error inesperado al enviar el mensaje; se intentará de nuevo.', { permanent: false, cause: error });
        if (!(error instanceof DeliveryFailure)) log.error({ err: error, outbox_message_id: row.outbox_message_id }, 'error inesperado al enviar un mensaje');
        if (failure.setup) paused.set(row.channel, { key, until: Date.now() + Math.max(failure.retryAfterMs ?? 0, backoffMs(1)), failure });
        // The channel's first message of the batch failed for a while (server down, rate limit): the rest are given back untried.
        else if (probe && !failure.permanent) paused.set(row.channel, { key, until: Date.now() + Math.max(failure.retryAfterMs ?? 0, backoffMs(1)), failure: null });
        outcome = { sent: false, failure };
      }
    }
    const recorded = await recordOutcome(db, row, lease, outcome);
    if (!recorded) log.warn({ outbox_message_id: row.outbox_message_id }, 'el permiso para enviar este mensaje venció antes de registrar el resultado');
    else if (!outcome.sent) log.warn({ outbox_message_id: row.outbox_message_id, channel: row.channel, reason: outcome.failure.reason }, 'mensaje no enviado');
  }

  /** One batch: claim, send (a few at once), record. Answers how many rows were claimed. */
  async function batch(): Promise<number> {
    const now = new Date();
    const active = await currentSenders();
    const channels = (['email', 'whatsapp'] as const).filter((c) => active[c] !== null && !pauseOf(c, active.key, now.getTime()));
    // A paused channel's rows are not claimed: they stay due for another process, or for this one when the pause ends.
    if (channels.length === 0) return 0;
    const { rows, lease } = await claimDue(db, [...channels], now, config.MESSAGE_CLAIM_LEASE_MS);
    const one = async (row: OutboxRow, probe = false) => {
      try {
        await deliver(row, lease, active[row.channel] as MessageSender, active.key, probe);
      } catch (error) {
        // Recording failed (the database went away): the claim lapses and the row is tried again.
        log.error({ err: error, outbox_message_id: row.outbox_message_id }, 'no se pudo registrar el envío de un mensaje');
      }
    };
    // The first message of each channel goes alone: if the setup is wrong (expired token), the rest wait without calling the provider.
    const firsts = channels.map((c) => rows.find((r) => r.channel === c)).filter((r): r is OutboxRow => r !== undefined);
    await Promise.all(firsts.map((row) => one(row, true)));
    const rest = rows.filter((r) => !firsts.includes(r));
    let next = 0;
    const lane = async () => {
      while (next < rest.length) {
        const row = rest[next++] as OutboxRow;
        // Stopping (SIGTERM): what is not being sent yet goes back untried, free at once for another process (decision 076).
        if (stopped) await releaseClaim(db, row, lease).catch(() => false);
        else await one(row);
      }
    };
    await Promise.all(Array.from({ length: Math.min(parallel, rest.length) }, lane));
    return rows.length;
  }

  async function drainOnce(): Promise<number> {
    let total = 0;
    for (;;) {
      const n = await batch();
      total += n;
      if (n < batchSize || stopped) return total;
    }
  }

  function run(): Promise<number> {
    if (running) return running.then(() => run());
    running = drainOnce().finally(() => {
      running = null;
    });
    return running;
  }

  const tick = () => {
    if (stopped) return;
    heartbeat?.start();
    run()
      .catch((error: unknown) => log.error({ err: error }, 'el envío de mensajes falló; se intentará de nuevo'))
      .finally(() => {
        heartbeat?.end();
        if (!stopped) timer = setTimeout(tick, config.MESSAGE_POLL_MS);
      });
  };
  timer = setTimeout(tick, 0);

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (running) await running.catch(() => 0);
      const last = senders;
      senders = null;
      if (last) await Promise.all([last.email?.close(), last.whatsapp?.close()]);
    },
    drain: () => run(),
  };
}
