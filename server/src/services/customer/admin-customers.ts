import { and, asc, count, eq, inArray, isNotNull, isNull, max, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { customer } from '@estudio/db/schema/customer';
import { invoice, purchase } from '@estudio/db/schema/purchases';
import { customerEditRefusal, customerFieldLabels, customerSearchCountCap, DomainError, fromCents, toCents, type AdminCustomerRow, type Role, type z, type adminCustomerOneOutput } from '@estudio/core';
import { auth_user } from '@estudio/db/schema/identity';
import { isUniqueViolation, type Db } from '../../db.ts';
import { emailTakenByOther } from '../auth/request-email-change.ts';
import { revokeSessions } from '../auth/revoke-sessions.ts';
import { recordAudit } from '../audit/record-audit.ts';
import type { IdentityProvider } from '../auth/identity-provider.ts';
import { containsPattern, offsetOf } from '../content/search.ts';
import { listCredits } from '../credits/list-credits.ts';
import { loadPurchases } from '../purchases/purchase-output.ts';
import { toCustomerProfileOutput } from './customer-output.ts';
import type { CustomerRow } from './find-customer.ts';
import { updateCustomer, type CustomerProfileChanges } from './update-customer.ts';
import { customerTrigramStatistics, indexPiece, type TrigramStatistics } from './search-trigrams.ts';

const rowColumns = {
  customer_id: customer.customer_id,
  name: customer.name,
  last_name: customer.last_name,
  email: customer.email,
  phone: customer.phone,
  birthdate: customer.birthdate,
  role: customer.role,
  has_unlimited: customer.has_unlimited,
  createdAt: customer.createdAt,
};

/**
 * Name, last name, "name last name", e-mail or phone containing the text,
 * accents and case ignored ('lopez' finds López, as on the desk: core's
 * `searchKey`); the phone also matches the digits alone, so '(55) 1234' finds
 * 551234…. The customer's `search_text` holds those parts folded, one per line
 * (decision 058), so a match never runs from one part into the next and each
 * row costs one plain comparison; `customer_search_idx` (trigrams) finds the
 * candidates. Spaces in the query count as one.
 *
 * With the trigram statistics of the studio's customers (search-trigrams.ts,
 * decision 062), the index is asked for the piece of the text that leaves out
 * the trigrams most customers have, and the whole text is compared on the rows
 * it finds with `strpos`, which the index cannot answer, so pg_trgm does not
 * look the common trigrams up after all. Any piece of the text is in every
 * text that has the whole, so the rows are the same.
 */
export function matching(query: string | undefined, statistics?: TrigramStatistics): SQL | undefined {
  const text = query?.trim().replace(/\s+/g, ' ');
  if (!text) return undefined;
  const digits = text.replace(/\D/g, '');
  const piece = statistics && indexPiece(text, statistics);
  return or(
    piece
      ? and(
          sql`${customer.search_text} like search_fold(${containsPattern([...text].slice(piece.start, piece.end).join(''))})`,
          sql`strpos(${customer.search_text}, search_fold(${text})) > 0`,
        )
      : sql`${customer.search_text} like search_fold(${containsPattern(text)})`,
    // The phone is the third line: two line breaks before the digits keep them out of the e-mail.
    digits.length >= 3 && digits !== text ? sql`${customer.search_text} like ${`%\n%\n%${digits}%`}` : undefined,
  );
}

/**
 * By "name last name" as people read it: the search text's first line, folded,
 * so 'Álvarez' sorts with the a's (bytes would put it after 'Zúñiga'); then the
 * e-mail, the phone and the id. `customer_search_order_idx` walks it (pageByName).
 */
const byName = [asc(customer.search_text), asc(customer.customer_id)];

/**
 * A page of live customers matching `where` by name (byName): the page's ids
 * walked in name order, then their rows by key. customer_search_order_idx
 * holds the live customers' search text, so the walk filters the index's own
 * entries without reading a row (an index-only scan), and only the page's
 * rows are read: a common name walks thousands of names (decision 061).
 */
function pageByName(db: Db, where: SQL | undefined, limit: number, offset: number) {
  const page = db
    .select({ id: customer.customer_id, key: customer.search_text })
    .from(customer)
    .where(and(isNull(customer.deletedAt), where))
    .orderBy(...byName)
    .limit(limit)
    .offset(offset)
    .as('page');
  return { page, rows: eq(customer.customer_id, page.id), order: [asc(page.key), asc(page.id)] };
}

const toRow = (r: Omit<AdminCustomerRow, 'createdAt'> & { createdAt: Date }): AdminCustomerRow => ({ ...r, createdAt: r.createdAt.toISOString() });

/**
 * GET /customer/admin/all: a page of live customers by name (byName), and how many there are.
 * - Without a search, every customer is counted, in the page's own statement (a subquery run once beside it).
 * - A search counts at most customerSearchCountCap + 1 matches (decision 058): a common last name matches a
 *   thirtieth of the customers, and counting them all grew with the studio. The page itself is the true page by
 *   name; past the cap the desk says 'más de 100' and asks for more letters (searchAdminCustomers).
 */
export async function listAdminCustomers(db: Db, input: { query?: string | undefined; page: number; limit: number }) {
  const search = input.query?.trim() ? matching(input.query, await customerTrigramStatistics(db)) : undefined;
  if (search) return searchAdminCustomers(db, search, input.limit, offsetOf(input));
  const counted = sql<number>`(select count(*) from ${customer} where ${isNull(customer.deletedAt)})`.mapWith(Number);
  const { page, rows: ofPage, order } = pageByName(db, undefined, input.limit, offsetOf(input));
  const rows = await db
    .select({ ...rowColumns, counted })
    .from(page)
    .innerJoin(customer, ofPage)
    .orderBy(...order);
  // A page past the end has no row to carry the count: asked on its own.
  const total = rows[0]?.counted ?? (await db.select({ n: counted }).from(sql`(values (1)) as one (x)`))[0]?.n ?? 0;
  return { customers: rows.map(({ counted: _counted, ...row }) => toRow(row)), total, total_capped: false };
}

/**
 * A search's page (decisions 058, 061): its matches first, up to customerSearchCountCap + 1, in one read (the
 * trigram index for a rare text, a short walk for a common one), which is also the count. While they are all there
 * (the cap not passed), the page is sorted from them alone; past the cap, it walks the name order (pageByName).
 * The matches are looked up once: a piece of an e-mail reads trigram lists as long as the studio (every address
 * shares '@gmail.com'), and the count and the page read them twice when they were one statement.
 */
async function searchAdminCustomers(db: Db, search: SQL, limit: number, offset: number) {
  const live = and(isNull(customer.deletedAt), search);
  const found = await db.select({ id: customer.customer_id }).from(customer).where(live).limit(customerSearchCountCap + 1);
  const capped = found.length > customerSearchCountCap;
  const rows = capped
    ? await readPage(db, search, limit, offset)
    : found.length > offset
      ? await db
          .select(rowColumns)
          .from(customer)
          .where(and(isNull(customer.deletedAt), inArray(customer.customer_id, found.map((f) => f.id))))
          .orderBy(...byName)
          .limit(limit)
          .offset(offset)
      : [];
  return { customers: rows.map(toRow), total: capped ? customerSearchCountCap : found.length, total_capped: capped };
}

/** A page by name of the live customers `search` matches, walked (pageByName); exported for its plan's test. */
export function readPage(db: Db, search: SQL | undefined, limit: number, offset: number) {
  const { page, rows: ofPage, order } = pageByName(db, search, limit, offset);
  return db
    .select(rowColumns)
    .from(page)
    .innerJoin(customer, ofPage)
    .orderBy(...order);
}

/** The list rows of these customers (live or not), by id: for lists that name customers found another way (a report). */
export async function adminCustomerRowsOf(db: Db, ids: readonly number[]): Promise<Map<number, AdminCustomerRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.select(rowColumns).from(customer).where(inArray(customer.customer_id, [...ids]));
  return new Map(rows.map((r) => [r.customer_id, toRow(r)]));
}

