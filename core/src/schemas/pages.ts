import { maxInt4, z } from '../zod.ts';

export const pageOutput = z.object({
  page_id: z.number(),
  slug: z.string(),
  title: z.string(),
  /** HTML; null shows 'Sin contenido.'. */
  content: z.string().nullable(),
  required: z.boolean(),
  /** The text's version; a required page is accepted again when it goes up (decision 122). */
  version: z.number(),
});
export type PageOutput = z.infer<typeof pageOutput>;

export const pagesListOutput = z.object({ pages: z.array(pageOutput) });

export const pageBySlugInput = z.object({ slug: z.string().trim().min(1).max(200) });
export const pageBySlugOutput = z.object({ page: pageOutput });

export const acceptedPageOutput = z.object({
  accepted_page_id: z.number(),
  page_id: z.number(),
  customer_id: z.number(),
  /** The page's version she accepted: one row per version. */
  version: z.number(),
  createdAt: z.string(),
});
export type AcceptedPageOutput = z.infer<typeof acceptedPageOutput>;

export const acceptedPagesListOutput = z.object({ accepted_pages: z.array(acceptedPageOutput) });

/** POST /api/accepted_pages: the spec sends customer_id too; it must be the caller's own. */
export const acceptPageInput = z.object({
  page_id: z.number().int().positive().max(maxInt4),
  customer_id: z.number().int().positive().max(maxInt4).optional(),
  /** The version she read: a newer one published meanwhile is a 409 (page/new-version), never accepted unread. */
  version: z.number().int().positive().max(maxInt4).optional(),
});
export const acceptPageOutput = z.object({ accepted_page: acceptedPageOutput });
