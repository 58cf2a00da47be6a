import { eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { audit_log } from '@estudio/db/schema/audit';
import { customer, customer_note } from '@estudio/db/schema/customer';
import { outbox_message } from '@estudio/db/schema/outbox';
import { planCustomerImport, runCustomerImport } from '../../src/services/import/customer-import.ts';
import { call, login, type TestServer } from '../support/helpers.ts';
import { demoStudio } from '../support/demo-studio.ts';
import { customerId } from '../support/reservations-fixtures.ts';

/**
 * Bringing a studio's customers over from another system (decision 125): a file of good and bad rows as Excel in
 * Spanish writes it (a BOM, semicolons, accents, columns in another order, Excel's dates), a dry run that writes
 * nothing, and a real run that can be run again without making anyone twice.
 */
let server: TestServer;
demoStudio(['admin'], (s) => ({ server } = s));

let adminId: number;
let mariana: { id: number; phone: string | null };
beforeAll(async () => {
  adminId = await customerId(server.db, 'admin@estudio.demo');
  const id = await customerId(server.db, 'cliente@estudio.demo');
  const [row] = await server.db.select({ phone: customer.phone }).from(customer).where(eq(customer.customer_id, id));
  mariana = { id, phone: row?.phone ?? null };
});

const file = () =>
  '\uFEFF' +
  [
    'Correo electrónico;Teléfono;Apellidos;Nombre;Fecha de nacimiento;Notas',
    'sofia.importada@correo.mx;+52 (55) 7001-0001;Ramírez López;Sofía;12/05/1994;"Lesión de hombro; prefiere la bici 4"',
    'TOMAS.IMPORTADO@correo.mx;55 7001 0002;Núñez;Tomás;34466;',
    'sofia.importada@correo.mx;;Ramírez;Sofía;;',
    `CLIENTE@estudio.demo;;Gómez;Mariana;;`,
    `;${mariana.phone ?? ''};Gómez;Mariana;;`,
    'malo@;123;Pérez;;31/02/1994;',
    ';5570010009;Solo;Teléfono;;',
  ].join('\r\n') +
  '\r\n';

describe('importing customers', () => {
  it('the dry run says what each line would do, with the reasons in Spanish, and writes nothing', async () => {
    const before = await server.db.select({ id: customer.customer_id }).from(customer);
    const plan = await planCustomerImport(server.db, file());
    expect(plan.columns).toEqual({ email: 0, phone: 1, last_name: 2, name: 3, birthdate: 4, notes: 5 });
    expect(plan.lines.map((l) => [l.line, l.outcome])).toEqual([
      [2, 'new'],
      [3, 'new'],
      [4, 'repeated'],
      [5, 'existing'],
      [6, 'existing'],
      [7, 'refused'],
      [8, 'refused'],
    ]);
    expect(plan.lines[0]?.customer).toEqual({ name: 'Sofía', last_name: 'Ramírez López', email: 'sofia.importada@correo.mx', phone: '5570010001', birthdate: '1994-05-12', notes: 'Lesión de hombro; prefiere la bici 4' });
    expect(plan.lines[1]?.customer).toMatchObject({ email: 'tomas.importado@correo.mx', birthdate: '1994-05-12' });
    expect(plan.lines[2]?.reasons).toEqual(['Es la misma persona que la línea 2.']);
    expect(plan.lines[3]).toMatchObject({ customer_id: mariana.id, matched_by: 'email' });
    expect(plan.lines[4]).toMatchObject({ customer_id: mariana.id, matched_by: 'phone' });
    expect(plan.lines[5]?.reasons).toEqual([
      'Falta el nombre.',
      'El correo «malo@» no es válido.',
      'El teléfono «123» no es un número de 10 dígitos de México.',
      'La fecha de nacimiento «31/02/1994» no es una fecha que entendamos (usa DD/MM/AAAA).',
    ]);
    expect(plan.lines[6]?.reasons).toEqual(['Falta el correo: lo necesita su cuenta nueva.']);
    expect(plan.counts).toEqual({ new: 2, existing: 2, repeated: 1, refused: 2 });
    expect(await server.db.select({ id: customer.customer_id }).from(customer)).toHaveLength(before.length);
  });

  it('the real run creates the new ones with their notes, logs each batch, e-mails nobody, and run again creates nobody twice', async () => {
    const outboxBefore = (await server.db.select({ id: outbox_message.outbox_message_id }).from(outbox_message)).length;
    const first = await runCustomerImport(server.db, { customer_id: adminId }, file(), { batchSize: 1 });
    expect(first.counts).toEqual({ new: 2, existing: 2, repeated: 1, refused: 2 });
    const ids = first.lines.flatMap((l) => (l.outcome === 'new' && l.customer_id ? [l.customer_id] : []));
    expect(ids).toHaveLength(2);
    const made = await server.db.select().from(customer).where(inArray(customer.customer_id, ids));
    expect(made.map((c) => c.email).sort()).toEqual(['sofia.importada@correo.mx', 'tomas.importado@correo.mx']);
    expect(made.every((c) => c.uid === null)).toBe(true);
    const notes = await server.db.select().from(customer_note).where(inArray(customer_note.customer_id, ids));
    expect(notes.map((n) => n.body)).toEqual(['Lesión de hombro; prefiere la bici 4']);
    const logged = await server.db.select().from(audit_log).where(eq(audit_log.action, 'customer.import'));
    expect(logged).toHaveLength(2);
    expect((await server.db.select({ id: outbox_message.outbox_message_id }).from(outbox_message)).length).toBe(outboxBefore);

    const again = await runCustomerImport(server.db, { customer_id: adminId }, file());
    expect(again.counts).toEqual({ new: 0, existing: 4, repeated: 1, refused: 2 });
    expect(again.lines.slice(0, 2).map((l) => l.customer_id).sort()).toEqual([...ids].sort());
    expect(await server.db.select().from(audit_log).where(eq(audit_log.action, 'customer.import'))).toHaveLength(2);
  });

  it('columns mapped by hand where the headers are nobody’s', async () => {
    const plan = await planCustomerImport(server.db, 'Col A,Col B,Col C\nValeria,Soto,valeria.soto@correo.mx\n', { name: 0, last_name: 1, email: 2 });
    expect(plan.lines[0]).toMatchObject({ outcome: 'new', customer: { name: 'Valeria', last_name: 'Soto', email: 'valeria.soto@correo.mx' } });
    expect((await planCustomerImport(server.db, 'Col A,Col B,Col C\nValeria,Soto,valeria.soto@correo.mx\n')).lines[0]?.reasons).toContain('Falta el nombre.');
  });
});

describe('POST /api/import/customers (the console)', () => {
  it('the owner runs the dry run and then the import; reception may not; a file too big says to use the command', async () => {
    const admin = (await login(server.app, 'admin@estudio.demo')).idToken;
    const recepcion = (await login(server.app, 'recepcion@estudio.demo')).idToken;
    const csv = 'Nombre,Apellidos,Correo\nIrene,Consola,irene.consola@correo.mx\n';
    const dry = await call(server.app, 'POST', '/api/import/customers', { token: admin, body: { csv, dry_run: true } });
    expect(dry.status, dry.raw).toBe(200);
    expect(dry.body).toMatchObject({ header: ['Nombre', 'Apellidos', 'Correo'], counts: { new: 1 }, lines: [{ line: 2, outcome: 'new', name: 'Irene', email: 'irene.consola@correo.mx', customer_id: null }] });
    const real = await call(server.app, 'POST', '/api/import/customers', { token: admin, body: { csv, dry_run: false } });
    expect(real.body.lines[0].customer_id).toEqual(expect.any(Number));
    expect((await call(server.app, 'POST', '/api/import/customers', { token: recepcion, body: { csv, dry_run: true } })).status).toBe(403);
    const big = await call(server.app, 'POST', '/api/import/customers', { token: admin, body: { csv: 'x'.repeat(900_001), dry_run: true } });
    expect(big.status).toBe(400);
    expect(big.body.message).toContain('impórtalo con el comando import-customers');
  });
});
