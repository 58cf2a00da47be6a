import { and, desc, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { accepted_page, page } from '@estudio/db/schema/content';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { payment_method } from '@estudio/db/schema/payments';
import { available_classes, purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { sync_mutation } from '@estudio/db/schema/sync';
import type { TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId, newClass } from '../support/reservations-fixtures.ts';
import { minutesAheadToday, newClientId, trpcMutation } from '../support/sync-helpers.ts';

/**
 * A first-time walk-in registered at a desk with no connection (both drivers): the registration and the changes
 * that name the customer's temporary id (a sale, a booking) reach the server in one push, each exactly once; the
 * server gives her an id, or finds her by e-mail, then phone, and says so.
 */
let server: TestServer;
let recepcion: string;
let cash: number;
let fivePack: number;
let pages: number[];
let run = 0;
demoStudio(['recepcion'], (s) => ({ server, tokens: { recepcion } } = s));
beforeAll(async () => {
  cash = (await server.db.select().from(payment_method)).find((m) => m.provider === 'cash')!.payment_method_id;
  fivePack = (await server.db.select().from(class_package).where(eq(class_package.title, '5 Clases')))[0]!.class_package_id;
  pages = (await server.db.select({ id: page.page_id }).from(page).where(eq(page.required, true))).map((p) => p.id);
}, 120_000);

function walkInForm(overrides: Record<string, unknown> = {}) {
  run += 1;
  const n = `${Date.now() % 100000}${run}`.padStart(8, '0').slice(-8);
  return { name: 'Renata', last_name: 'Ortiz Salas', phone: `55${n}`, email: `renata.${n}@sinred.mx`, accepted_page_ids: pages, ...overrides };
}

/** The desk's queue after an outage: she is registered (temporary id -7), buys five classes and books today's class. */
function outage(form: Record<string, unknown>, classId: number) {
  return [
    { id: 1, name: 'registerCustomer', args: form, temp_id: -7 },
    { id: 2, name: 'sellAtDesk', args: { customer_id: -7, packages: [{ class_package_id: fivePack }], payment_method_id: cash } },
    { id: 3, name: 'walkIn', args: { customer_id: -7, single_class_id: classId } },
  ];
}

const push = (clientId: string, mutations: unknown[]) => trpcMutation(server.app, 'sync.push', { clientId, mutations }, recepcion);

describe('a walk-in registered offline', () => {
  it('becomes a customer with the server\'s id, and the sale and the booking made under her temporary id are hers', async () => {
    const desk = newClientId();
    const form = walkInForm({ birthdate: '1996-03-08' });
    const classId = await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 10 });
    const res = await push(desk, outage(form, classId));
    expect(res.status, res.raw).toBe(200);
    const [created] = await server.db.select().from(customer).where(eq(customer.email, form.email as string));
    expect(created).toMatchObject({ name: 'Renata', last_name: 'Ortiz Salas', phone: form.phone, birthdate: '1996-03-08' });
    expect(res.body.result.data.results).toEqual([
      { id: 1, status: 'applied', created_id: created!.customer_id },
      { id: 2, status: 'applied' },
      { id: 3, status: 'applied' },
    ]);
    const bought = await server.db.select().from(purchase).where(eq(purchase.customer_id, created!.customer_id));
    expect(bought.map((p) => p.class_package_id)).toEqual([fivePack]);
    const booked = await server.db.select().from(class_reservation).where(eq(class_reservation.customer_id, created!.customer_id));
    expect(booked.map((r) => r.single_class_id)).toEqual([classId]);
    const credits = await server.db.select().from(available_classes).where(eq(available_classes.customer_id, created!.customer_id));
    expect(credits.reduce((sum, c) => sum + c.available_classes, 0)).toBe(4);
    const accepted = await server.db.select().from(accepted_page).where(eq(accepted_page.customer_id, created!.customer_id));
    expect(accepted.map((a) => a.page_id).sort()).toEqual([...pages].sort());
    const [audit] = await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.action, 'customer.create'), eq(audit_log.entity_id, String(created!.customer_id))));
    expect(audit?.desk_id).toBe(desk);

    // A desk that lost the answer sends it all again: nothing is done twice, and it still learns her id.
    const again = await push(desk, outage(form, classId));
    expect(again.body.result.data.results).toEqual([
      { id: 1, status: 'duplicate', created_id: created!.customer_id },
      { id: 2, status: 'duplicate' },
      { id: 3, status: 'duplicate' },
    ]);
    expect(await server.db.select().from(customer).where(eq(customer.email, form.email as string))).toHaveLength(1);
    expect(await server.db.select().from(purchase).where(eq(purchase.customer_id, created!.customer_id))).toHaveLength(1);

    // Later changes of that desk still reach her by the temporary id (a batch sent after the answer was lost).
    const later = await push(desk, [{ id: 4, name: 'addCustomerNote', args: { customer_id: -7, kind: 'note', body: 'Prefiere el tapete de la ventana' } }]);
    expect(later.body.result.data.results).toEqual([{ id: 4, status: 'applied' }]);
  });

  it('an e-mail already registered names that customer: no second account, and staff are told whose it was', async () => {
    const desk = newClientId();
    const mariana = await customerId(server.db, 'cliente@estudio.demo');
    const classId = await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 10 });
    const before = (await server.db.select().from(purchase).where(eq(purchase.customer_id, mariana))).length;
    const form = walkInForm({ name: 'Mariana', last_name: 'Lopes', email: 'CLIENTE@estudio.demo' });
    const res = await push(desk, outage(form, classId));
    const [first] = res.body.result.data.results;
    expect(first).toMatchObject({ id: 1, status: 'applied', created_id: mariana });
    expect(first.notice).toMatch(/^«Mariana Lopes» ya estaba registrado con ese correo como .+ \(cliente@estudio\.demo\): lo que hiciste sin conexión quedó en su cuenta\.$/);
    expect(res.body.result.data.results.slice(1).map((r: { status: string }) => r.status)).toEqual(['applied', 'applied']);
    expect(await server.db.select().from(customer).where(eq(customer.phone, form.phone as string))).toHaveLength(0);
    expect((await server.db.select().from(purchase).where(eq(purchase.customer_id, mariana))).length).toBe(before + 1);
    const [audit] = await server.db
      .select()
      .from(audit_log)
      .where(and(eq(audit_log.action, 'customer.register-matched'), eq(audit_log.entity_id, String(mariana))))
      .orderBy(desc(audit_log.audit_log_id))
      .limit(1);
    expect(audit?.changes).toMatchObject({ matched_by: 'email', typed: { name: 'Mariana', last_name: 'Lopes' } });
    const [stored] = await server.db.select().from(sync_mutation).where(and(eq(sync_mutation.client_id, desk), eq(sync_mutation.mutation_id, 1)));
    expect(stored).toMatchObject({ temp_id: -7, created_id: mariana, notice: first.notice });
  });

  it('a phone already registered names that customer too, and the notice asks staff to correct her details', async () => {
    const desk = newClientId();
    const known = walkInForm();
    const [existing] = await server.db
      .insert(customer)
      .values({ name: 'Sofía', last_name: 'Gonzales', email: known.email as string, phone: known.phone as string })
      .returning();
    const form = walkInForm({ name: 'Sofi', last_name: 'González', phone: known.phone });
    const classId = await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 10 });
    const res = await push(desk, outage(form, classId));
    const [first] = res.body.result.data.results;
    expect(first).toMatchObject({ status: 'applied', created_id: existing!.customer_id });
    expect(first.notice).toContain('«Sofi González» tiene el teléfono de Sofía Gonzales');
    expect(first.notice).toContain('corrígelos en su ficha');
    expect(await server.db.select().from(customer).where(eq(customer.email, form.email as string))).toHaveLength(0);
  });

  it('a refused registration refuses what named her, with the reason in Spanish, and leaves nothing', async () => {
    const desk = newClientId();
    const classId = await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 10 });
    // A removed account keeps its e-mail: refused as the online form refuses it.
    const removed = walkInForm();
    await server.db.insert(customer).values({ name: 'Antes', last_name: 'Borrada', email: removed.email as string, phone: '5599999990', deletedAt: new Date() });
    const form = walkInForm({ email: removed.email });
    const res = await push(desk, outage(form, classId));
    const results = res.body.result.data.results;
    expect(results[0]).toMatchObject({ status: 'rejected', code: 'customer/email-taken' });
    expect(results[1]).toMatchObject({ status: 'rejected', code: 'sync/new-customer-missing' });
    expect(results[1].message).toBe('El cliente nuevo que se registró sin conexión no quedó dado de alta en el servidor, así que este cambio no se aplicó.');
    expect(results[2]).toMatchObject({ status: 'rejected', code: 'sync/new-customer-missing' });
    expect(await server.db.select().from(customer).where(eq(customer.phone, form.phone as string))).toHaveLength(0);
  });

  it('a temporary id names nobody outside the desk that made it: another desk, or the API', async () => {
    const desk = newClientId();
    const form = walkInForm();
    const classId = await newClass(server.db, { minutesAhead: minutesAheadToday(), capacity: 10 });
    expect((await push(desk, outage(form, classId))).status).toBe(200);
    const other = await push(newClientId(), [{ id: 1, name: 'addCustomerNote', args: { customer_id: -7, kind: 'note', body: 'no es de este escritorio' } }]);
    expect(other.body.result.data.results[0]).toMatchObject({ status: 'rejected', code: 'sync/new-customer-missing' });
    const rest = await trpcMutation(server.app, 'sales.sell', { customer_id: -7, packages: [{ class_package_id: fivePack }], payment_method_id: cash }, recepcion);
    expect(rest.status).toBe(404);
    expect(rest.body.error.data.domainCode).toBe('customer/not-found');
  });
});
