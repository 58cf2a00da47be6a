import { available_classes, class_package, customer, page, payment_method, purchase } from '@estudio/db';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { applyDeskMutation } from '@estudio/server/services/desk/apply-desk-mutation';
import { DomainError } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDirectServerLink } from '../src/client/direct-link.ts';
import { openReplica, type ClientReplica } from '../src/client/replica.ts';
import { createSyncClient } from '../src/client/sync-client.ts';
import type { SyncClient } from '../src/client/types.ts';
import { eventually, flakyLink, staffOf, type FlakyLink } from './fixtures.ts';

/**
 * A first-time walk-in registered while the desk is offline: she is in the replica at once under a temporary id,
 * staff sell to her under it, and when the connection returns the desk follows her to the server's id (a new
 * customer, or the one whose e-mail was already registered, which staff are told about).
 */
let server: TestDb;
let replica: ClientReplica;
let client: SyncClient;
let link: FlakyLink;
let pages: number[];
let fivePack: number;
let cash: number;
let n = 0;

beforeAll(async () => {
  server = await createTestDb();
  replica = await openReplica({ dataDir: 'memory://' });
  link = flakyLink(createDirectServerLink({ db: server.db, staff: await staffOf(server.db), apply: applyDeskMutation }));
  client = createSyncClient({ replica, link, clientId: crypto.randomUUID(), backoff: { initialMs: 20, maxMs: 200 } });
  await client.start();
  await eventually(() => client.status().ready, 60_000, 'first sync');
  pages = (await replica.db.select({ id: page.page_id }).from(page).where(eq(page.required, true))).map((p) => p.id);
  fivePack = (await replica.db.select().from(class_package).where(eq(class_package.title, '5 Clases')))[0]!.class_package_id;
  cash = (await replica.db.select().from(payment_method).where(eq(payment_method.provider, 'cash')))[0]!.payment_method_id;
});
afterAll(async () => {
  await client?.stop();
  await replica?.close();
  await server?.close();
});

const form = (overrides: Record<string, unknown> = {}) => {
  n += 1;
  return { name: 'Renata', last_name: 'Ortiz', phone: `55000${String(Date.now() % 100000).padStart(5, '0')}`.slice(0, 8) + String(n).padStart(2, '0'), email: `renata.${Date.now()}.${n}@sinred.mx`, accepted_page_ids: pages, ...overrides };
};

const sale = (customerId: number) => ({
  customer_id: customerId,
  packages: [{ class_package_id: fivePack, package_days: null }],
  products: [],
  discount_code: null,
  payment_method_id: cash,
  bill: false,
  terminal: null,
  cash_part: null,
});

const creditsOf = async (customerId: number) =>
  (await replica.db.select().from(available_classes).where(eq(available_classes.customer_id, customerId))).reduce((sum, c) => sum + c.available_classes, 0);

describe('a walk-in registered with no connection', () => {
  it('is in the replica at once, is sold to under her temporary id, and is followed to the server\'s id', async () => {
    link.cut();
    const typed = form();
    const { tempId } = await client.mutate('registerCustomer', typed);
    expect(tempId).toBeLessThan(0);
    const [local] = await replica.db.select().from(customer).where(eq(customer.customer_id, tempId));
    expect(local).toMatchObject({ name: 'Renata', email: typed.email });
    await client.mutate('sellAtDesk', sale(tempId));
    expect(await creditsOf(tempId)).toBe(5);
    expect(client.status().pending).toBe(2);

    link.restore();
    await client.syncNow();
    await eventually(async () => (await client.serverCustomerId(tempId)) !== null && client.status().pending === 0, 20_000, 'the registration answered');
    const id = (await client.serverCustomerId(tempId))!;
    const [stored] = await server.db.select().from(customer).where(eq(customer.customer_id, id));
    expect(stored).toMatchObject({ email: typed.email, phone: typed.phone });
    expect((await server.db.select().from(purchase).where(eq(purchase.customer_id, id))).map((p) => p.class_package_id)).toEqual([fivePack]);
    // The replica holds her under the server's id only, with her five classes; nothing is shown to staff.
    expect(await replica.db.select().from(customer).where(eq(customer.customer_id, tempId))).toHaveLength(0);
    expect(await creditsOf(id)).toBe(5);
    expect(client.status().adoptions).toEqual([]);
  });

  it('a change made under the temporary id after the server answered goes to the server\'s id', async () => {
    link.cut();
    const { tempId } = await client.mutate('registerCustomer', form());
    link.restore();
    await client.syncNow();
    await eventually(async () => (await client.serverCustomerId(tempId)) !== null && client.status().pending === 0, 20_000, 'the registration answered');
    const id = (await client.serverCustomerId(tempId))!;
    // A screen still showing her by the temporary id.
    await client.mutate('sellAtDesk', sale(tempId));
    await client.syncNow();
    await eventually(async () => (await server.db.select().from(purchase).where(eq(purchase.customer_id, id))).length === 1, 20_000, 'the sale');
    expect(await creditsOf(id)).toBe(5);
  });

  it('an e-mail the replica already has is refused at once, as online', async () => {
    link.cut();
    // Compared with before: the previous test's sale may still wait for its acknowledgement on a busy server.
    const before = client.status().pending;
    await expect(client.mutate('registerCustomer', form({ email: 'cliente@estudio.demo' }))).rejects.toBeInstanceOf(DomainError);
    await expect(client.mutate('registerCustomer', form({ accepted_page_ids: [] }))).rejects.toMatchObject({ code: 'customer/documents-not-accepted' });
    expect(client.status().pending).toBe(before);
    link.restore();
  });

  it('an e-mail registered elsewhere during the outage: her account gets the sale, and staff are told until they dismiss it', async () => {
    link.cut();
    const typed = form({ name: 'Lupita' });
    const { tempId } = await client.mutate('registerCustomer', typed);
    await client.mutate('sellAtDesk', sale(tempId));
    // Meanwhile she signed up on the portal with the same e-mail.
    const [portal] = await server.db.insert(customer).values({ name: 'Guadalupe', last_name: 'Ortiz', email: typed.email }).returning();
    link.restore();
    await client.syncNow();
    await eventually(() => client.status().adoptions.length === 1 && client.status().pending === 0, 20_000, 'the notice');
    expect(await client.serverCustomerId(tempId)).toBe(portal!.customer_id);
    const [notice] = client.status().adoptions;
    expect(notice).toMatchObject({ customerId: portal!.customer_id, typedName: 'Lupita Ortiz' });
    expect(notice!.notice).toContain('«Lupita Ortiz» ya estaba registrado con ese correo como Guadalupe Ortiz');
    expect(await server.db.select().from(customer).where(eq(customer.email, typed.email))).toHaveLength(1);
    expect(await creditsOf(portal!.customer_id)).toBe(5);
    await client.dismissAdoption(notice!.mutationId);
    expect(client.status().adoptions).toEqual([]);
  });
});
