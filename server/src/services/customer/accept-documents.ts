import { DomainError, type DomainErrorCode, versionAccepted } from '@estudio/core';
import { eq } from 'drizzle-orm';
import { accepted_page, page } from '@estudio/db/schema/content';
import type { Db } from '../../db.ts';

/**
 * The one home of "the customer accepted the studio's documents":
 * records the pages a customer accepted, at sign-up in the portal or at the
 * desk, each at its current version (decision 122). Every id must be a page
 * (page/not-found); with `requireAll`, every page marked required must be
 * among them (`refusal`: customer/documents-not-accepted for staff, the spec's
 * customer text at sign-up).
 * An acceptance of that version already recorded is kept (its first date stays).
 * `versionsRead`: the version of each page the customer was shown (the desk's, maybe offline); she accepted that text,
 * so that version is recorded and a newer one stays pending.
 * Call it inside the transaction that creates or changes the customer.
 */
export async function acceptDocuments(
  db: Db,
  customerId: number,
  pageIds: readonly number[],
  options: { requireAll: boolean; refusal?: DomainErrorCode; versionsRead?: readonly { page_id: number; version: number }[] | undefined },
): Promise<number[]> {
  const accepted = [...new Set(pageIds)];
  const pages = await db.select({ page_id: page.page_id, required: page.required, version: page.version }).from(page);
  const byId = new Map(pages.map((p) => [p.page_id, p]));
  if (accepted.some((id) => !byId.has(id))) throw new DomainError('page/not-found');
  if (options.requireAll && pages.some((p) => p.required && !accepted.includes(p.page_id))) throw new DomainError(options.refusal ?? 'customer/documents-not-accepted');
  if (accepted.length) {
    await db
      .insert(accepted_page)
      .values(accepted.map((page_id) => ({ page_id, customer_id: customerId, version: versionAccepted(byId.get(page_id)?.version ?? 1, page_id, options.versionsRead) })))
      .onConflictDoNothing();
  }
  return accepted;
}

/** Required pages the customer has not accepted at their current version (ids, in page order). */
export async function missingRequiredDocuments(db: Db, customerId: number): Promise<number[]> {
  const pages = await db.select({ page_id: page.page_id, required: page.required, version: page.version }).from(page).orderBy(page.page_id);
  const done = await db.select({ page_id: accepted_page.page_id, version: accepted_page.version }).from(accepted_page).where(eq(accepted_page.customer_id, customerId));
  const have = new Set(done.map((d) => `${d.page_id}:${d.version}`));
  return pages.filter((p) => p.required && !have.has(`${p.page_id}:${p.version}`)).map((p) => p.page_id);
}
