import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accepted_page, audit_log, class_reservation, class_reservation_penalty, customer, customer_note, page, single_class } from '@estudio/db';
import type { TestServer } from '../../server/test/support/helpers.ts';
import type { DeskService } from '../src/service/desk-service.ts';
import { deskOnTestServer, until, type DeskOnServer } from './desk-harness.ts';
import { checkInStart } from './check-in-time.ts';
import { defaultStudioTimeZone, formatDate } from '@estudio/core';
import { studioDay } from '../src/service/time.ts';

/**
 * Booking or checking in a customer who has not accepted the
 * studio's required documents, or whose profile misses required fields, is
 * flagged at the counter, and staff collect the acceptance on the desk.
 */
let server: TestServer;
let desk: DeskService;
let harness: DeskOnServer | undefined;
let reservationId = 0;
let customerId = 0;

beforeAll(async () => {
  harness = await deskOnTestServer();
  ({ server, desk } = harness);

  // A class of today with someone booked, moved to have started 10 minutes ago (or to start in 10, just after midnight) so it can be checked in now.
  const day = studioDay(new Date(), defaultStudioTimeZone);
  const [row] = await server.db
    .select({ id: class_reservation.class_reservation_id, customer_id: class_reservation.customer_id, class_id: single_class.single_class_id })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .innerJoin(customer, eq(customer.customer_id, class_reservation.customer_id))
    .where(and(isNull(class_reservation.deletedAt), eq(class_reservation.attend, false), isNull(single_class.cancelledAt), sql`${single_class.class_date} >= ${day.start.toISOString()}::timestamptz`))
    .orderBy(single_class.class_date)
    .limit(1);
  if (!row) throw new Error('the demo seed has reservations from today on');
  reservationId = row.id;
  customerId = row.customer_id;
  await server.db.update(single_class).set({ class_date: checkInStart(-10) }).where(eq(single_class.single_class_id, row.class_id));
  // The customer has not accepted the documents and has no birthdate.
  await server.db.delete(accepted_page).where(eq(accepted_page.customer_id, customerId));
  await server.db.update(customer).set({ birthdate: null }).where(eq(customer.customer_id, customerId));
});

afterAll(async () => {
  await harness?.close();
});

