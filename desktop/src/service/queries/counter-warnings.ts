import { asc, eq, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { Db } from '@estudio/db';
import { class_reservation_penalty, page } from '@estudio/db';
import { activePenalty, formatDate, missingProfileFields, texts, type ProfileFields, type RequiredProfileField } from '@estudio/core';
import { replicaTimeZone } from '../time.ts';

/** A required document (page) the customer has not accepted, with what staff show at the counter. */
export interface PendingDocument {
  page_id: number;
  title: string;
  /** The page's HTML as the studio wrote it; null: 'Sin contenido.'. */
  content: string | null;
  /** The version of that text: the one recorded when she accepts it here. */
  version: number;
}

/** What to look twice at before booking or checking in a customer (decision 018). */
export interface CounterWarnings {
  /** Required pages not accepted (the spec: required pages must be accepted before booking or buying). */
  pendingDocuments: PendingDocument[];
  /** Empty required profile fields (core's requiredProfileFields: name, last_name, phone, birthdate). */
  missingProfile: RequiredProfileField[];
  /** The box's title, naming what is missing (documents, profile or both); null when nothing is. */
  title: string | null;
  /** An active penalty, said before staff try to book (the booking would be refused); null without one. */
  penalty: string | null;
  /** The active penalty's id, for an administrator to lift it with a reason; null without one. */
  penaltyId: number | null;
}

/** 'Documentos sin aceptar' only when documents are missing: a customer who accepted everything reads 'Perfil incompleto'. */
export function counterWarningsTitle(documents: boolean, profile: boolean): string | null {
  const t = texts.deskShift;
  if (documents && profile) return t.documentsAndProfileTitle;
  if (documents) return t.documentsPendingTitle;
  return profile ? t.profileIncompleteTitle : null;
}

/** The studio's required pages, in the footer's order, with their text: what a first-time walk-in accepts at the counter. */
export async function requiredPages(db: Db): Promise<{ page_id: number; title: string; slug: string; content: string | null }[]> {
  return db
    .select({ page_id: page.page_id, title: page.title, slug: page.slug, content: page.content })
    .from(page)
    .where(eq(page.required, true))
    .orderBy(asc(page.order), asc(page.page_id));
}

/**
 * The required pages the customer has not accepted at their current version (decision 122), in the footer's order,
 * as one SQL value: the card's warnings and the scan read it in their own statements. A page accepted twice in the replica (an optimistic row and the
 * server's) counts as accepted.
 */
export function pendingPagesSql(customerId: SQL | AnyColumn): SQL<PendingDocument[]> {
  return sql<PendingDocument[]>`(select coalesce(json_agg(json_build_object('page_id', p.page_id, 'title', p.title, 'content', p.content, 'version', p.version)
      order by p."order", p.page_id), '[]'::json)
    from page p where p.required
      and not exists (select 1 from accepted_page a where a.page_id = p.page_id and a.version = p.version and a.customer_id = ${customerId}))`;
}

/** Reads the replica: the required pages without an acceptance of this customer, and the profile's missing fields. */
export async function counterWarnings(db: Db, customerId: number, now: Date = new Date()): Promise<CounterWarnings> {
  const [[row], penalties] = await Promise.all([
    db
      .select({ pending: pendingPagesSql(sql`${customerId}`), who: sql<ProfileFields | null>`(
        select json_build_object('name', c.name, 'last_name', c.last_name, 'phone', c.phone, 'birthdate', c.birthdate)
        from customer c where c.customer_id = ${customerId} and c.deleted_at is null limit 1)` })
      .from(sql`(select 1) as one`),
    db.select().from(class_reservation_penalty).where(eq(class_reservation_penalty.customer_id, customerId)),
  ]);
  const pendingDocuments = row?.pending ?? [];
  const missingProfile = row?.who ? missingProfileFields(row.who) : [];
  const active = activePenalty(penalties, now);
  const penalty = active ? texts.deskShift.warningPenalty(active.no_shows, formatDate(active.end_date, await replicaTimeZone(db))) : null;
  return {
    pendingDocuments,
    missingProfile,
    title: counterWarningsTitle(pendingDocuments.length > 0, missingProfile.length > 0),
    penalty,
    penaltyId: active?.class_reservation_penalty_id ?? null,
  };
}
