import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sum } from 'drizzle-orm';
import { app_config } from '@estudio/db/schema/app-config';
import { audit_log } from '@estudio/db/schema/audit';
import { class_type, location } from '@estudio/db/schema/catalogue';
import { customer } from '@estudio/db/schema/customer';
import { message_preference } from '@estudio/db/schema/outbox';
import { available_classes } from '@estudio/db/schema/purchases';
import { single_class } from '@estudio/db/schema/schedule';
import { auth_user } from '@estudio/db/schema/identity';
import type { Db } from '../../src/db.ts';
import { createIdTokenSigner } from '../../src/services/auth/id-token.ts';

/** Data set-up for the booking tests: ids of the demo accounts, classes and credits, straight from the database. */

export async function customerId(db: Db, email: string): Promise<number> {
  const [row] = await db.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, email));
  if (!row) throw new Error(`no customer ${email}`);
  return row.id;
}

/** Sum of the customer's limited credits (what 'Mis Créditos' totals). */
export async function creditTotal(db: Db, id: number): Promise<number> {
  const [row] = await db
    .select({ n: sum(available_classes.available_classes) })
    .from(available_classes)
    .where(and(eq(available_classes.customer_id, id), gt(available_classes.available_classes, 0), isNull(available_classes.deletedAt)));
  return Number(row?.n ?? 0);
}

export async function classTypeId(db: Db, name: string): Promise<{ id: number; spot_map: string | null }> {
  const [row] = await db.select({ id: class_type.class_type_id, spot_map: class_type.spot_map }).from(class_type).where(eq(class_type.name, name));
  if (!row) throw new Error(`no class type ${name}`);
  return row;
}

export async function anyLocationId(db: Db): Promise<number> {
  const [row] = await db.select({ id: location.location_id }).from(location).orderBy(location.location_id).limit(1);
  if (!row) throw new Error('no location');
  return row.id;
}

/** A class of its own for one test: starts `minutesAhead` from now (negative: in the past). */
export async function newClass(
  db: Db,
  options: { minutesAhead: number; capacity: number; classType?: string; durationMinutes?: number; classPackageId?: number },
): Promise<number> {
  const type = await classTypeId(db, options.classType ?? 'Indoor Cycling');
  const [row] = await db
    .insert(single_class)
    .values({
      class_date: new Date(Date.now() + options.minutesAhead * 60_000),
      duration_minutes: options.durationMinutes ?? 50,
      capacity: options.capacity,
      location_id: await anyLocationId(db),
      class_type_id: type.id,
      class_package_id: options.classPackageId ?? null,
      description: 'Clase de prueba',
    })
    .returning({ id: single_class.single_class_id });
  if (!row) throw new Error('class insert failed');
  return row.id;
}

/** Sets app config values for the duration of `body`, then puts the old ones back. */
export async function withSettings<T>(db: Db, values: Record<string, string>, body: () => Promise<T>): Promise<T> {
  const before = await db.select().from(app_config);
  const old = new Map(before.map((r) => [r.key, r.value]));
  for (const [key, value] of Object.entries(values)) {
    await db.insert(app_config).values({ key, value }).onConflictDoUpdate({ target: app_config.key, set: { value } });
  }
  try {
    return await body();
  } finally {
    for (const key of Object.keys(values)) {
      const value = old.get(key);
      if (value === undefined) await db.delete(app_config).where(eq(app_config.key, key));
      else await db.update(app_config).set({ value }).where(eq(app_config.key, key));
    }
  }
}

export interface Booker {
  customer_id: number;
  available_class_id: number;
  token: string;
}

/**
 * `count` new customers, each with an identity, `credits` class credits and a
 * signed ID token, inserted in bulk (signing in 2,000 customers through scrypt
 * would measure the password hash, not booking). The tokens go through the
 * real verification on every request. They said yes to the optional messages at sign-up (reminders, a free place
 * on a waitlist), which nobody has without it (decision 120), unless `optionalMessages` is false.
 */
export async function createBookers(db: Db, secret: string, count: number, options: { credits?: number; prefix?: string; optionalMessages?: boolean } = {}): Promise<Booker[]> {
  const signer = createIdTokenSigner(secret, 3600);
  const prefix = options.prefix ?? `reserva-${Date.now()}`;
  const people = Array.from({ length: count }, (_, i) => ({ uid: `${prefix}-${i}`, email: `${prefix}-${i}@carrera.demo` }));
  const bookers: Booker[] = [];
  for (let start = 0; start < people.length; start += 500) {
    const batch = people.slice(start, start + 500);
    await db.insert(auth_user).values(batch.map((p) => ({ uid: p.uid, email: p.email, password_hash: 'sin-contraseña' })));
    const customers = await db
      .insert(customer)
      .values(batch.map((p, i) => ({ uid: p.uid, email: p.email, name: 'Cliente', last_name: `Carrera ${start + i}` })))
      .returning({ customer_id: customer.customer_id, uid: customer.uid });
    if (options.optionalMessages !== false) {
      await db.insert(message_preference).values(
        customers.map((c) => ({
          customer_id: c.customer_id,
          email_enabled: true,
          whatsapp_enabled: true,
          optional_consent_at: new Date(),
          stop_token: randomBytes(24).toString('base64url'),
          calendar_token: randomBytes(24).toString('base64url'),
        })),
      );
    }
    const credits = await db
      .insert(available_classes)
      .values(customers.map((c) => ({ customer_id: c.customer_id, available_classes: options.credits ?? 1 })))
      .returning({ available_class_id: available_classes.available_class_id, customer_id: available_classes.customer_id });
    // Each credit is a gift with its record in Activity, as services/credits/grant-credits.ts writes it:
    // bench/invariants.sql counts a credit with neither a paid purchase nor that record as one nobody paid for.
    await db.insert(audit_log).values(
      credits.map((c) => ({
        action: 'credits.grant',
        entity: 'customer',
        entity_id: String(c.customer_id),
        changes: { available_class_id: c.available_class_id, available_classes: options.credits ?? 1, reason: 'Créditos de la prueba' },
      })),
    );
    const creditBy = new Map(credits.map((c) => [c.customer_id, c.available_class_id]));
    for (const c of customers) {
      const person = batch.find((p) => p.uid === c.uid);
      if (!person) continue;
      bookers.push({
        customer_id: c.customer_id,
        available_class_id: creditBy.get(c.customer_id) ?? 0,
        token: await signer.sign({ uid: person.uid, email: person.email }),
      });
    }
  }
  return bookers;
}
