import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { audit_log } from '@estudio/db/schema/audit';
import { customer } from '@estudio/db/schema/customer';
import { auth_user } from '@estudio/db/schema/identity';
import { activityWhat } from '@estudio/core';
import type { Db } from '../../src/db.ts';
import { linkIdentityByEmail } from '../../src/services/auth/link-identity.ts';

/**
 * Decision 095: a Firebase identity whose e-mail Firebase verified is linked
 * at its first call to the live account with that e-mail, when the account
 * has no identity yet or one of the local provider's; never another Firebase
 * identity's account, never a deleted one; once, audited. On the real
 * migrated database (PGlite, and PostgreSQL with TEST_DATABASE_URL, where the
 * first calls race for real). The sign-in path through Firebase itself is
 * firebase.emulator.test.ts.
 */

let t: TestDb;
let db: Db;

const accountOf = async (email: string) => (await db.select().from(customer).where(eq(customer.email, email)))[0]!;

/** A customer as the desk registers one: no identity. */
async function deskCustomer(email: string, phone: string) {
  const [row] = await db.insert(customer).values({ uid: null, email, name: 'Regina', last_name: 'Mostrador', phone }).returning();
  return row!;
}

const linkAudits = (customerId: number) =>
  db
    .select()
    .from(audit_log)
    .where(and(eq(audit_log.action, 'identity.link'), eq(audit_log.entity_id, String(customerId))))
    .orderBy(desc(audit_log.audit_log_id));

beforeAll(async () => {
  t = await createTestDb();
  db = t.db as unknown as Db;
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('linkIdentityByEmail', () => {
  it('links an account registered at the desk (no identity) and audits it with the person as actor', async () => {
    const row = await deskCustomer('regina.mostrador@correo.mx', '5511002200');
    const linked = await linkIdentityByEmail(db, { uid: 'firebase-regina', email: 'Regina.Mostrador@Correo.mx' });
    expect(linked).toMatchObject({ customer_id: row.customer_id, uid: 'firebase-regina' });
    expect((await accountOf('regina.mostrador@correo.mx')).uid).toBe('firebase-regina');
    const [audit] = await linkAudits(row.customer_id);
    expect(audit).toMatchObject({ customer_id: row.customer_id, entity: 'customer', changes: { uid: { from: null, to: 'firebase-regina' }, provider: 'firebase', email: 'regina.mostrador@correo.mx' } });
    // Actividad says what happened, in the person's own words.
    const facts = { entity: 'customer', action: 'identity.link', entityId: String(row.customer_id), changes: audit!.changes, actor: { name: 'Regina Mostrador', email: row.email }, customerName: 'Regina Mostrador' };
    expect(activityWhat(facts)).toBe('entró por primera vez con Firebase con su correo verificado; su cuenta quedó vinculada a ese inicio de sesión');
  });

  it("links an account that signed in with the local provider (its auth_user row stays), and a second call with the same identity links nothing more", async () => {
    const before = await accountOf('cliente@estudio.demo');
    const [local] = await db.select().from(auth_user).where(eq(auth_user.uid, before.uid!));
    expect(local).toBeDefined();
    const linked = await linkIdentityByEmail(db, { uid: 'firebase-mariana', email: 'cliente@estudio.demo' });
    expect(linked?.customer_id).toBe(before.customer_id);
    expect(await linkIdentityByEmail(db, { uid: 'firebase-mariana', email: 'cliente@estudio.demo' })).toBeNull();
    expect(await linkAudits(before.customer_id)).toHaveLength(1);
    expect((await db.select().from(auth_user).where(eq(auth_user.uid, before.uid!))).length).toBe(1);
  });

  it("leaves alone an account linked to another Firebase identity, a deleted account and an address nobody has", async () => {
    // Mariana is now linked to 'firebase-mariana' (no auth_user row): another Firebase identity with her e-mail takes nothing.
    expect(await linkIdentityByEmail(db, { uid: 'firebase-otra', email: 'cliente@estudio.demo' })).toBeNull();
    expect((await accountOf('cliente@estudio.demo')).uid).toBe('firebase-mariana');

    const gone = await deskCustomer('borrada@correo.mx', '5511002201');
    await db.update(customer).set({ deletedAt: new Date() }).where(eq(customer.customer_id, gone.customer_id));
    expect(await linkIdentityByEmail(db, { uid: 'firebase-borrada', email: 'borrada@correo.mx' })).toBeNull();
    expect((await accountOf('borrada@correo.mx')).uid).toBeNull();

    expect(await linkIdentityByEmail(db, { uid: 'firebase-nadie', email: 'nadie@correo.mx' })).toBeNull();
  });

  it('links once when the first calls of one identity arrive at the same time', async () => {
    const row = await deskCustomer('a.la.vez@correo.mx', '5511002202');
    const results = await Promise.all(Array.from({ length: 8 }, () => linkIdentityByEmail(db, { uid: 'firebase-a-la-vez', email: 'a.la.vez@correo.mx' })));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect((await accountOf('a.la.vez@correo.mx')).uid).toBe('firebase-a-la-vez');
    expect(await linkAudits(row.customer_id)).toHaveLength(1);
  });

  it('two different identities racing for one account: one is linked, the other is not', async () => {
    const row = await deskCustomer('dos.a.la.vez@correo.mx', '5511002203');
    const [first, second] = await Promise.all([
      linkIdentityByEmail(db, { uid: 'firebase-uno', email: 'dos.a.la.vez@correo.mx' }),
      linkIdentityByEmail(db, { uid: 'firebase-dos', email: 'dos.a.la.vez@correo.mx' }),
    ]);
    expect([first, second].filter((r) => r !== null)).toHaveLength(1);
    const winner = (first ?? second)!.uid;
    expect((await accountOf('dos.a.la.vez@correo.mx')).uid).toBe(winner);
    expect(await linkAudits(row.customer_id)).toHaveLength(1);
  });
});
