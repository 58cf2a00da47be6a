import { activityWhat, localDate, studioInstant, studioTimeZone } from '@estudio/core';
import { readFileSync } from 'node:fs';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { available_classes } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { single_class } from '@estudio/db/schema/schedule';
import { outbox_message } from '@estudio/db/schema/outbox';
import { planBookingImport, runBookingImport } from '../../src/services/import/booking-import.ts';
import { planCreditImport, runCreditImport } from '../../src/services/import/credit-import.ts';
import { loadStudioSettings } from '../../src/services/schedule/studio-settings.ts';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { anyLocationId, classTypeId, createBookers, customerId } from '../support/reservations-fixtures.ts';
import { location, room } from '@estudio/db/schema/catalogue';

/**
 * A studio's customers keep every class they had (decision 127): the credits they have left and their unlimited
 * memberships, and the classes they booked for next week, brought over from the other system's files. A dry run
 * writes nothing, the real run is one transaction per batch, and a second run gives nothing twice.
 */
let server: TestServer;
demoStudio(['admin'], (s) => ({ server } = s));

let adminId: number;
let mariana: { id: number; phone: string };
let nuevoId: number;
let tz: string;
const nextYear = new Date().getUTCFullYear() + 1;
const invariants = readFileSync(new URL('../../../bench/invariants.sql', import.meta.url), 'utf8');
/** What bench/invariants.sql finds wrong: imported credits have an origin, imported bookings fit their classes. */
async function violations() {
  const result = (await server.db.execute(sql.raw(invariants))) as unknown;
  return ((Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { invariante: string }[]).map((r) => r.invariante);
}
const dmy = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;

/** A class of this test at an exact minute, `days` from today on the studio's calendar. */
async function classAt(days: number, time: string, capacity: number) {
  const day = localDate(new Date(Date.now() + days * 86_400_000), tz);
  const [row] = await server.db
    .insert(single_class)
    .values({ class_date: studioInstant(day, time, tz), capacity, location_id: await anyLocationId(server.db), class_type_id: (await classTypeId(server.db, 'Indoor Cycling')).id })
    .returning({ id: single_class.single_class_id });
  return { id: row!.id, day, time };
}

beforeAll(async () => {
  adminId = await customerId(server.db, 'admin@estudio.demo');
  nuevoId = await customerId(server.db, 'nuevo@estudio.demo');
  const id = await customerId(server.db, 'cliente@estudio.demo');
  await server.db.update(customer).set({ phone: '5570020001' }).where(eq(customer.customer_id, id));
  mariana = { id, phone: '5570020001' };
  tz = studioTimeZone(await loadStudioSettings(server.db));
});

const creditsFile = () =>
  '\uFEFF' +
  [
    'Correo;Teléfono;Clases restantes;Vence;Tipo de clase;Paquete',
    `cliente@estudio.demo;;5;31/12/${nextYear};indoor cycling;`,
    `NUEVO@estudio.demo;;Ilimitado;30/06/${nextYear};;`,
    `cliente@estudio.demo;;5;31/12/${nextYear};Indoor Cycling;`,
    `nadie@correo.mx;;3;31/12/${nextYear};;`,
    'cliente@estudio.demo;;3;01/01/2020;;',
    'cliente@estudio.demo;;3;;Zumba Acuática;',
    'nuevo@estudio.demo;;ilimitado;;;',
    'cliente@estudio.demo;;cinco;;;',
    `;+52 55 7002 0001;2;;;Paquete que no existe`,
    ';55 7002 0001;0;;;',
  ].join('\r\n') +
  '\r\n';

describe('importing credits and memberships', () => {
  it('the dry run says what each balance would be, refuses with reasons in Spanish, and writes nothing', async () => {
    const before = await server.db.select({ id: available_classes.available_class_id }).from(available_classes);
    const plan = await planCreditImport(server.db, creditsFile());
    expect(plan.columns).toEqual({ email: 0, phone: 1, credits: 2, expires: 3, class_type: 4, package: 5 });
    expect(plan.lines.map((l) => [l.line, l.outcome])).toEqual([
      [2, 'new'],
      [3, 'new'],
      [4, 'new'],
      [5, 'refused'],
      [6, 'refused'],
      [7, 'refused'],
      [8, 'refused'],
      [9, 'refused'],
      [10, 'refused'],
      [11, 'refused'],
    ]);
    expect(plan.lines[0]).toMatchObject({ customer_id: mariana.id, matched_by: 'email', detail: `5 clases de indoor cycling, hasta el 31/12/${nextYear}` });
    expect(plan.lines[1]).toMatchObject({ customer_id: nuevoId, detail: `Ilimitado, hasta el 30/06/${nextYear}` });
    expect(plan.lines.slice(3).map((l) => l.reasons)).toEqual([
      ['No hay ningún cliente con el correo nadie@correo.mx: importa primero el archivo de clientes.'],
      ['Ya venció el 01/01/2020.'],
      ['El estudio no tiene el tipo de clase «Zumba Acuática»: créalo en Tipos de clase o corrige el nombre.'],
      ['Una membresía ilimitada necesita su fecha de fin.'],
      ['«cinco» no es un número de clases (escribe un número o «ilimitado»).'],
      ['El estudio no tiene el paquete «Paquete que no existe»: créalo en Paquetes o corrige el nombre.'],
      ['No le quedan clases: no hay nada que traer.'],
    ]);
    expect(plan.lines[8]).toMatchObject({ customer_id: mariana.id, matched_by: 'phone' });
    expect(await server.db.select({ id: available_classes.available_class_id }).from(available_classes)).toHaveLength(before.length);
  });

  it('the real run gives each balance, makes the unlimited one a member until its end, logs it, mails nobody; run again, nothing twice', async () => {
    const mailsBefore = (await server.db.select({ id: outbox_message.outbox_message_id }).from(outbox_message)).length;
    const done = await runCreditImport(server.db, { customer_id: adminId }, creditsFile(), { batchSize: 2 });
    expect(done.counts).toEqual({ new: 3, existing: 0, repeated: 0, refused: 7 });
    const given = await server.db
      .select()
      .from(available_classes)
      .where(inArray(available_classes.customer_id, [mariana.id, nuevoId]));
    const imported = given.filter((g) => g.createdAt.getTime() > Date.now() - 60_000 && g.available_classes !== 0);
    expect(imported.map((g) => [g.customer_id, g.available_classes, localDate(new Date(g.expiration_date!.getTime() - 1), tz)]).sort()).toEqual(
      [
        [mariana.id, 5, `${nextYear}-12-31`],
        [mariana.id, 5, `${nextYear}-12-31`],
        [nuevoId, -1, `${nextYear}-06-30`],
      ].sort(),
    );
    const [member] = await server.db.select().from(customer).where(eq(customer.customer_id, nuevoId));
    expect(member?.has_unlimited).toBe(true);
    expect(localDate(new Date(member!.unlimited_membership_expiration!.getTime() - 1), tz)).toBe(`${nextYear}-06-30`);
    // Two batches of two lines (the third line in the second), each in the activity log.
    const logged = await server.db.select().from(audit_log).where(eq(audit_log.action, 'credits.import'));
    expect(logged).toHaveLength(2);
    expect(activityWhat({ entity: logged[0]!.entity, action: logged[0]!.action, entityId: null, changes: logged[0]!.changes, actor: null, customerName: null })).toBe('importó 2 saldos de clases de otro sistema');
    expect((await server.db.select({ id: outbox_message.outbox_message_id }).from(outbox_message)).length).toBe(mailsBefore);

    const again = await runCreditImport(server.db, { customer_id: adminId }, creditsFile());
    expect(again.counts).toEqual({ new: 0, existing: 3, repeated: 0, refused: 7 });
    expect(again.lines[0]?.reasons).toEqual(['Ya se importó en una corrida anterior.']);
    expect(await server.db.select().from(available_classes).where(inArray(available_classes.customer_id, [mariana.id, nuevoId]))).toHaveLength(given.length);
  });
});

describe('importing future bookings', () => {
  let open: { id: number; day: string; time: string };
  let other: { id: number; day: string; time: string };
  let full: { id: number; day: string; time: string };
  let place: string;
  beforeAll(async () => {
    open = await classAt(3, '07:15', 10);
    other = await classAt(4, '19:45', 10);
    full = await classAt(5, '07:15', 0);
    const [row] = await server.db.select({ name: location.name }).from(location).where(eq(location.location_id, await anyLocationId(server.db)));
    place = row!.name;
  });

  const bookingsFile = () =>
    [
      'Email,Class Date,Start Time,Class,Location',
      `cliente@estudio.demo,${dmy(open.day)},7:15 AM,INDOOR CYCLING,${place}`,
      `cliente@estudio.demo,${dmy(open.day)},07:15,Indoor Cycling,${place}`,
      `nuevo@estudio.demo,${open.day},7:45 PM,Indoor Cycling,`,
      `nuevo@estudio.demo,${dmy(other.day)},7:45 PM,Indoor Cycling,`,
      `cliente@estudio.demo,${dmy(full.day)},07:15,Indoor Cycling,`,
      'cliente@estudio.demo,01/01/2020,07:15,Indoor Cycling,',
      'nadie@correo.mx,' + dmy(open.day) + ',07:15,Indoor Cycling,',
      `cliente@estudio.demo,${dmy(open.day)},25:00,Indoor Cycling,`,
    ].join('\n');

  it('the dry run finds each class in the schedule and refuses what cannot be booked, writing nothing', async () => {
    const plan = await planBookingImport(server.db, bookingsFile());
    expect(plan.columns).toEqual({ email: 0, date: 1, time: 2, class_type: 3, location: 4 });
    expect(plan.lines.map((l) => [l.line, l.outcome])).toEqual([
      [2, 'new'],
      [3, 'repeated'],
      [4, 'refused'],
      [5, 'new'],
      [6, 'refused'],
      [7, 'refused'],
      [8, 'refused'],
      [9, 'refused'],
    ]);
    expect(plan.lines[0]).toMatchObject({ customer_id: mariana.id, detail: `INDOOR CYCLING el ${dmy(open.day)} a las 07:15, ${place}` });
    expect(plan.lines[1]?.reasons).toEqual(['Es la misma reservación que la línea 2.']);
    expect(plan.lines[2]?.reasons).toEqual([`No hay clase de Indoor Cycling el ${dmy(open.day)} a las 19:45 en el horario: créala o corrige la línea.`]);
    expect(plan.lines[4]?.reasons).toEqual(['La clase ya está llena (0 lugares).']);
    expect(plan.lines[5]?.reasons).toEqual(['La clase del 01/01/2020 ya pasó.']);
    expect(plan.lines[6]?.reasons[0]).toContain('nadie@correo.mx');
    expect(plan.lines[7]?.reasons).toEqual(['La hora «25:00» no es una hora que entendamos (usa 07:00 o 7:00 PM).']);
    expect(await server.db.select().from(class_reservation).where(inArray(class_reservation.single_class_id, [open.id, other.id]))).toEqual([]);
  });

  it('the real run books them with the class paid elsewhere: cancelled in time, she gets the class back; run again, nothing twice', async () => {
    const done = await runBookingImport(server.db, { customer_id: adminId }, bookingsFile());
    expect(done.counts).toEqual({ new: 2, existing: 0, repeated: 1, refused: 5 });
    const booked = await server.db.select().from(class_reservation).where(and(inArray(class_reservation.single_class_id, [open.id, other.id]), isNull(class_reservation.deletedAt)));
    expect(booked.map((r) => [r.customer_id, r.single_class_id]).sort()).toEqual([
      [mariana.id, open.id],
      [nuevoId, other.id],
    ].sort());
    // Mariana's booking carries a used credit of the class's type; nuevo@ is an unlimited member (the credits file).
    const hers = booked.find((r) => r.customer_id === mariana.id)!;
    expect(booked.find((r) => r.customer_id === nuevoId)?.available_class_id).toBeNull();
    const [credit] = await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, hers.available_class_id!));
    expect(credit).toMatchObject({ available_classes: 0, class_type_id: (await classTypeId(server.db, 'Indoor Cycling')).id });
    expect(await server.db.select().from(audit_log).where(eq(audit_log.action, 'reservations.import'))).toHaveLength(1);

    const again = await runBookingImport(server.db, { customer_id: adminId }, bookingsFile());
    expect(again.counts).toEqual({ new: 0, existing: 2, repeated: 1, refused: 5 });

    expect(await violations()).toEqual([]);

    const token = (await login(server.app, 'cliente@estudio.demo')).idToken;
    const cancelled = await call(server.app, 'POST', `/api/class_reservations/${hers.class_reservation_id}/cancel`, { token, body: {} });
    expect(cancelled.status, cancelled.raw).toBe(200);
    const [back] = await server.db.select().from(available_classes).where(eq(available_classes.available_class_id, hers.available_class_id!));
    expect(back?.available_classes).toBe(1);
    expect(await violations()).toEqual([]);
  });

  it("two real runs at the same moment book each line once and never past the class's places", async () => {
    const tight = await classAt(6, '06:05', 2);
    const people = await createBookers(server.db, 'x', 4, { prefix: `import-race-${Date.now()}` });
    const emails = await server.db.select({ email: customer.email }).from(customer).where(inArray(customer.customer_id, people.map((p) => p.customer_id)));
    const csv = ['Correo,Fecha,Hora,Clase', ...emails.map((e) => `${e.email},${dmy(tight.day)},06:05,Indoor Cycling`)].join('\n');
    const runs = await Promise.all([runBookingImport(server.db, { customer_id: adminId }, csv, { batchSize: 1 }), runBookingImport(server.db, { customer_id: adminId }, csv, { batchSize: 1 })]);
    const live = await server.db.select().from(class_reservation).where(and(eq(class_reservation.single_class_id, tight.id), isNull(class_reservation.deletedAt)));
    expect(live).toHaveLength(2);
    expect(new Set(live.map((r) => r.customer_id)).size).toBe(2);
    expect(runs[0]!.counts.new + runs[1]!.counts.new).toBe(2);
    expect(await violations()).toEqual([]);
  });

  it('a class in a room has its room’s seats: a seat its class type has and the room lacks is refused', async () => {
    const spin = await classAt(8, '06:50', 4);
    const [made] = await server.db.insert(room).values({ location_id: await anyLocationId(server.db), name: `Salón chico ${Date.now()}`, capacity: 4, spot_map: '2,2' }).returning({ id: room.room_id });
    await server.db.update(single_class).set({ room_id: made!.id }).where(eq(single_class.single_class_id, spin.id));
    const [person] = await createBookers(server.db, 'x', 1, { prefix: `import-room-${Date.now()}` });
    const [{ email } = { email: '' }] = await server.db.select({ email: customer.email }).from(customer).where(eq(customer.customer_id, person!.customer_id));
    const csv = ['Correo,Fecha,Hora,Clase,Bici', `${email},${dmy(spin.day)},06:50,Indoor Cycling,10`, `${email},${dmy(spin.day)},06:50,Indoor Cycling,4`].join('\n');
    const plan = await planBookingImport(server.db, csv);
    expect(plan.lines.map((l) => [l.outcome, l.reasons])).toEqual([
      ['refused', ['La clase no tiene el lugar 10 (tiene 4).']],
      ['new', []],
    ]);
  });

  it("a seat the file names is hers; a seat the class lacks, someone's, or named twice in the file is refused", async () => {
    const spin = await classAt(7, '06:35', 10);
    const people = await createBookers(server.db, 'x', 5, { prefix: `import-seat-${Date.now()}` });
    const emails = (await server.db.select({ id: customer.customer_id, email: customer.email }).from(customer).where(inArray(customer.customer_id, people.map((p) => p.customer_id)))).sort((a, b) => a.id - b.id);
    await server.db.insert(class_reservation).values({ single_class_id: spin.id, customer_id: emails[0]!.id, spot: 3 });
    const csv = [
      'Correo,Fecha,Hora,Clase,Bici',
      `${emails[1]!.email},${dmy(spin.day)},06:35,Indoor Cycling,5`,
      `${emails[2]!.email},${dmy(spin.day)},06:35,Indoor Cycling,5`,
      `${emails[3]!.email},${dmy(spin.day)},06:35,Indoor Cycling,3`,
      `${emails[4]!.email},${dmy(spin.day)},06:35,Indoor Cycling,999`,
      `${emails[4]!.email},${dmy(spin.day)},06:35,Indoor Cycling,A`,
    ].join('\n');
    const plan = await planBookingImport(server.db, csv);
    expect(plan.columns).toMatchObject({ spot: 4 });
    expect(plan.lines.map((l) => [l.outcome, l.reasons])).toEqual([
      ['new', []],
      ['refused', ['El lugar 5 ya está ocupado en esa clase.']],
      ['refused', ['El lugar 3 ya está ocupado en esa clase.']],
      ['refused', [expect.stringMatching(/^La clase no tiene el lugar 999 \(tiene \d+\)\.$/)]],
      ['refused', ['El lugar «A» no es un número de lugar (1, 2, 3…).']],
    ]);
    expect(plan.lines[0]?.detail).toBe(`Indoor Cycling el ${dmy(spin.day)} a las 06:35, lugar 5`);
    const done = await runBookingImport(server.db, { customer_id: adminId }, csv);
    expect(done.counts).toEqual({ new: 1, existing: 0, repeated: 0, refused: 4 });
    const seats = await server.db.select({ customer: class_reservation.customer_id, spot: class_reservation.spot }).from(class_reservation).where(and(eq(class_reservation.single_class_id, spin.id), isNull(class_reservation.deletedAt)));
    expect(seats.sort((a, b) => a.customer - b.customer)).toEqual([
      { customer: emails[0]!.id, spot: 3 },
      { customer: emails[1]!.id, spot: 5 },
    ]);
    expect(await violations()).toEqual([]);
  });

  it('over /api, admin only: the dry run and the real run of both files', async () => {
    const admin = (await login(server.app, 'admin@estudio.demo')).idToken;
    const recepcion = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    const dry = await call(server.app, 'POST', '/api/import/credits', { token: admin, body: { csv: creditsFile(), dry_run: true } });
    expect(dry.status, dry.raw).toBe(200);
    expect(dry.body.counts).toEqual({ new: 0, existing: 3, repeated: 0, refused: 7 });
    expect(dry.body.lines[0]).toMatchObject({ line: 2, outcome: 'existing', detail: `5 clases de indoor cycling, hasta el 31/12/${nextYear}` });
    const mapped = await call(server.app, 'POST', '/api/import/bookings', { token: admin, body: { csv: bookingsFile(), dry_run: true, columns: { email: 0, date: 1, time: 2, class_type: 3 } } });
    expect(mapped.status, mapped.raw).toBe(200);
    expect(mapped.body.columns).toEqual({ email: 0, date: 1, time: 2, class_type: 3 });
    expect((await call(server.app, 'POST', '/api/import/bookings', { token: recepcion, body: { csv: bookingsFile(), dry_run: true } })).status).toBe(403);
    const unknown = await call(server.app, 'POST', '/api/import/credits', { token: admin, body: { csv: creditsFile(), dry_run: true, columns: { nombre: 1 } } });
    expect(unknown.status).toBe(400);
  });
});