/** GET /customer/query: the first 10 matches by name (byName), for pickers (give access, reservations). */
export async function queryCustomers(db: Db, query: string): Promise<AdminCustomerRow[]> {
  return (await readPage(db, matching(query, await customerTrigramStatistics(db)), 10, 0)).map(toRow);
}

async function findLiveCustomer(db: Db, id: number): Promise<CustomerRow> {
  const [row] = await db
    .select()
    .from(customer)
    .where(and(eq(customer.customer_id, id), isNull(customer.deletedAt)))
    .limit(1);
  if (!row) throw new DomainError('customer/unknown');
  return row;
}

/** GET /customer/admin/{id}: the profile, the usable credits and membership, every purchase and their totals. */
export async function getAdminCustomer(db: Db, id: number, now: Date = new Date()): Promise<z.infer<typeof adminCustomerOneOutput>> {
  const row = await findLiveCustomer(db, id);
  const [profile, credits, purchases, [summary], [paid], [kept]] = await Promise.all([
    toCustomerProfileOutput(db, row),
    listCredits(db, id, { now }),
    loadPurchases(db, eq(purchase.customer_id, id), now),
    db
      .select({
        total: count(),
        active: sql<number>`count(*) filter (where ${purchase.status} = 'active')`.mapWith(Number),
        last: max(purchase.createdAt),
      })
      .from(purchase)
      .where(eq(purchase.customer_id, id)),
    db
      .select({ sum: sql<string | null>`sum(${purchase.total_payment})` })
      .from(purchase)
      .where(and(eq(purchase.customer_id, id), isNotNull(purchase.paidAt), inArray(purchase.status, ['active', 'completed']))),
    // Of a refunded purchase (its access ended), what did not go back; one refund invoice per purchase.
    db
      .select({ sum: sql<string | null>`sum(${purchase.total_payment} - ${invoice.total_payment})` })
      .from(purchase)
      .innerJoin(invoice, and(eq(invoice.purchase_id, purchase.purchase_id), eq(invoice.status, 'refunded')))
      .where(and(eq(purchase.customer_id, id), notInArray(purchase.status, ['active', 'completed']))),
  ]);
  return {
    customer: profile,
    credits,
    purchases,
    purchases_summary: {
      total: summary?.total ?? 0,
      active: summary?.active ?? 0,
      total_paid: fromCents(toCents(paid?.sum ?? '0') + toCents(kept?.sum ?? '0')),
      last_purchase_at: summary?.last ? new Date(summary.last).toISOString() : null,
    },
  };
}

