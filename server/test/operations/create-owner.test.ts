import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestDb, type TestDb } from '@estudio/db/testing';
import { app_config } from '@estudio/db/schema/app-config';
import { customer } from '@estudio/db/schema/customer';
import { createOwner } from '../../src/services/setup/create-owner.ts';
import { resetPassword } from '../../src/services/auth/reset-password.ts';

/** The operator's first owner (decision 074), on both drivers: an empty studio, and the demo's accounts. */
describe('the first owner of a studio', () => {
  let handle: TestDb | undefined;
  afterEach(async () => {
    await handle?.close();
    handle = undefined;
  });
  const base = { name: 'Ana', lastName: 'Ruiz', linkHours: 24, publicUrl: 'https://estudio-luna.mx', provider: 'local' as const };

  it('on an empty studio: an admin account that nobody signs in to until the printed link sets its password', async () => {
    handle = await createTestDb({ seed: false });
    const made = await createOwner(handle.db, { ...base, email: 'ana@estudio-luna.mx' });
    expect(made).toMatchObject({ kind: 'link', created: true });
    if (made.kind !== 'link') throw new Error('sin enlace');
    expect(made.expiresAt.getTime() - Date.now()).toBeGreaterThan(23 * 3_600_000);
    const token = decodeURIComponent(new URL(made.link).searchParams.get('token') ?? '');
    await resetPassword(handle.db, { token, password: 'UnaClave-Segura-2025' });
    const [row] = await handle.db.select({ role: customer.role, uid: customer.uid }).from(customer).where(eq(customer.email, 'ana@estudio-luna.mx'));
    expect(row?.role).toBe('admin');
    expect(row?.uid).toBeTruthy();
    // The first test of the file may build the empty database's cached copy.
  }, 120_000);

  it('an account that already signs in is promoted, and no link is made for it', async () => {
    handle = await createTestDb();
    const made = await createOwner(handle.db, { ...base, email: 'recepcion@estudio.demo' });
    expect(made.kind).toBe('promoted');
    const [row] = await handle.db.select({ role: customer.role }).from(customer).where(eq(customer.email, 'recepcion@estudio.demo'));
    expect(row?.role).toBe('admin');
  });

  it('the studio keeps a name it already has', async () => {
    handle = await createTestDb();
    await createOwner(handle.db, { ...base, email: 'nueva@estudio.demo', studio: 'Otro nombre' });
    const [name] = await handle.db.select({ value: app_config.value }).from(app_config).where(eq(app_config.key, 'business_name'));
    expect(name?.value).toBe('Estudio Demo');
  });

  it('under Firebase, someone who has not signed up is told to sign up first', async () => {
    handle = await createTestDb({ seed: false });
    await expect(createOwner(handle.db, { ...base, email: 'ana@estudio-luna.mx', provider: 'firebase' })).rejects.toMatchObject({ code: 'setup/owner-signs-up-first' });
  });
});