describe('counter warnings', () => {
  it('names the required documents not accepted (title and text) and the missing profile fields', async () => {
    const required = await server.db.select({ page_id: page.page_id, title: page.title }).from(page).where(eq(page.required, true));
    expect(required.length, 'the demo studio has required pages').toBeGreaterThan(0);
    await until('replica has the change', async () => (await desk.counterWarnings(customerId)).missingProfile.includes('birthdate'));
    const warnings = await desk.counterWarnings(customerId);
    expect(warnings.pendingDocuments.map((d) => d.title).sort()).toEqual(required.map((r) => r.title).sort());
    expect(warnings.missingProfile).toEqual(['birthdate']);
    expect(warnings.title).toBe('Documentos sin aceptar y perfil incompleto');
  });

  it('checks the customer in with both warnings on the scan outcome, without refusing entry', async () => {
    const result = await desk.checkIn(reservationId);
    expect(result.checkedIn).toBe(true);
    expect(result.warnings).toEqual(expect.arrayContaining(['documents-pending', 'profile-incomplete']));
  });

  it('records the acceptance collected at the desk with the staff member and the time, through the outbox', async () => {
    const pending = (await desk.counterWarnings(customerId)).pendingDocuments;
    await desk.acceptDocuments(
      customerId,
      pending.map((d) => d.page_id),
    );
    // At once on the desk (optimistic), then on the server.
    expect((await desk.counterWarnings(customerId)).pendingDocuments).toEqual([]);
    await until('sent', () => desk.status().pending === 0);
    const rows = await server.db.select().from(accepted_page).where(eq(accepted_page.customer_id, customerId));
    expect(rows.map((r) => r.page_id).sort()).toEqual(pending.map((d) => d.page_id).sort());
    const [staff] = await server.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, 'recepcion@estudio.demo'));
    const [audit] = await server.db.select().from(audit_log).where(and(eq(audit_log.action, 'customer.documents.accept-at-desk'), eq(audit_log.entity_id, String(customerId))));
    expect(audit).toMatchObject({ customer_id: staff?.id, entity: 'customer' });
    expect((audit?.changes as { at?: string }).at).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await until('replica has the server rows', async () => (await desk.counterWarnings(customerId)).pendingDocuments.length === 0 && desk.status().pending === 0);
    expect(desk.status().rejections).toEqual([]);
    // Everything accepted, the birth date still missing: the box is about the profile, not the documents.
    const after = await desk.counterWarnings(customerId);
    expect(after).toMatchObject({ pendingDocuments: [], missingProfile: ['birthdate'], title: 'Perfil incompleto' });
  });

  it('says nothing once the profile is complete too', async () => {
    await server.db.update(customer).set({ birthdate: '1990-05-04' }).where(eq(customer.customer_id, customerId));
    await until('replica has the birth date', async () => (await desk.counterWarnings(customerId)).missingProfile.length === 0);
    expect(await desk.counterWarnings(customerId)).toMatchObject({ pendingDocuments: [], missingProfile: [], title: null, penalty: null });
  });

  it("a required page published again as a new version is pending again at the counter; accepting it at the desk records that version", async () => {
    const [required] = await server.db.select({ page_id: page.page_id, title: page.title }).from(page).where(eq(page.required, true)).orderBy(page.page_id).limit(1);
    if (!required) throw new Error('the demo studio has required pages');
    await server.db.update(page).set({ version: sql`${page.version} + 1` }).where(eq(page.page_id, required.page_id));
    const [{ version } = { version: 0 }] = await server.db.select({ version: page.version }).from(page).where(eq(page.page_id, required.page_id));
    await until('replica has the new version', async () => (await desk.counterWarnings(customerId)).pendingDocuments.length === 1);
    const shown = (await desk.counterWarnings(customerId)).pendingDocuments;
    expect(shown.map((d) => ({ title: d.title, version: d.version }))).toEqual([{ title: required.title, version }]);

    // The version staff showed travels with the acceptance, as the modal sends it.
    await desk.acceptDocuments(customerId, [required.page_id], shown.map((d) => ({ page_id: d.page_id, version: d.version })));
    expect((await desk.counterWarnings(customerId)).pendingDocuments).toEqual([]);
    await until('sent', () => desk.status().pending === 0);
    const rows = await server.db.select().from(accepted_page).where(and(eq(accepted_page.customer_id, customerId), eq(accepted_page.page_id, required.page_id)));
    expect(rows.map((r) => r.version).sort()).toEqual([version - 1, version]);
    await until('replica has the server rows', async () => (await desk.counterWarnings(customerId)).pendingDocuments.length === 0 && desk.status().pending === 0);
    expect(desk.status().rejections).toEqual([]);
  });

  it('says an active penalty before staff try to book, and forgets it once it is lifted', async () => {
    const start = new Date(Date.now() - 86_400_000);
    const end = new Date(Date.now() + 3 * 86_400_000);
    const [penalty] = await server.db
      .insert(class_reservation_penalty)
      .values({ customer_id: customerId, start_date: start, end_date: end, no_shows: 3 })
      .returning();
    await until('replica has the penalty', async () => (await desk.counterWarnings(customerId)).penalty !== null);
    const until_ = formatDate(end, defaultStudioTimeZone);
    expect((await desk.counterWarnings(customerId)).penalty).toBe(`Penalización activa: 3 inasistencias seguidas con su paquete ilimitado. No puede reservar con él hasta el ${until_}.`);
    // An administrator's "Quitar penalización" names it.
    expect((await desk.counterWarnings(customerId)).penaltyId).toBe(penalty!.class_reservation_penalty_id);
    await server.db.update(class_reservation_penalty).set({ deletedAt: new Date() }).where(eq(class_reservation_penalty.class_reservation_penalty_id, penalty!.class_reservation_penalty_id));
    await until('replica has it lifted', async () => (await desk.counterWarnings(customerId)).penalty === null);
    expect((await desk.counterWarnings(customerId)).penaltyId).toBeNull();
  });
});

