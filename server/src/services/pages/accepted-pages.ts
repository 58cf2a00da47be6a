import { and, asc, eq } from 'drizzle-orm';
import { accepted_page, page } from '@estudio/db/schema/content';
import { DomainError, type AcceptedPageOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { toAcceptedPageOutput } from './list-pages.ts';

/** The pages a customer has accepted, each version she accepted its own row. */
export async function listAcceptedPages(db: Db, customerId: number): Promise<AcceptedPageOutput[]> {
  const rows = await db
    .select()
    .from(accepted_page)
    .where(eq(accepted_page.customer_id, customerId))
    .orderBy(asc(accepted_page.page_id), asc(accepted_page.version));
  return rows.map(toAcceptedPageOutput);
}

/**
 * Records that the customer accepted the page's current version; accepting it twice answers the first acceptance.
 * `readVersion`, the version she read: one published meanwhile is a 409 (page/new-version), never accepted unread.
 */
export async function acceptPage(db: Db, customerId: number, pageId: number, readVersion?: number): Promise<AcceptedPageOutput> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select({ page_id: page.page_id, version: page.version }).from(page).where(eq(page.page_id, pageId)).limit(1);
    if (!current) throw new DomainError('page/not-found');
    if (readVersion !== undefined && readVersion !== current.version) throw new DomainError('page/new-version');
    await tx.insert(accepted_page).values({ page_id: pageId, customer_id: customerId, version: current.version }).onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(accepted_page)
      .where(and(eq(accepted_page.page_id, pageId), eq(accepted_page.customer_id, customerId), eq(accepted_page.version, current.version)))
      .limit(1);
    if (!row) throw new Error('accepted_page row missing after insert');
    return toAcceptedPageOutput(row);
  });
}
