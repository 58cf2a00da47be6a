import { and, asc, eq } from 'drizzle-orm';
import { accepted_page, page } from '@estudio/db/schema/content';
import { DomainError, type AcceptedPageOutput } from '@estudio/core';
import type { Db } from '../../db.ts';
import { toAcceptedPageOutput } from './list-pages.ts';

/** The pages a customer has accepted. */
export async function listAcceptedPages(db: Db, customerId: number): Promise<AcceptedPageOutput[]> {
  const rows = await db.select().from(accepted_page).where(eq(accepted_page.customer_id, customerId)).orderBy(asc(accepted_page.page_id));
  return rows.map(toAcceptedPageOutput);
}

/** Records that the customer accepted a page; accepting twice answers the first acceptance. */
export async function acceptPage(db: Db, customerId: number, pageId: number): Promise<AcceptedPageOutput> {
  return db.transaction(async (tx) => {
    const [exists] = await tx.select({ page_id: page.page_id }).from(page).where(eq(page.page_id, pageId)).limit(1);
    if (!exists) throw new DomainError('page/not-found');
    await tx.insert(accepted_page).values({ page_id: pageId, customer_id: customerId }).onConflictDoNothing();
    const [row] = await tx
      .select()
      .from(accepted_page)
      .where(and(eq(accepted_page.page_id, pageId), eq(accepted_page.customer_id, customerId)))
      .limit(1);
    if (!row) throw new Error('accepted_page row missing after insert');
    return toAcceptedPageOutput(row);
  });
}