describe('notes and alerts on the customer', () => {
  it('an alert written at the desk shows on the card at once and at every scan (admitting); it reaches the server once, with who wrote it', async () => {
    await desk.mutate('addCustomerNote', { customer_id: customerId, kind: 'alert', body: 'Debe $150 de la clase del sábado.' });
    const local = await desk.customerNotes(customerId);
    expect(local[0]).toMatchObject({ kind: 'alert', body: 'Debe $150 de la clase del sábado.', pending: true, removable: false });
    expect(local[0]!.customer_note_id).toBeLessThan(0);
    await until('sent and pulled back', async () => desk.status().pending === 0 && (await desk.customerNotes(customerId)).some((n) => n.customer_note_id > 0 && n.kind === 'alert'));
    const [stored] = await server.db.select().from(customer_note).where(eq(customer_note.customer_id, customerId));
    const [staff] = await server.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, 'recepcion@estudio.demo'));
    expect(stored).toMatchObject({ kind: 'alert', created_by: staff?.id });
    expect((await desk.customerNotes(customerId))[0]).toMatchObject({ created_by_name: 'Andrea Torres', pending: false, removable: true });
    // The scan says it beside the verdict; an alert never refuses entry.
    const scan = await desk.checkIn(reservationId);
    expect(scan.warnings).toContain('customer-alert');
    expect(scan.notices.find((n) => n.code === 'customer-alert')).toMatchObject({ text: 'Alerta: Debe $150 de la clase del sábado.', blocks: false, tone: 'yellow' });
  });

  it("a health note stays on the server: the replica never holds it, the card reads it from the server", async () => {
    const [admin] = await server.db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, 'admin@estudio.demo'));
    await server.db.insert(customer_note).values([
      { customer_id: customerId, kind: 'health', body: 'Asma: trae su inhalador.', created_by: admin!.id },
      { customer_id: customerId, kind: 'note', body: 'Prefiere el lugar 3.', created_by: admin!.id },
    ]);
    await until('replica has the note', async () => (await desk.customerNotes(customerId)).some((n) => n.kind === 'note'));
    // Written by the owner: Recepción cannot remove it.
    expect((await desk.customerNotes(customerId)).find((n) => n.kind === 'note')).toMatchObject({ removable: false, created_by_name: expect.any(String) });
    const onDisk = (await desk.db.execute(sql`select count(*)::int as n from customer_note where kind = 'health'`)) as unknown as { rows: { n: number }[] };
    expect(onDisk.rows[0]?.n).toBe(0);
  });
});

describe('refused changes', () => {
  it('reads the server’s reason in the staff wording by its code, also for refusals stored before this version', async () => {
    // Refusals as the replica keeps them: the server's own text (to the customer), its code and whom it was about;
    // 'Entendido' on the third refreshes the list the screen reads.
    const [who] = await server.db.select({ name: customer.name, last_name: customer.last_name, phone: customer.phone }).from(customer).where(eq(customer.customer_id, customerId));
    const subject = JSON.stringify({ customer: { id: customerId, name: `${who?.name} ${who?.last_name}`, phone: who?.phone ?? null }, class: null, package: null, amount: null });
    // The desk's one sync client (the receptionist's, who sent the acceptance above).
    const clients = ((await desk.db.execute(sql`select client_id from desk.client`)) as unknown as { rows: { client_id: string }[] }).rows;
    expect(clients).toHaveLength(1);
    const clientId = clients[0]?.client_id ?? '';
    for (const [id, code, message] of [
      [900001, 'booking/no-credits', 'Lo sentimos. Has agotado todos tus créditos para reservar Clases Presenciales...'],
      [900002, 'booking/guest-name', 'Escribe el nombre de tu invitado.'],
      [900003, 'desk/not-synced', 'Mensaje sin versión para el personal.'],
    ] as const) {
      await desk.db.execute(
        sql`insert into desk.rejection (client_id, mutation_id, name, args, code, message, subject)
            values (${clientId}, ${id}, 'walkIn', ${JSON.stringify({ customer_id: customerId, single_class_id: 1 })}::jsonb, ${code}, ${message}, ${subject}::jsonb)`,
      );
    }
    await desk.dismissRejection(900003);
    const shown = desk.status().rejections;
    expect(shown.map((r) => [r.code, r.message])).toEqual([
      ['booking/no-credits', 'El cliente no tiene créditos para esta clase. Véndele un paquete o regístralo con pago en efectivo.'],
      ['booking/guest-name', 'Escribe el nombre del invitado.'],
    ]);
    for (const r of shown) expect(r.message).not.toMatch(/\b(tus?|tienes|has)\b/i);
  });
});
