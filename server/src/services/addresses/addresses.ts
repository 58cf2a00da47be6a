import { and, asc, eq, isNull } from 'drizzle-orm';
import { address, customer } from '@estudio/db/schema/customer';
import { DomainError, validateAddress, type AddressOutput, type RemovedOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { definedOnly } from '../content/removed.ts';

type AddressRow = typeof address.$inferSelect;

export interface AddressFields {
  street?: string | null | undefined;
  number?: string | null | undefined;
  interior_number?: string | null | undefined;
  neighborhood?: string | null | undefined;
  city?: string | null | undefined;
  state?: string | null | undefined;
  country?: string | null | undefined;
  zip_code?: string | null | undefined;
}

export function toAddressOutput(row: AddressRow): AddressOutput {
  return {
    address_id: row.address_id,
    customer_id: row.customer_id,
    street: row.street,
    number: row.number,
    interior_number: row.interior_number,
    neighborhood: row.neighborhood,
    city: row.city,
    state: row.state,
    country: row.country,
    zip_code: row.zip_code,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

const alertCodes = {
  'address.city': 'address/city-required',
  'address.state': 'address/state-required',
  'address.country': 'address/country-required',
} as const;

/**
 * City, state and country are required with the spec's alerts, checked by
 * the validator the portal uses (form 6), first failing field first.
 */
function assertRequired(fields: AddressFields): void {
  const [first] = validateAddress(fields).pending;
  if (first) throw new DomainError(alertCodes[first.key as keyof typeof alertCodes] ?? 'validation');
}

/** Null for blank optional text, so an emptied field reads as absent. */
function blankToNull(fields: AddressFields): AddressFields {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, typeof v === 'string' && v.trim() === '' ? null : v])) as AddressFields;
}

async function own(db: Db, customerId: number, id: number): Promise<AddressRow> {
  const [row] = await db
    .select()
    .from(address)
    .where(and(eq(address.address_id, id), eq(address.customer_id, customerId)))
    .limit(1);
  // Another customer's address is indistinguishable from a missing one.
  if (!row) throw new DomainError('address/not-found');
  return row;
}

/** The caller's addresses, oldest first. */
export async function listAddresses(db: Db, customerId: number): Promise<AddressOutput[]> {
  const rows = await db.select().from(address).where(eq(address.customer_id, customerId)).orderBy(asc(address.address_id));
  return rows.map(toAddressOutput);
}

export async function getAddress(db: Db, customerId: number, id: number): Promise<AddressOutput> {
  return toAddressOutput(await own(db, customerId, id));
}

/** Creates an address of the caller; the first one becomes the customer's address (customer.address_id). */
export async function createAddress(db: Db, customerId: number, fields: AddressFields): Promise<AddressOutput> {
  assertRequired(fields);
  const clean = blankToNull(fields);
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(address)
      .values({ ...clean, customer_id: customerId, city: clean.city ?? '', state: clean.state ?? '', country: clean.country ?? '' })
      .returning();
    if (!row) throw new Error('address insert returned nothing');
    await tx
      .update(customer)
      .set({ address_id: row.address_id })
      .where(and(eq(customer.customer_id, customerId), isNull(customer.address_id)));
    return toAddressOutput(row);
  });
}

export async function updateAddress(db: Db, customerId: number, id: number, changes: AddressFields): Promise<AddressOutput> {
  const current = await own(db, customerId, id);
  // The saved address must still be complete: a sent blank city is refused, an absent one keeps its value.
  assertRequired({ ...current, ...definedOnly(changes) });
  const set = definedOnly(blankToNull(changes)) as Partial<typeof address.$inferInsert>;
  const [row] = await db
    .update(address)
    .set({ ...set, updatedAt: new Date() })
    .where(and(eq(address.address_id, id), eq(address.customer_id, customerId)))
    .returning();
  if (!row) throw new DomainError('address/not-found');
  return toAddressOutput(row);
}

/** Deletes one of the caller's addresses; customer.address_id is cleared by the foreign key. */
export async function removeAddress(db: Db, customerId: number, id: number): Promise<RemovedOutput> {
  const [row] = await db
    .delete(address)
    .where(and(eq(address.address_id, id), eq(address.customer_id, customerId)))
    .returning({ id: address.address_id });
  if (!row) throw new DomainError('address/not-found');
  return { deleted: true, id: row.id };
}

/** The caller's own address, or 404 (customer save links only own addresses). */
export async function assertOwnAddress(db: Db, customerId: number, id: number): Promise<void> {
  await own(db, customerId, id);
}
