import { DomainError, versionAccepted } from '@estudio/core';
import { accepted_page, page } from '@estudio/db';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { query } from '../replica.ts';
import type { Mutator } from './context.ts';
import { insertRow, liveCustomer } from './replica-rows.ts';

/**
 * The server's acceptDocuments (`server/src/services/desk/accept-documents-at-desk.ts`, decision 018)
 * on the replica: the customer accepted these documents at the counter. Every id must be a page the
 * replica has; pages already accepted at their current version keep their first acceptance.
 */
export const acceptDocuments: Mutator<'acceptDocuments'> = async ({ tx, now }, args) => {
  const who = await liveCustomer(tx, args.customer_id);
  const ids = [...new Set(args.page_ids)];
  const known = await tx.select({ page_id: page.page_id, version: page.version }).from(page).where(inArray(page.page_id, ids));
  if (known.length !== ids.length) throw new DomainError('page/not-found');
  const have = await tx
    .select({ page_id: accepted_page.page_id, version: accepted_page.version })
    .from(accepted_page)
    .where(and(eq(accepted_page.customer_id, who.customer_id), inArray(accepted_page.page_id, ids)));
  // Each page at the version staff showed, else the replica's current one (decision 122): an earlier version
  // accepted does not count, and a newer one than she read stays pending.
  const shown = known.map((p) => ({ page_id: p.page_id, version: versionAccepted(p.version, p.page_id, args.versions_read) }));
  const missing = shown.filter((p) => !have.some((h) => h.page_id === p.page_id && h.version === p.version));
  for (const { page_id: pageId, version } of missing) {
    // One temporary id per row (the mutation's own covers one).
    const [next] = await query<{ id: number }>(tx, sql`select nextval('desk.temp_id')::int as id`);
    if (!next) throw new Error('desk.temp_id gave no value');
    await insertRow(tx, 'accepted_page', {
      accepted_page_id: next.id,
      page_id: pageId,
      customer_id: who.customer_id,
      version,
      created_at: (args.at ? new Date(args.at) : now).toISOString(),
    });
  }
  return missing.length ? ['accepted_page'] : [];
};
