// Message figures, on PostgreSQL with the real SMTP client against a
// loopback smtp-server:
//   1. delivery throughput: BENCH_MESSAGES e-mails queued at once, drained by one
//      worker, then by two workers on one database (each arrives once);
//   2. queue → inbox latency as a customer waits for it: messages queued one by
//      one at random moments while the worker polls at its default interval
//      (MESSAGE_POLL_MS, 1 s); p50 and p95 from the commit of the row to the
//      SMTP server's acceptance;
//   3. booking → confirmation in the inbox: a booking through the reservation service (as staff book), the
//      clock's confirmation job on its 5 s period (the clock ticking every second here) and the worker polling.
//
//   npx tsx bench/messages.ts
//
// Uses TEST_DATABASE_URL (default postgres://postgres:postgres@127.0.0.1:5432/postgres)
// for a fresh seeded database, dropped at the end. Knobs: BENCH_MESSAGES (500),
// BENCH_TRICKLE (40), BENCH_BOOKINGS (5).
import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import { customer, outbox_message, single_class } from '@estudio/db';
import { createReservation } from '../server/src/services/reservations/create-reservation.ts';
import { createTestDb } from '@estudio/db/testing';
import { queueEmail } from '../server/src/services/messages/queue-message.ts';
import { messageContextOf } from '../server/src/services/messages/message-context.ts';
import { startDeliveryWorker } from '../server/src/services/messages/delivery-worker.ts';
import { startClock } from '../server/src/services/clock/scheduler.ts';
import { testConfig } from '../server/test/support/helpers.ts';
import { startLoopbackSmtp } from '../server/test/support/messages-fixtures.ts';

process.env.TEST_DATABASE_URL ||= 'postgres://postgres:postgres@127.0.0.1:5432/postgres';
const total = Number(process.env.BENCH_MESSAGES ?? 500);
const trickle = Number(process.env.BENCH_TRICKLE ?? 40);
const silent = { info() {}, warn() {}, error() {} };
const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const smtp = await startLoopbackSmtp();
const testDb = await createTestDb();
const db = testDb.db;
const config = testConfig({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), CLOCK_TICK_MS: '1000' });
const ctx = messageContextOf(config);
const parts = (i: number) => ({ kind: 'general' as const, subject: `Prueba ${i}`, paragraphs: ['Mensaje de prueba de la medición.'] });

async function queueMany(n: number, tag: string) {
  for (let i = 0; i < n; i++) await queueEmail(db, ctx, { to: `persona${i}@correo.demo`, parts: parts(i), dedupeKey: `${tag}:${i}` });
}
async function waitFor(count: number, timeoutMs = 300_000) {
  const t0 = Date.now();
  while (smtp.received.length < count && Date.now() - t0 < timeoutMs) await sleep(20);
}

try {
  // 1. Throughput, one worker then two.
  const figures: Record<string, string> = {};
  for (const workers of [1, 2]) {
    smtp.received.length = 0;
    await queueMany(total, `throughput-${workers}`);
    const t0 = performance.now();
    const running = Array.from({ length: workers }, () => startDeliveryWorker({ db, config: { ...config, MESSAGE_POLL_MS: 50 }, log: silent }));
    await waitFor(total);
    const seconds = (performance.now() - t0) / 1000;
    await Promise.all(running.map((w) => w.stop()));
    const ids = new Set(smtp.received.map((m) => m.messageId));
    figures[`${workers} worker(s)`] = `${total} e-mails in ${seconds.toFixed(1)} s = ${(total / seconds).toFixed(0)}/s, ${ids.size} distinct, ${smtp.received.length - ids.size} duplicates`;
  }
  console.log('Throughput:', figures);

  // 2. Queue → inbox, with the default poll interval.
  smtp.received.length = 0;
  const worker = startDeliveryWorker({ db, config, log: silent });
  const latencies: number[] = [];
  for (let i = 0; i < trickle; i++) {
    await sleep(Math.random() * 1500);
    const before = smtp.received.length;
    const t0 = performance.now();
    await queueEmail(db, ctx, { to: `goteo${i}@correo.demo`, parts: parts(i), dedupeKey: `trickle:${i}` });
    await waitFor(before + 1, 30_000);
    latencies.push(performance.now() - t0);
  }
  console.log(
    `Queue → inbox (poll ${config.MESSAGE_POLL_MS} ms, ${trickle} messages): p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms; ` +
      `p95 / poll interval = ${(percentile(latencies, 95) / config.MESSAGE_POLL_MS).toFixed(2)}`,
  );

  // 3. Booking → confirmation in the inbox (the clock and the worker as a server runs them).
  const clock = startClock({ db, config, log: silent });
  await clock.runDue(new Date()); // the confirmation job's first run sets its watermark
  const bookings = Number(process.env.BENCH_BOOKINGS ?? 5);
  // The unlimited member books classes of the next days, as staff at the desk would (any class that has not ended).
  const [member] = await db.select({ id: customer.customer_id, email: customer.email }).from(customer).where(eq(customer.email, 'ilimitado@estudio.demo'));
  const upcoming = await db
    .select({ id: single_class.single_class_id })
    .from(single_class)
    .where(and(gt(single_class.class_date, new Date(Date.now() + 3 * 3_600_000)), isNull(single_class.cancelledAt)))
    .orderBy(asc(single_class.class_date));
  const bookingLatencies: number[] = [];
  for (const c of upcoming) {
    if (bookingLatencies.length >= bookings) break;
    const before = smtp.received.filter((m) => m.to === member!.email).length;
    const t0 = performance.now();
    try {
      await createReservation(db, { customerId: member!.id, singleClassId: c.id, byStaff: true });
    } catch {
      continue; // full, already booked, or not bookable with this membership
    }
    const t1 = Date.now();
    while (smtp.received.filter((m) => m.to === member!.email).length <= before && Date.now() - t1 < 60_000) await sleep(50);
    bookingLatencies.push(performance.now() - t0);
    await sleep(Math.random() * 5_000);
  }
  await clock.stop();
  await worker.stop();
  if (bookingLatencies.length) {
    console.log(
      `Booking → confirmation in the inbox (${bookingLatencies.length} bookings; the job runs every 5 s): p50 ${(percentile(bookingLatencies, 50) / 1000).toFixed(1)} s, ` +
        `max ${(Math.max(...bookingLatencies) / 1000).toFixed(1)} s; max / job period = ${(Math.max(...bookingLatencies) / 5_000).toFixed(2)}`,
    );
  }
  const failed = await db.select({ id: outbox_message.outbox_message_id }).from(outbox_message).where(eq(outbox_message.status, 'failed'));
  console.log(`Failed messages: ${failed.length}`);
} finally {
  await smtp.close();
  await testDb.close();
}
