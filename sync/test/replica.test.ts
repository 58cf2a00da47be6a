import { DomainError, replicatedTableNames, type ReplicatedTable } from '@estudio/core';
import { available_classes, class_reservation, customer, single_class } from '@estudio/db';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { and, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { initClusterApart } from '../src/client/init-cluster.ts';
import { openReplica, query, type ClientReplica } from '../src/client/replica.ts';
import { allPending, applyPullPage, applySnapshotRows, listRejections, recordMutation, rejectMutation } from '../src/client/store.ts';
import { allTableRows, tableRows, tempDir } from './fixtures.ts';

/**
 * The replica on its own: schema loosening, page application, the outbox and
 * the rebase, against the rows of a seeded server database copied in as a
 * snapshot would copy them.
 */
const clientId = '7b0e5a52-4a0b-4c7e-9d7c-1f0b8a3c2d11';

async function loadServer(server: TestDb, replica: ClientReplica): Promise<void> {
  for (const table of replicatedTableNames) await applySnapshotRows(replica.db, table, await tableRows(server.db, table));
}

let server: TestDb;
beforeAll(async () => {
  server = await createTestDb();
});
afterAll(async () => {
  await server?.close();
});

describe('openReplica', () => {
  it('has the server tables without foreign keys, unique constraints, log triggers or generated columns, and the desk tables', async () => {
    const replica = await openReplica({ dataDir: 'memory://' });
    try {
      const [loose] = await query<{ fks: number; uniques: number; indexes: number; triggers: number; identities: number; generated: number }>(
        replica.db,
        sql`select
          (select count(*)::int from pg_constraint where connamespace = 'public'::regnamespace and contype = 'f') as fks,
          (select count(*)::int from pg_constraint where connamespace = 'public'::regnamespace and contype = 'u') as uniques,
          (select count(*)::int from pg_index i join pg_class c on c.oid = i.indrelid
             where c.relnamespace = 'public'::regnamespace and i.indisunique and not i.indisprimary) as indexes,
          (select count(*)::int from pg_trigger t join pg_proc p on p.oid = t.tgfoid where p.proname = 'sync_log_change') as triggers,
          (select count(*)::int from pg_attribute a join pg_class c on c.oid = a.attrelid
             where c.relnamespace = 'public'::regnamespace and a.attidentity <> '') as identities,
          (select count(*)::int from pg_attribute a join pg_class c on c.oid = a.attrelid
             where c.relnamespace = 'public'::regnamespace and a.attgenerated <> '') as generated`,
      );
      expect(loose).toEqual({ fks: 0, uniques: 0, indexes: 0, triggers: 0, identities: 0, generated: 0 });
      // The server's primary keys stay: a page upserts on them.
      const [pk] = await query<{ n: number }>(
        replica.db,
        sql`select count(*)::int as n from pg_constraint where conrelid = 'class_reservation'::regclass and contype = 'p'`,
      );
      expect(pk?.n).toBe(1);
      await replica.setMeta('desk.session', 'recepcion');
      expect(await replica.getMeta('desk.session')).toBe('recepcion');
      await replica.setMeta('desk.session', null);
      expect(await replica.getMeta('desk.session')).toBeNull();
    } finally {
      await replica.close();
    }
  });

  it('reopens a replica on disk without migrating again, keeping its rows and meta', async () => {
    const dir = tempDir('replica');
    try {
      const first = await openReplica({ dataDir: dir.path });
      await first.setMeta('sync.cursor', '12:34');
      await first.close();
      const second = await openReplica({ dataDir: dir.path });
      try {
        expect(await second.getMeta('sync.cursor')).toBe('12:34');
        // Measured: ~3 s for a new replica (PGlite creates its cluster and migrates), well under 1.5 s to reopen.
        expect(second.openedInMs).toBeLessThan(first.openedInMs);
        console.info(`replica: created in ${Math.round(first.openedInMs)} ms, reopened in ${Math.round(second.openedInMs)} ms`);
      } finally {
        await second.close();
      }
    } finally {
      dir.remove();
    }
  });

  it("creates a new replica's cluster in a child process, so the desk does not keep initdb's memory; an existing one, or memory, opens as it is", async () => {
    const dir = tempDir('replica-init');
    try {
      const folder = join(dir.path, 'replica');
      expect(await initClusterApart(folder)).toBe(true);
      expect(existsSync(join(folder, 'PG_VERSION'))).toBe(true);
      expect(await initClusterApart(folder)).toBe(false);
      expect(await initClusterApart('memory://')).toBe(false);
      const replica = await openReplica({ dataDir: folder });
      try {
        expect(await replica.getMeta('sync.cursor')).toBeNull();
      } finally {
        await replica.close();
      }
    } finally {
      dir.remove();
    }
  });
});

describe('pages, mutations and the rebase', () => {
  let replica: ClientReplica;
  beforeAll(async () => {
    replica = await openReplica({ dataDir: 'memory://' });
    await loadServer(server, replica);
  });
  afterAll(async () => {
    await replica?.close();
  });

  it('a snapshot copy equals the server, row for row', async () => {
    expect(await allTableRows(replica.db)).toEqual(await allTableRows(server.db));
  });

  it('a page upserts and deletes in batches; a key named twice keeps its last state', async () => {
    const [before] = await tableRows(replica.db, 'location');
    if (!before) throw new Error('no location');
    const tables = await applyPullPage(replica.db, clientId, {
      cursor: '100:1',
      more: false,
      held: false,
      lastMutationId: 0,
      changes: [
        { table: 'location', key: { location_id: before.location_id as number }, row: { ...before, name: 'Primero' } },
        { table: 'location', key: { location_id: 9001 }, row: { ...before, location_id: 9001, name: 'Sucursal nueva' } },
        { table: 'location', key: { location_id: before.location_id as number }, row: { ...before, name: 'Centro renovado' } },
        { table: 'waitlist', key: { waitlist_id: 424242 }, row: null },
      ],
    });
    expect(tables.sort()).toEqual(['location', 'waitlist']);
    const rows = await tableRows(replica.db, 'location');
    expect(rows.find((r) => r.location_id === before.location_id)?.name).toBe('Centro renovado');
    expect(rows.find((r) => r.location_id === 9001)?.name).toBe('Sucursal nueva');
    expect(await replica.getMeta('sync.cursor')).toBe('100:1');
    await applyPullPage(replica.db, clientId, {
      cursor: '101:2',
      more: false,
      held: false,
      lastMutationId: 0,
      changes: [
        { table: 'location', key: { location_id: 9001 }, row: null },
        { table: 'location', key: { location_id: before.location_id as number }, row: before },
      ],
    });
    expect(await tableRows(replica.db, 'location')).toEqual(await tableRows(server.db, 'location'));
  });

  it('a check-in shows at once, survives a pull that rewrites the row, and is dropped when the pull covers it', async () => {
    const [live] = await replica.db
      .select({ r: class_reservation, c: single_class })
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .where(and(isNull(class_reservation.deletedAt), eq(class_reservation.attend, false), isNull(single_class.cancelledAt), lt(single_class.class_date, new Date())))
      .orderBy(class_reservation.class_reservation_id)
      .limit(1);
    if (!live) throw new Error('no live reservation in the seed');
    const at = live.c.class_date.toISOString();
    const { mutationId } = await recordMutation(replica.db, clientId, 'checkIn', { class_reservation_id: live.r.class_reservation_id, at });
    const attended = async () =>
      (await replica.db.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, live.r.class_reservation_id)))[0];
    expect((await attended())?.attend).toBe(true);

    // The server changed the same row (a rating, say) before it saw the check-in: the check-in is redone on top.
    const [serverRow] = (await tableRows(server.db, 'class_reservation')).filter((r) => r.class_reservation_id === live.r.class_reservation_id);
    if (!serverRow) throw new Error('row missing on the server');
    const key = { class_reservation_id: live.r.class_reservation_id };
    await applyPullPage(replica.db, clientId, { cursor: '102:3', more: false, held: false, lastMutationId: 0, changes: [{ table: 'class_reservation', key, row: { ...serverRow, comment: 'Sin toalla' } }] });
    expect(await attended()).toMatchObject({ attend: true, comment: 'Sin toalla' });
    expect(await allPending(replica.db)).toHaveLength(1);

    // The pull that carries the server's effect acknowledges it: what stays is exactly the server's row.
    const acknowledged = { ...serverRow, comment: 'Sin toalla', attend: true, attended_at: at };
    await applyPullPage(replica.db, clientId, { cursor: '103:4', more: false, held: false, lastMutationId: mutationId, changes: [{ table: 'class_reservation', key, row: acknowledged }] });
    expect(await allPending(replica.db)).toHaveLength(0);
    const [stored] = await query<{ row: Record<string, unknown> }>(
      replica.db,
      sql`select to_jsonb(r) as row from class_reservation r where class_reservation_id = ${key.class_reservation_id}`,
    );
    expect(stored?.row).toEqual({ ...acknowledged, attended_at: live.c.class_date.toISOString().replace('Z', '+00:00').replace('.000', '') });
  });

  it('a refused mutation stores nothing; a rejected walk-in leaves no trace and gives the credit back', async () => {
    await expect(recordMutation(replica.db, clientId, 'checkIn', { class_reservation_id: 987_654 })).rejects.toMatchObject({ code: 'reservation/not-found' });
    expect(await allPending(replica.db)).toHaveLength(0);

    const [cliente] = await replica.db.select().from(customer).where(eq(customer.email, 'cliente@estudio.demo'));
    if (!cliente) throw new Error('no cliente');
    const [future] = await replica.db
      .select()
      .from(single_class)
      .where(
        and(
          gt(single_class.class_date, new Date(Date.now() + 3 * 3600_000)),
          isNull(single_class.cancelledAt),
          isNull(single_class.class_package_id),
          sql`${single_class.capacity} > (select count(*) + count(guest) from class_reservation r where r.single_class_id = ${single_class.single_class_id} and r.deleted_at is null)`,
          sql`not exists (select 1 from class_reservation r where r.single_class_id = ${single_class.single_class_id} and r.customer_id = ${cliente.customer_id} and r.deleted_at is null)`,
        ),
      )
      .orderBy(single_class.class_date)
      .limit(1);
    if (!future) throw new Error('no future class');
    const creditsBefore = await tableRows(replica.db, 'available_classes');
    const reservationsBefore = await tableRows(replica.db, 'class_reservation');
    const { mutationId } = await recordMutation(replica.db, clientId, 'walkIn', { customer_id: cliente.customer_id, single_class_id: future.single_class_id, spot: null, guest: null });
    const [temp] = await replica.db
      .select()
      .from(class_reservation)
      .where(and(eq(class_reservation.customer_id, cliente.customer_id), eq(class_reservation.single_class_id, future.single_class_id)));
    expect(temp?.class_reservation_id).toBeLessThan(0);
    const spent = await replica.db.select().from(available_classes).where(eq(available_classes.available_class_id, temp?.available_class_id ?? 0));
    expect(spent[0]?.available_classes).toBe((creditsBefore.find((c) => c.available_class_id === temp?.available_class_id)?.available_classes as number) - 1);

    // Booking the same class again is refused locally with the server's code.
    await expect(
      recordMutation(replica.db, clientId, 'walkIn', { customer_id: cliente.customer_id, single_class_id: future.single_class_id, spot: null, guest: null }),
    ).rejects.toBeInstanceOf(DomainError);

    const tables: ReplicatedTable[] = await rejectMutation(replica.db, clientId, mutationId, { code: 'booking/class-full', message: 'La clase está llena.' });
    expect(tables).toContain('class_reservation');
    expect(await tableRows(replica.db, 'available_classes')).toEqual(creditsBefore);
    expect(await tableRows(replica.db, 'class_reservation')).toEqual(reservationsBefore);
    expect(await listRejections(replica.db, clientId)).toMatchObject([{ mutationId, name: 'walkIn', code: 'booking/class-full' }]);
  });
});
