import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '@estudio/db';
import { accepted_page, class_reservation_penalty, customer, page } from '@estudio/db';
import { activePenalty, formatDate, missingProfileFields, texts, type RequiredProfileField } from '@estudio/core';
import { replicaTimeZone } from '../time.ts';

/** A required document (page) the customer has not accepted, with what staff show at the counter. */
export interface PendingDocument {
  page_id: number;
  title: string;
  /** The page's HTML as the studio wrote it; null: 'Sin contenido.'. */
  content: string | null;
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

/** Reads the replica: the required pages without an acceptance of this customer, and the profile's missing fields. */
export async function counterWarnings(db: Db, customerId: number, now: Date = new Date()): Promise<CounterWarnings> {
  const [who] = await db
    .select({ name: customer.name, last_name: customer.last_name, phone: customer.phone, birthdate: customer.birthdate })
    .from(customer)
    .where(and(eq(customer.customer_id, customerId), isNull(customer.deletedAt)))
    .limit(1);
  const rows = await db
    .select({ page_id: page.page_id, title: page.title, content: page.content, accepted: accepted_page.accepted_page_id })
    .from(page)
    .leftJoin(accepted_page, and(eq(accepted_page.page_id, page.page_id), eq(accepted_page.customer_id, customerId)))
    .where(eq(page.required, true))
    .orderBy(asc(page.order), asc(page.page_id));
  // A page accepted twice in the replica (an optimistic row and the server's) shows once.
  const pending = rows.filter((r) => r.accepted === null && !rows.some((o) => o.page_id === r.page_id && o.accepted !== null));
  const pendingDocuments = pending.filter((r, i) => pending.findIndex((o) => o.page_id === r.page_id) === i).map(({ page_id, title, content }) => ({ page_id, title, content }));
  const missingProfile = who ? missingProfileFields(who) : [];
  const penalties = await db.select().from(class_reservation_penalty).where(eq(class_reservation_penalty.customer_id, customerId));
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
