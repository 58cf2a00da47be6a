import { DomainError, type DomainErrorCode } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { accepted_page, page } from '@estudio/db/schema/content';
import type { Db } from '../../db.ts';

/**
 * The one home of "the customer accepted the studio's documents":
 * records the pages a customer accepted, at sign-up in the portal or at the
 * desk. Every id must be a page (page/not-found); with `requireAll`, every
 * page marked required must be among them (`refusal`: customer/documents-not-accepted
 * for staff, the spec's customer text at sign-up).
 * An acceptance already recorded is kept (its first date stays).
 * Call it inside the transaction that creates or changes the customer.
 */
export async function acceptDocuments(db: Db, customerId: number, pageIds: readonly number[], options: { requireAll: boolean; refusal?: DomainErrorCode }): Promise<number[]> {
  const accepted = [...new Set(pageIds)];
  const pages = await db.select({ page_id: page.page_id, required: page.required }).from(page);
  const known = new Set(pages.map((p) => p.page_id));
  if (accepted.some((id) => !known.has(id))) throw new DomainError('page/not-found');
  if (options.requireAll && pages.some((p) => p.required && !accepted.includes(p.page_id))) throw new DomainError(options.refusal ?? 'customer/documents-not-accepted');
  if (accepted.length) {
    await db
      .insert(accepted_page)
      .values(accepted.map((page_id) => ({ page_id, customer_id: customerId })))
      .onConflictDoNothing();
  }
  return accepted;
}

/** Required pages the customer has not accepted (ids, in page order). */
export async function missingRequiredDocuments(db: Db, customerId: number): Promise<number[]> {
  const pages = await db.select({ page_id: page.page_id, required: page.required }).from(page).orderBy(page.page_id);
  const done = await db.select({ page_id: accepted_page.page_id }).from(accepted_page).where(eq(accepted_page.customer_id, customerId));
  const have = new Set(done.map((d) => d.page_id));
  return pages.filter((p) => p.required && !have.has(p.page_id)).map((p) => p.page_id);
}
