import { count, eq, sql } from 'drizzle-orm';
import { accepted_page, page } from '@estudio/db/schema/content';
import { DomainError, pageRemoval, type PageAdminOutput, type RemovalVerdict, type RemovedOutput } from '@estudio/core';
import { isUniqueViolation, type Db } from '../../db.ts';
import { definedOnly } from '../content/removed.ts';

export interface PageFields {
  slug: string;
  title: string;
  content?: string | null | undefined;
  required?: boolean | undefined;
  order?: number | undefined;
}

function toPageAdminOutput(row: typeof page.$inferSelect): PageAdminOutput {
  return {
    page_id: row.page_id,
    slug: row.slug,
    title: row.title,
    content: row.content,
    required: row.required,
    version: row.version,
    order: row.order,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

async function slugGuard<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (isUniqueViolation(error, 'page_slug_key')) throw new DomainError('page/slug-taken');
    throw error;
  }
}

/** Creates an information page. HTML content is stored as given; the portal sanitizes before rendering. */
export async function createPage(db: Db, fields: PageFields): Promise<PageAdminOutput> {
  return slugGuard(async () => {
    const [row] = await db
      .insert(page)
      .values({ ...definedOnly(fields), slug: fields.slug, title: fields.title, content: fields.content ?? null })
      .returning();
    if (!row) throw new Error('page insert returned nothing');
    return toPageAdminOutput(row);
  });
}

/**
 * Updates the sent fields of a page; 404 'page/not-found' when there is none. `newVersion` publishes the text as the
 * page's next version: a required page is then pending for everyone who accepted an earlier one (decision 122).
 */
export async function updatePage(db: Db, pageId: number, changes: Partial<PageFields>, options: { newVersion?: boolean | undefined } = {}): Promise<PageAdminOutput> {
  return slugGuard(async () => {
    const [row] = await db
      .update(page)
      .set({ ...definedOnly(changes), ...(options.newVersion ? { version: sql`${page.version} + 1` } : {}), updatedAt: new Date() })
      .where(eq(page.page_id, pageId))
      .returning();
    if (!row) throw new DomainError('page/not-found');
    return toPageAdminOutput(row);
  });
}

/**
 * What deleting the page would do (core's pageRemoval): refused while it is
 * required or any customer accepted it. `lock` takes the page row first, for
 * the delete itself. The admin's dialog reads the same verdict beforehand.
 */
export async function pageRemovalVerdict(db: Db, pageId: number, lock = false): Promise<RemovalVerdict> {
  const rows = db.select({ required: page.required }).from(page).where(eq(page.page_id, pageId));
  const [row] = await (lock ? rows.for('update') : rows);
  if (!row) throw new DomainError('page/not-found');
  const [accepted] = await db.select({ n: count() }).from(accepted_page).where(eq(accepted_page.page_id, pageId));
  return pageRemoval(row.required, Number(accepted?.n ?? 0));
}

/**
 * Deletes a page nobody relies on. A required page, or one any customer
 * accepted, is refused with 409 'page/in-use': the acceptances are the
 * customers' consent on record and would go with the page (the foreign key
 * cascades), so the admin unmarks it or empties it instead (decision 014).
 * The page row is locked first, so an acceptance in flight either counts or
 * finds the page gone.
 */
export async function removePage(db: Db, pageId: number): Promise<RemovedOutput> {
  return db.transaction(async (tx) => {
    const verdict = await pageRemovalVerdict(tx, pageId, true);
    if (verdict.outcome === 'refuse') throw new DomainError('page/in-use', verdict.message);
    await tx.delete(page).where(eq(page.page_id, pageId));
    return { deleted: true as const, id: pageId };
  });
}
