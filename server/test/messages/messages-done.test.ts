import { formatAccessCode } from '@estudio/core';
import { customer } from '@estudio/db/schema/customer';
import { waitlist } from '@estudio/db/schema/reservations';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingConfirmationsJob, bookingConfirmationsName } from '../../src/services/clock/booking-confirmations.ts';
import { startClock, type Clock } from '../../src/services/clock/scheduler.ts';
import { startDeliveryWorker, type DeliveryWorker } from '../../src/services/messages/delivery-worker.ts';
import { call, login, startTestServer, type TestServer } from '../support/helpers.ts';
import { silentLog, startLoopbackCloudApi, startLoopbackSmtp, type LoopbackCloudApi, type LoopbackSmtp } from '../support/messages-fixtures.ts';
import { createBookers, newClass, type Booker } from '../support/reservations-fixtures.ts';

/**
 *, "Done means": a studio on the embedded defaults configures SMTP
 * and WhatsApp in its settings (PUT /api/messaging/settings), and from then on
 * a booking, a freed waitlist place and a class the studio cancelled each
 * produce messages that arrive: read back from a loopback SMTP server and a
 * loopback WhatsApp Cloud API. (The password reset: messages-password-reset.test.ts.)
 */
let server: TestServer;
let smtp: LoopbackSmtp;
let api: LoopbackCloudApi;
let worker: DeliveryWorker;
let clock: Clock;
let admin: string;
let seq = 0;

beforeAll(async () => {
  server = await startTestServer({ MESSAGE_POLL_MS: '60000' });
  smtp = await startLoopbackSmtp();
  api = await startLoopbackCloudApi();
  admin = (await login(server.app, 'admin@estudio.demo')).idToken;
  const saved = await call(server.app, 'PUT', '/api/messaging/settings', {
    token: admin,
    body: { smtp_host: '127.0.0.1', smtp_port: smtp.port, smtp_secure: false, whatsapp_phone_number_id: '1098765', whatsapp_access_token: 'EAAhecho', whatsapp_api_base: api.base },
  });
  expect(saved.status).toBe(200);
  clock = startClock({ db: server.db, config: server.config, log: silentLog, timer: false, jobs: [bookingConfirmationsJob] });
  // The first run notes where the studio is (the seed's bookings are not confirmed).
  await clock.runJob(bookingConfirmationsName, new Date());
  worker = startDeliveryWorker({ db: server.db, config: server.config, log: silentLog });
}, 120_000);
afterAll(async () => {
  await worker?.stop();
  await clock?.stop();
  await smtp?.close();
  await api?.close();
  await server?.close();
});

/** New customers with a credit, a phone each. */
async function people(count: number): Promise<(Booker & { email: string; phone: string })[]> {
  const made = await createBookers(server.db, server.config.AUTH_SECRET, count, { credits: 2, prefix: `hecho-${++seq}-${Date.now()}` });
  const out = [];
  for (const [i, b] of made.entries()) {
    const phone = `55${String(Date.now() + i).slice(-8)}`;
    const [row] = await server.db.update(customer).set({ phone }).where(eq(customer.customer_id, b.customer_id)).returning({ email: customer.email });
    out.push({ ...b, email: row!.email, phone });
  }
  return out;
}

const mailTo = (email: string) => smtp.received.filter((m) => m.to === email);
const whatsappTo = (phone: string) => api.requests.filter((r) => r.body.to === `52${phone}`);
const templateOf = (r: { body: Record<string, unknown> }) => (r.body.template as { name: string }).name;

describe('a configured studio delivers', () => {
  it('a booking: the confirmation e-mail with its .ics, and the WhatsApp confirmation', async () => {
    const [ana] = await people(1);
    const classId = await newClass(server.db, { minutesAhead: 3 * 24 * 60, capacity: 5 });
    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: ana!.token, body: { single_class_id: classId } });
    expect(booked.status, booked.raw).toBe(200);
    expect(await clock.runJob(bookingConfirmationsName, new Date())).toBeGreaterThanOrEqual(1);
    await worker.drain();

    const [mail] = mailTo(ana!.email);
    expect(mail, 'sin correo de confirmación').toBeDefined();
    // The access code as staff read it at the counter (formatAccessCode), in both parts.
    const code = formatAccessCode(booked.body.class_reservation.access_code as string);
    expect(mail!.html).toContain(code);
    expect(mail!.text).toContain(code);
    expect(mail!.parts.some((p) => /^text\/calendar/.test(p.contentType) && p.body.includes('BEGIN:VEVENT'))).toBe(true);
    const [wa] = whatsappTo(ana!.phone);
    expect(wa && templateOf(wa)).toBe('estudio_confirmacion');
  });

  it('a freed waitlist place: everyone waiting is told by e-mail and WhatsApp', async () => {
    const [holder, w1, w2] = await people(3);
    const classId = await newClass(server.db, { minutesAhead: 2 * 24 * 60, capacity: 1, classType: 'Barre' });
    const booked = await call(server.app, 'POST', '/api/class_reservations', { token: holder!.token, body: { single_class_id: classId } });
    expect(booked.status, booked.raw).toBe(200);
    await server.db.insert(waitlist).values([{ single_class_id: classId, customer_id: w1!.customer_id }]);
    await server.db.insert(waitlist).values([{ single_class_id: classId, customer_id: w2!.customer_id }]);
    const cancel = await call(server.app, 'POST', `/api/class_reservations/${booked.body.class_reservation.class_reservation_id}/cancel`, { token: holder!.token });
    expect(cancel.status, cancel.raw).toBe(200);
    await worker.drain();

    for (const w of [w1!, w2!]) {
      const [mail] = mailTo(w.email);
      expect(mail?.subject).toBe('Se liberó un lugar en Barre');
      const [wa] = whatsappTo(w.phone);
      expect(wa && templateOf(wa)).toBe('estudio_lugar_libre');
    }
  });

  it('a class the studio cancelled: the booked customer is told by e-mail and WhatsApp', async () => {
    const [bea] = await people(1);
    const classId = await newClass(server.db, { minutesAhead: 4 * 24 * 60, capacity: 5, classType: 'Barre' });
    expect((await call(server.app, 'POST', '/api/class_reservations', { token: bea!.token, body: { single_class_id: classId } })).status).toBe(200);
    const cancelled = await call(server.app, 'POST', `/api/single_class/${classId}/cancel`, { token: admin });
    expect(cancelled.status, cancelled.raw).toBe(200);
    await worker.drain();

    const [mail] = mailTo(bea!.email);
    expect(mail?.subject).toBe('Clase cancelada: Barre');
    const [wa] = whatsappTo(bea!.phone);
    expect(wa && templateOf(wa)).toBe('estudio_clase_cancelada');
  });
});
