import { asc, eq } from 'drizzle-orm';
import { accepted_page, page } from '@estudio/db/schema/content';
import { DomainError, type AcceptedPageOutput, type PageOutput } from '@estudio/core';
import type { Db } from '../../db.ts';

const pageColumns = {
  page_id: page.page_id,
  slug: page.slug,
  title: page.title,
  content: page.content,
  required: page.required,
  version: page.version,
};

/** Every information page, in footer order. */
export async function listPages(db: Db): Promise<PageOutput[]> {
  return db.select(pageColumns).from(page).orderBy(asc(page.order), asc(page.page_id));
}

/** One page by its slug; 404 'page/not-found' when there is none. */
export async function getPageBySlug(db: Db, slug: string): Promise<PageOutput> {
  const [row] = await db.select(pageColumns).from(page).where(eq(page.slug, slug)).limit(1);
  if (!row) throw new DomainError('page/not-found');
  return row;
}

export function toAcceptedPageOutput(row: typeof accepted_page.$inferSelect): AcceptedPageOutput {
  return { accepted_page_id: row.accepted_page_id, page_id: row.page_id, customer_id: row.customer_id, version: row.version, createdAt: row.createdAt.toISOString() };
}