export interface AdminCustomerChanges extends CustomerProfileChanges {
  role?: Role | undefined;
  email?: string | undefined;
}

/**
 * PUT /customer as staff: another customer's profile (same rules as the
 * customer's own save: phone format and uniqueness, own address and image)
 * and, for an admin, its role and any e-mail. What Recepción may change is
 * core's rule (customerEditRefusal, decision 107); the field it may not is
 * named in the refusal. An admin cannot change its own role, so the studio
 * never loses its last admin by a slip. Audited in the transaction of the change.
 */
export async function staffUpdateCustomer(
  db: Db,
  actor: { customerId: number; role: Role },
  customerId: number,
  changes: AdminCustomerChanges,
  authProvider: 'local' | 'firebase' = 'local',
): Promise<CustomerRow> {
  const actorId = actor.customerId;
  const { role, email, ...profile } = changes;
  return db.transaction(async (tx) => {
    const before = await findLiveCustomer(tx, customerId);
    // The e-mail sent back as it is stored is no change (a form sends every field it shows).
    const sameEmail = email !== undefined && email.trim().toLowerCase() === before.email.toLowerCase();
    const changed = Object.entries(changes).flatMap(([key, value]) => (value === undefined || (key === 'email' && sameEmail) ? [] : [key]));
    const refused = customerEditRefusal(actor.role, changed, { hasSignIn: before.uid !== null, role: before.role });
    if (refused === 'role' && before.role !== 'customer') throw new DomainError('customer/staff-account');
    if (refused !== null) {
      throw new DomainError('customer/field-admin-only', `Recepción no puede cambiar «${customerFieldLabels[refused] ?? refused}» de un cliente; pídeselo a un administrador.`);
    }
    if (email !== undefined && email !== before.email) await moveCustomerEmail(tx, before, email, authProvider);
    let row = await updateCustomer(tx, customerId, profile);
    if (role !== undefined && role !== before.role) {
      if (customerId === actorId) throw new DomainError('customer/own-role');
      const [updated] = await tx.update(customer).set({ role, updatedAt: new Date() }).where(eq(customer.customer_id, customerId)).returning();
      if (updated) row = updated;
    }
    await recordAudit(tx, {
      actorId,
      action: 'update',
      entity: 'customer',
      entityId: customerId,
      changes: {
        ...changes,
        // The answers' keys only: a health answer is not copied into the activity log (decision 087).
        ...(changes.custom_fields !== undefined ? { custom_fields: Object.keys(changes.custom_fields) } : {}),
        ...(email !== undefined && email !== before.email ? { email: { from: before.email, to: email } } : {}),
      },
    });
    // A role change gets its own row, after the edit's, so Actividad lists it first and by kind (decision 037).
    if (role !== undefined && role !== before.role) {
      await recordAudit(tx, { actorId, action: 'role.change', entity: 'customer', entityId: customerId, changes: { from: before.role, to: role } });
    }
    return row;
  });
}

