import { eq } from 'drizzle-orm';
import { page } from '@estudio/db/schema/content';
import { DomainError, type PageAdminOutput, type RemovedOutput } from '@estudio/core';
import { isUniqueViolation, type Db } from '../../db.ts';
import { definedOnly, removeOrInUse } from '../content/removed.ts';

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

/** Updates the sent fields of a page; 404 'page/not-found' when there is none. */
export async function updatePage(db: Db, pageId: number, changes: Partial<PageFields>): Promise<PageAdminOutput> {
  return slugGuard(async () => {
    const [row] = await db
      .update(page)
      .set({ ...definedOnly(changes), updatedAt: new Date() })
      .where(eq(page.page_id, pageId))
      .returning();
    if (!row) throw new DomainError('page/not-found');
    return toPageAdminOutput(row);
  });
}

/** Deletes a page and, by cascade, its acceptances. */
export async function removePage(db: Db, pageId: number): Promise<RemovedOutput> {
  return removeOrInUse(async () => {
    const [row] = await db.delete(page).where(eq(page.page_id, pageId)).returning({ id: page.page_id });
    return row?.id;
  }, new DomainError('page/not-found'));
}
