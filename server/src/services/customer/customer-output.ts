import type { CustomerOutput } from '@estudio/core';
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
  };
}
