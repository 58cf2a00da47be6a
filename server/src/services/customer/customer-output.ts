import { eq } from 'drizzle-orm';
import { address } from '@estudio/db/schema/customer';
import type { CustomerOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { toAddressOutput } from '../addresses/addresses.ts';
import { fileSummaries } from '../files/file-output.ts';
import { answersForOwnProfile } from './customer-answers.ts';
import type { CustomerRow } from './find-customer.ts';

/** The spec's customer envelope: dates as ISO strings, internal columns left out. */
export function toCustomerOutput(row: CustomerRow): CustomerOutput {
  return {
    customer_id: row.customer_id,
    uid: row.uid,
    name: row.name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone,
    instagram: row.instagram,
    birthdate: row.birthdate,
    signup_reason: row.signup_reason,
    signup_reason_other: row.signup_reason_other,
    file_id: row.file_id,
    role: row.role,
    has_unlimited: row.has_unlimited,
    unlimited_membership_expiration: row.unlimited_membership_expiration?.toISOString() ?? null,
    unlimited_max_no_shows_for_penalty: row.unlimited_max_no_shows_for_penalty,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    address_id: row.address_id,
  };
}

/**
 * The customer of "Mi Información": the envelope plus the linked address, the
 * profile image, her answers to the studio's questions and what she must still
 * answer before booking (decision 087). Her own session only.
 */
export async function toCustomerProfileOutput(db: Db, row: CustomerRow): Promise<CustomerOutput> {
  const [[addressRow], files, answers] = await Promise.all([
    row.address_id === null ? Promise.resolve([]) : db.select().from(address).where(eq(address.address_id, row.address_id)).limit(1),
    fileSummaries(db, [row.file_id]),
    answersForOwnProfile(db, row),
  ]);
  return {
    ...toCustomerOutput(row),
    address: addressRow ? toAddressOutput(addressRow) : null,
    file: row.file_id === null ? null : (files.get(row.file_id) ?? null),
    ...answers,
  };
}
