import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { customer } from '@estudio/db';
import { openReplica, type ClientReplica } from '@estudio/sync/client/replica';
import { ensureSearchIndexes, searchCustomers } from '../src/service/queries/customers.ts';

/**
 * Search on the desk's replica: accents and case do not
 * count, any word of the name or of both surnames, the e-mail, and any run of
 * 4+ digits of the phone; words combine. On a real PGlite replica (the desk's
 * own), with the search table it keeps beside `customer`.
 */
let replica: ClientReplica;
const people = [
  { customer_id: 1, name: 'Andrea', last_name: 'Romero López', email: 'andrea.romero@correo.mx', phone: '5512340001' },
  { customer_id: 2, name: 'Sofía', last_name: 'Ramírez', email: 'sofi@correo.mx', phone: '5598769666' },
  { customer_id: 3, name: 'Luis', last_name: 'Álvarez Peña', email: 'luis.alvarez@correo.mx', phone: null },
  { customer_id: 4, name: 'María José', last_name: 'Hernández', email: 'mj@correo.mx', phone: '3312345678' },
  { customer_id: 5, name: 'Jorge', last_name: 'López Mateos', email: 'jorge@correo.mx', phone: '8187654321' },
  { customer_id: 6, name: 'Sofía', last_name: 'Castro', email: 'sofia.castro@correo.mx', phone: '5511112222' },
];
const names = async (q: string) => (await searchCustomers(replica.db, q)).map((c) => `${c.name} ${c.last_name}`);

beforeAll(async () => {
  replica = await openReplica({ dataDir: 'memory://' });
  await ensureSearchIndexes(replica.db);
  await replica.db.insert(customer).values(people);
});
afterAll(() => replica?.close());

describe('desk customer search', () => {
  it('ignores accents and case', async () => {
    expect(await names('lopez')).toEqual(['Andrea Romero López', 'Jorge López Mateos']);
    expect(await names('alvarez')).toEqual(['Luis Álvarez Peña']);
    expect(await names('hernandez')).toEqual(['María José Hernández']);
    expect(await names('HERNÁNDEZ')).toEqual(['María José Hernández']);
    expect(await names('maria')).toEqual(['María José Hernández']);
  });

  it('finds a first name written without its accent, and any word of either surname', async () => {
    expect(await names('sofia')).toEqual(['Sofía Castro', 'Sofía Ramírez']);
    expect(await names('López')).toContain('Andrea Romero López');
    expect(await names('pena')).toEqual(['Luis Álvarez Peña']);
    expect(await names('jose')).toEqual(['María José Hernández']);
  });

  it('combines words, as typed', async () => {
    expect(await names('sofia ramirez')).toEqual(['Sofía Ramírez']);
    expect(await names('ramirez sof')).toEqual(['Sofía Ramírez']);
    expect(await names('sofia r')).toEqual(['Sofía Ramírez']);
    expect(await names('lopez andrea')).toEqual(['Andrea Romero López']);
    expect(await names('sofia lopez')).toEqual([]);
  });

  it('finds by e-mail', async () => {
    expect(await names('andrea.romero@correo.mx')).toEqual(['Andrea Romero López']);
    expect(await names('luis.alv')).toEqual(['Luis Álvarez Peña']);
  });

  it('finds any run of 4+ digits of the phone', async () => {
    expect(await names('9666')).toEqual(['Sofía Ramírez']);
    expect(await names('98769')).toEqual(['Sofía Ramírez']);
    expect(await names('55 9876 9666')).toEqual(['Sofía Ramírez']);
    expect(await names('(818) 765-4321')).toEqual(['Jorge López Mateos']);
  });

  it('forgives a slip or two, after every exact match', async () => {
    expect(await names('Ramires')).toEqual(['Sofía Ramírez']);
    expect(await names('sofia ramires')).toEqual(['Sofía Ramírez']);
    expect(await names('Hernandes')).toEqual(['María José Hernández']);
    expect(await names('andrea lopes')).toEqual(['Andrea Romero López']);
    expect(await names('alvares pena')).toEqual(['Luis Álvarez Peña']);
    // An exact match comes first; the one a slip away follows, marked.
    const hits = await searchCustomers(replica.db, 'lopez');
    expect(hits.filter((h) => !h.spelled_like).map((h) => h.customer_id)).toEqual([1, 5]);
    expect((await searchCustomers(replica.db, 'castra')).map((h) => [h.customer_id, h.spelled_like])).toEqual([[6, true]]);
    // Digits are a phone: never approximate.
    expect(await names('9667')).toEqual([]);
    expect(await names('xyzw')).toEqual([]);
  });

  it('follows changes to a customer, and leaves out deleted ones', async () => {
    await replica.db.update(customer).set({ last_name: 'Ramírez Núñez', email: 'sofia.rn@correo.mx' }).where(eq(customer.customer_id, 6));
    expect(await names('nunez')).toEqual(['Sofía Ramírez Núñez']);
    expect(await names('castro')).toEqual([]);
    await replica.db.update(customer).set({ deletedAt: new Date() }).where(eq(customer.customer_id, 6));
    expect(await names('nunez')).toEqual([]);
    await replica.db.delete(customer).where(eq(customer.customer_id, 5));
    expect(await names('lopez')).toEqual(['Andrea Romero López']);
  });

  it('builds the search table for customers already in the replica', async () => {
    const other = await openReplica({ dataDir: 'memory://' });
    try {
      await other.db.insert(customer).values(people);
      await ensureSearchIndexes(other.db);
      expect((await searchCustomers(other.db, 'alvarez')).map((c) => c.customer_id)).toEqual([3]);
      await ensureSearchIndexes(other.db);
      expect((await searchCustomers(other.db, 'alvarez')).map((c) => c.customer_id)).toEqual([3]);
    } finally {
      await other.close();
    }
  });

  it('finds nothing for nothing', async () => {
    expect(await names('   ')).toEqual([]);
    expect(await names('zzz')).toEqual([]);
    expect(await names('%')).toEqual([]);
  });
});
