import { DomainError } from '@estudio/core';
import { customer, page } from '@estudio/db';
import { and, eq, isNull } from 'drizzle-orm';
import type { Mutator } from './context.ts';
import { acceptDocuments } from './accept-documents-at-desk.ts';
import { insertRow } from './replica-rows.ts';

/**
 * The server's registerAtDesk (`server/src/services/desk/register-at-desk.ts`, decision 113) on the replica: the
 * walk-in gets the mutation's temporary id, so staff book and sell to them at once, offline too. An e-mail or a
 * phone this replica already has is refused as POST /api/customer refuses it: staff pick that customer instead.
 * One the replica does not know yet is the server's to find at the push.
 */
export const registerCustomer: Mutator<'registerCustomer'> = async (ctx, args) => {
  const { tx, now, tempId } = ctx;
  const [sameEmail] = await tx.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, args.email)).limit(1);
  if (sameEmail) throw new DomainError('customer/email-taken');
  const [samePhone] = await tx
    .select({ id: customer.customer_id })
    .from(customer)
    .where(and(eq(customer.phone, args.phone), isNull(customer.deletedAt)))
    .limit(1);
  if (samePhone) throw new DomainError('customer/phone-taken');
  const required = await tx.select({ page_id: page.page_id }).from(page).where(eq(page.required, true));
  if (required.some((p) => !args.accepted_page_ids.includes(p.page_id))) throw new DomainError('customer/documents-not-accepted');
  await insertRow(tx, 'customer', {
    customer_id: tempId,
    name: args.name,
    last_name: args.last_name,
    email: args.email,
    phone: args.phone,
    birthdate: args.birthdate ?? null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  const touched = ['customer' as const];
  if (!args.accepted_page_ids.length) return touched;
  return [...touched, ...(await acceptDocuments(ctx, { customer_id: tempId, page_ids: args.accepted_page_ids, at: now.toISOString() }))];
};