/**
 * An admin moves a customer to a new e-mail with the rules of a
 * confirmed e-mail change (confirmEmailChange): the e-mail must be free among
 * identities and customers, the sign-in and the customer move together, and
 * every session of the account ends (its tokens carry the old e-mail). Under
 * Firebase the identity lives there: refused, as the customer's own change is.
 */
async function moveCustomerEmail(tx: Db, before: CustomerRow, email: string, authProvider: 'local' | 'firebase'): Promise<void> {
  if (before.uid && authProvider === 'firebase') throw new DomainError('auth/operation-not-allowed');
  const taken = before.uid
    ? await emailTakenByOther(tx, before.uid, email)
    : (await tx.select({ id: customer.customer_id }).from(customer).where(eq(customer.email, email)).limit(1)).length > 0 ||
      (await tx.select({ uid: auth_user.uid }).from(auth_user).where(eq(auth_user.email, email)).limit(1)).length > 0;
  if (taken) throw new DomainError('customer/email-taken');
  try {
    await tx.update(customer).set({ email, updatedAt: new Date() }).where(eq(customer.customer_id, before.customer_id));
    if (before.uid) {
      await tx.update(auth_user).set({ email }).where(eq(auth_user.uid, before.uid));
      await revokeSessions(tx, before.uid);
    }
  } catch (error) {
    // Another account taking the e-mail at the same moment: the unique indexes decide.
    if (isUniqueViolation(error)) throw new DomainError('customer/email-taken');
    throw error;
  }
}

/**
 * POST /customer/recover: the admin sends a customer the password-recovery
 * e-mail through the identity provider (the local provider writes it to the
 * outbox), audited in the same transaction. An e-mail without a customer is 404.
 */
export async function sendCustomerRecovery(db: Db, identity: IdentityProvider, actorId: number, email: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select({ customer_id: customer.customer_id, email: customer.email })
      .from(customer)
      .where(and(eq(customer.email, email), isNull(customer.deletedAt)))
      .limit(1);
    if (!row) throw new DomainError('customer/unknown');
    await identity.recover(tx, row.email);
    await recordAudit(tx, { actorId, action: 'recover', entity: 'customer', entityId: row.customer_id, changes: { email: row.email } });
  });
}
