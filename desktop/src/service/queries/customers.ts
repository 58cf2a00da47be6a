import { and, asc, desc, eq, gte, isNull, lt, sql } from 'drizzle-orm';
import { usableCredit, type Db } from '@estudio/db';
import { loadReplicaSettings } from '@estudio/sync/client/mutators';
import {
  available_classes,
  class_package,
  class_reservation,
  class_reservation_penalty,
  class_type,
  customer,
  location,
  payment_method,
  product,
  purchase,
  single_class,
} from '@estudio/db';
import { allowedTypos, DomainError, effectivePriceCents, fromCents, nextChargeDate, phoneSearchSuffixes, searchKey, searchWords, typosToReach } from '@estudio/core';
import { iso, replicaTimeZone, studioDay } from '../time.ts';

export interface CustomerHit {
  customer_id: number;
  name: string;
  last_name: string;
  email: string;
  phone: string | null;
  role: string;
  has_unlimited: boolean;
  /** Found with a slip forgiven ('Ramires' for Ramírez): listed after every exact match. */
  spelled_like?: true;
}

/**
 * The desk's search: what staff type is matched in memory, over
 * an index of every customer in the replica kept in step by triggers, not by
 * a query per keystroke. PostgreSQL's plan for "the first 20 by name among
 * those with a word starting 'so'" walks the name order when matches are
 * common and the word index when rare, and guessed wrong for real names
 * (600 ms for 'so' over 20,000; decision 020); a scan of 20,000 short
 * strings in memory takes about a millisecond whatever is typed.
 *
 * `desk.customer_search` has one row per customer written since the index was
 * last read, with a number from `desk.customer_search_seq`; statement
 * triggers on `customer` write it in the same transaction as the change (the
 * sync client, the optimistic mutators, a rollback of them). Each search asks
 * for the rows past the last number it read (one tiny query) and reloads
 * just those customers; a TRUNCATE (a new snapshot) moves
 * `desk.customer_search_epoch`, and the index is read again whole. PGlite
 * runs one transaction at a time, so numbers commit in order and none is
 * passed over.
 */
export async function ensureSearchIndexes(db: Db): Promise<void> {
  // The btree indexes the search used before; nothing reads them now, and every write paid for them.
  // customer_search_idx and customer_search_order_idx are the server's search (decisions 047, 058; created by the
  // shared migrations, on a column a replica keeps null): the desk searches in memory.
  for (const old of [
    'desk_customer_name_idx',
    'desk_customer_last_name_idx',
    'desk_customer_full_name_idx',
    'desk_customer_email_idx',
    'desk_customer_phone_idx',
    'customer_search_idx',
    'customer_search_order_idx',
  ]) {
    await db.execute(sql.raw(`drop index if exists ${old}`));
  }
  // The trigram shares the server's search reads (decision 062): a replica keeps search_text null.
  await db.execute(sql.raw(`drop statistics if exists customer_search_trigrams`));
  await db.execute(sql.raw(`create sequence if not exists desk.customer_search_seq`));
  await db.execute(sql.raw(`create sequence if not exists desk.customer_search_epoch`));
  await db.execute(sql.raw(`create table if not exists desk.customer_search (customer_id integer primary key, seq bigint not null)`));
  await db.execute(sql.raw(`create index if not exists desk_customer_search_seq_idx on desk.customer_search (seq)`));
  await db.execute(
    sql.raw(`create or replace function desk.customer_search_touch() returns trigger language plpgsql as $$
      begin
        if tg_op = 'TRUNCATE' then
          truncate desk.customer_search;
          perform nextval('desk.customer_search_epoch');
        else
          insert into desk.customer_search (customer_id, seq)
          select customer_id, nextval('desk.customer_search_seq') from changed
          on conflict (customer_id) do update set seq = excluded.seq;
        end if;
        return null;
      end $$`),
  );
  const triggers = [
    ['desk_customer_search_insert', 'after insert on customer referencing new table as changed for each statement'],
    ['desk_customer_search_update', 'after update on customer referencing new table as changed for each statement'],
    ['desk_customer_search_delete', 'after delete on customer referencing old table as changed for each statement'],
    ['desk_customer_search_truncate', 'after truncate on customer for each statement'],
  ];
  for (const [name, when] of triggers) {
    await db.execute(sql.raw(`drop trigger if exists ${name} on customer`));
    await db.execute(sql.raw(`create trigger ${name} ${when} execute function desk.customer_search_touch()`));
  }
}

interface IndexedCustomer {
  hit: CustomerHit;
  /** ' word word …': the words of name, surnames and e-mail (core's `searchWords`) and the phone's digit suffixes. */
  text: string;
  sortKey: string;
}

interface SearchIndex {
  epoch: number;
  seq: number;
  byId: Map<number, IndexedCustomer>;
  /** By name: the customers, their texts joined by newlines (one native `indexOf` walks them all), where each starts. */
  sorted: ByName | null;
  loading: Promise<void> | null;
}

interface ByName {
  entries: IndexedCustomer[];
  haystack: string;
  starts: number[];
  /** Each distinct word of letters, with the places (in name order) of the customers who have it; made at the first search with a slip. */
  words?: Map<string, number[]>;
}

const indexes = new WeakMap<Db, SearchIndex>();

function byName(all: IndexedCustomer[]): ByName {
  const entries = all.sort((a, b) => (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : a.hit.customer_id - b.hit.customer_id));
  const starts: number[] = [];
  let offset = 0;
  for (const e of entries) {
    starts.push(offset);
    offset += e.text.length + 1;
  }
  return { entries, haystack: entries.map((e) => e.text).join('\n'), starts };
}

const hitColumns = {
  customer_id: customer.customer_id,
  name: customer.name,
  last_name: customer.last_name,
  email: customer.email,
  phone: customer.phone,
  role: customer.role,
  has_unlimited: customer.has_unlimited,
  deletedAt: customer.deletedAt,
};

function indexed(row: CustomerHit): IndexedCustomer {
  const words = [...searchWords(`${row.name} ${row.last_name} ${row.email}`), ...phoneSearchSuffixes(row.phone ?? '')];
  return { hit: row, text: ` ${words.join(' ')}`, sortKey: `${searchKey(row.name)}\u0000${searchKey(row.last_name)}` };
}

async function counters(db: Db): Promise<{ epoch: number; seq: number }> {
  const result = (await db.execute(
    sql.raw(`select (select last_value + (case when is_called then 0 else -1 end) from desk.customer_search_epoch) as epoch,
      (select last_value + (case when is_called then 0 else -1 end) from desk.customer_search_seq) as seq`),
  )) as unknown as { rows: { epoch: string | number; seq: string | number }[] };
  const row = result.rows[0];
  return { epoch: Number(row?.epoch ?? 0), seq: Number(row?.seq ?? 0) };
}

/** Brings the in-memory index up to the replica: whole after a new snapshot, else the customers written since. */
async function refresh(db: Db, index: SearchIndex): Promise<void> {
  const now = await counters(db);
  if (now.epoch === index.epoch && now.seq === index.seq) return;
  if (now.epoch !== index.epoch) {
    const rows = await db.select(hitColumns).from(customer);
    index.byId = new Map(rows.flatMap(({ deletedAt, ...row }) => (deletedAt ? [] : [[row.customer_id, indexed(row)] as const])));
  } else {
    const changed = (await db.execute(
      sql`select s.customer_id as id, c.name, c.last_name, c.email, c.phone, c.role, c.has_unlimited, c.deleted_at
        from desk.customer_search s left join ${customer} c on c.customer_id = s.customer_id where s.seq > ${index.seq}`,
    )) as unknown as { rows: (Omit<CustomerHit, 'customer_id'> & { id: number; name: string | null; deleted_at: unknown })[] };
    for (const { id, deleted_at, ...row } of changed.rows) {
      if (row.name === null || deleted_at !== null) index.byId.delete(Number(id));
      else index.byId.set(Number(id), indexed({ ...row, name: row.name, customer_id: Number(id) }));
    }
  }
  index.epoch = now.epoch;
  index.seq = now.seq;
  index.sorted = null;
}

/** The index brought up to the replica, one refresh at a time (a search arriving meanwhile waits for it, then checks again). */
async function upToDate(db: Db): Promise<NonNullable<SearchIndex['sorted']>> {
  let index = indexes.get(db);
  if (!index) indexes.set(db, (index = { epoch: -1, seq: -1, byId: new Map(), sorted: null, loading: null }));
  while (index.loading) await index.loading;
  const loading = refresh(db, index).finally(() => {
    if (index) index.loading = null;
  });
  index.loading = loading;
  await loading;
  return (index.sorted ??= byName([...index.byId.values()]));
}

/** Reads changed customers into the search index now (after a sync), so the next keystroke does not wait for it. */
export async function warmCustomerSearch(db: Db): Promise<void> {
  await upToDate(db);
}

/**
 * Customers who have every word staff typed, each as the start of a word of
 * their name, surnames or e-mail, or of a run of their phone's digits
 * (accents and case do not count: core's `searchWords`), by name.
 * 'sofia ramirez' finds Sofía Ramírez; '9666' the phone ending 9666. When
 * fewer than `limit` match, those a slip or two away follow ('Ramires',
 * 'Marina Lopes'), marked `spelled_like`.
 */
export async function searchCustomers(db: Db, q: string, limit = 20): Promise<CustomerHit[]> {
  const typed = [...new Set(searchWords(q))];
  const words = typed.map((w) => ` ${w}`);
  if (!words.length) return [];
  const sorted = await upToDate(db);
  // The longest word is the rarest: find it in the joined texts (in name order), then check the others on that customer.
  const [first, ...others] = [...words].sort((a, b) => b.length - a.length) as [string, ...string[]];
  const { entries, haystack, starts } = sorted;
  const hits: CustomerHit[] = [];
  const found = new Set<number>();
  let at = haystack.indexOf(first);
  while (at !== -1 && hits.length < limit) {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    const entry = entries[lo] as IndexedCustomer;
    if (others.every((w) => entry.text.includes(w))) {
      hits.push({ ...entry.hit });
      found.add(lo);
    }
    at = lo + 1 < starts.length ? haystack.indexOf(first, starts[lo + 1]) : -1;
  }
  if (hits.length < limit) hits.push(...spelledLike(sorted, typed, found, limit - hits.length));
  return hits;
}

/**
 * Customers each typed word reaches with the slips core's `typosToReach` forgives (a word of digits, a phone, must
 * be exact), fewest slips first, then by name; `found` are the exact matches already listed. The rarest word's
 * candidates come from the distinct words; the other words are checked on those customers only.
 */
function spelledLike(sorted: ByName, typed: string[], found: Set<number>, limit: number): CustomerHit[] {
  if (!typed.some((w) => /^[a-z]+$/.test(w) && allowedTypos(w.length) > 0)) return [];
  const vocabulary = (sorted.words ??= wordsOf(sorted.entries));
  const lettersOnly = new Set(typed.filter((w) => /^[a-z]+$/.test(w)));
  const reach = (word: string, candidate: string): number | null => (candidate.startsWith(word) ? 0 : lettersOnly.has(word) ? typosToReach(word, candidate) : null);
  const [first, ...others] = [...typed].sort((a, b) => b.length - a.length) as [string, ...string[]];
  const slips = new Map<number, number>();
  for (const [word, places] of vocabulary) {
    const d = reach(first, word);
    if (d === null) continue;
    for (const place of places) if (!found.has(place) && (slips.get(place) ?? Infinity) > d) slips.set(place, d);
  }
  const near: { place: number; slips: number }[] = [];
  for (const [place, firstSlips] of slips) {
    const own = (sorted.entries[place] as IndexedCustomer).text.split(' ');
    let total = firstSlips;
    for (const word of others) {
      let best: number | null = null;
      for (const candidate of own) {
        const d = candidate ? reach(word, candidate) : null;
        if (d !== null && (best === null || d < best)) best = d;
        if (best === 0) break;
      }
      if (best === null) {
        total = -1;
        break;
      }
      total += best;
    }
    if (total > 0) near.push({ place, slips: total });
  }
  near.sort((a, b) => a.slips - b.slips || a.place - b.place);
  return near.slice(0, limit).map(({ place }) => ({ ...(sorted.entries[place] as IndexedCustomer).hit, spelled_like: true }));
}

function wordsOf(entries: IndexedCustomer[]): Map<string, number[]> {
  const words = new Map<string, number[]>();
  entries.forEach((entry, place) => {
    for (const word of entry.text.split(' ')) {
      if (!word || !/^[a-z]/.test(word)) continue;
      const places = words.get(word);
      if (!places) words.set(word, [place]);
      else if (places.at(-1) !== place) places.push(place);
    }
  });
  return words;
}

export interface CustomerCard {
  customer: CustomerHit & { instagram: string | null; birthdate: string | null; createdAt: string };
  unlimited: { active: boolean; expiresAt: string | null };
  credits: { available_class_id: number; available_classes: number; class_type: string | null; expiration_date: string | null; purchase_id: number | null }[];
  /** Classes usable now (an unlimited row counts as -1: 'Ilimitadas'). */
  totalCredits: number;
  upcoming: CardReservation[];
  past: CardReservation[];
  purchases: {
    purchase_id: number;
    title: string;
    total_payment: string;
    status: string;
    provider: string | null;
    /** Paid by OXXO voucher or SPEI transfer through Stripe: never marked paid by hand (decision 080). */
    payment_channel: string | null;
    is_gift: boolean;
    payment_method: string | null;
    class_amount: number;
    expiration_date: string | null;
    /** A subscription's next charge, the date Mis Compras shows (core's nextChargeDate). */
    next_charge_date: string | null;
    createdAt: string;
  }[];
  penalties: { class_reservation_penalty_id: number; start_date: string; end_date: string; no_shows: number; reason: string | null; active: boolean }[];
}

export interface CardReservation {
  class_reservation_id: number;
  single_class_id: number;
  class_date: string;
  class_type: string;
  location: string;
  spot: number | null;
  guest: string | null;
  attend: boolean;
  is_cash: boolean;
  is_paid: boolean;
  deletedAt: string | null;
  classCancelledAt: string | null;
}

/** Everything the customer card shows, read from the replica. */
export async function customerCard(db: Db, customerId: number, now = new Date()): Promise<CustomerCard> {
  const [person] = await db.select().from(customer).where(eq(customer.customer_id, customerId)).limit(1);
  if (!person) throw new DomainError('customer/not-found', 'No encontramos a este cliente.');
  const tz = await replicaTimeZone(db);
  const today = studioDay(now, tz);
  const reservationColumns = {
    class_reservation_id: class_reservation.class_reservation_id,
    single_class_id: class_reservation.single_class_id,
    class_date: single_class.class_date,
    class_type: class_type.name,
    location: location.name,
    spot: class_reservation.spot,
    guest: class_reservation.guest,
    attend: class_reservation.attend,
    is_cash: class_reservation.is_cash,
    is_paid: class_reservation.is_paid,
    deletedAt: class_reservation.deletedAt,
    classCancelledAt: single_class.cancelledAt,
  };
  const reservationsOf = () =>
    db
      .select(reservationColumns)
      .from(class_reservation)
      .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
      .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
      .innerJoin(location, eq(location.location_id, single_class.location_id))
      .$dynamic();
  const [credits, upcoming, past, purchases, penalties] = await Promise.all([
    db
      .select({
        available_class_id: available_classes.available_class_id,
        available_classes: available_classes.available_classes,
        class_type: class_type.name,
        expiration_date: available_classes.expiration_date,
        purchase_id: available_classes.purchase_id,
      })
      .from(available_classes)
      .leftJoin(class_type, eq(class_type.class_type_id, available_classes.class_type_id))
      .where(
        and(
          eq(available_classes.customer_id, customerId),
          usableCredit(now),
        ),
      )
      .orderBy(sql`${available_classes.expiration_date} asc nulls last`),
    reservationsOf()
      .where(and(eq(class_reservation.customer_id, customerId), gte(single_class.class_date, today.start)))
      .orderBy(asc(single_class.class_date))
      .limit(30),
    reservationsOf()
      .where(and(eq(class_reservation.customer_id, customerId), lt(single_class.class_date, today.start)))
      .orderBy(desc(single_class.class_date))
      .limit(30),
    db
      .select({
        purchase_id: purchase.purchase_id,
        title: purchase.title,
        total_payment: purchase.total_payment,
        status: purchase.status,
        refundedAt: purchase.refundedAt,
        provider: purchase.provider,
        payment_channel: purchase.payment_channel,
        is_gift: purchase.is_gift,
        payment_method: payment_method.name,
        class_amount: purchase.class_amount,
        expiration_date: purchase.expiration_date,
        createdAt: purchase.createdAt,
        subscription_interval: purchase.subscription_interval,
        subscription_period: purchase.subscription_period,
        free_trial_length: purchase.free_trial_length,
        free_trial_period: purchase.free_trial_period,
      })
      .from(purchase)
      .leftJoin(payment_method, eq(payment_method.payment_method_id, purchase.payment_method_id))
      .where(eq(purchase.customer_id, customerId))
      .orderBy(desc(purchase.createdAt), desc(purchase.purchase_id))
      .limit(50),
    db
      .select()
      .from(class_reservation_penalty)
      .where(and(eq(class_reservation_penalty.customer_id, customerId), isNull(class_reservation_penalty.deletedAt)))
      .orderBy(desc(class_reservation_penalty.end_date)),
  ]);
  const reservation = (r: (typeof upcoming)[number]): CardReservation => ({
    ...r,
    class_date: r.class_date.toISOString(),
    deletedAt: iso(r.deletedAt),
    classCancelledAt: iso(r.classCancelledAt),
  });
  const unlimitedActive = person.has_unlimited && (!person.unlimited_membership_expiration || person.unlimited_membership_expiration > now);
  const counted = credits.filter((c) => c.available_classes > 0).reduce((sum, c) => sum + c.available_classes, 0);
  return {
    customer: {
      customer_id: person.customer_id,
      name: person.name,
      last_name: person.last_name,
      email: person.email,
      phone: person.phone,
      role: person.role,
      has_unlimited: person.has_unlimited,
      instagram: person.instagram,
      birthdate: person.birthdate,
      createdAt: person.createdAt.toISOString(),
    },
    unlimited: { active: unlimitedActive, expiresAt: iso(person.unlimited_membership_expiration) },
    credits: credits.map((c) => ({ ...c, expiration_date: iso(c.expiration_date) })),
    totalCredits: unlimitedActive || credits.some((c) => c.available_classes === -1) ? -1 : counted,
    upcoming: upcoming.map(reservation),
    past: past.map(reservation),
    purchases: purchases.map(({ subscription_interval, subscription_period, free_trial_length, free_trial_period, ...p }) => ({
      ...p,
      expiration_date: iso(p.expiration_date),
      next_charge_date: iso(nextChargeDate({ ...p, subscription_interval, subscription_period, free_trial_length, free_trial_period, paid_through: p.expiration_date }, now, tz)),
      createdAt: p.createdAt.toISOString(),
    })),
    penalties: penalties.map((p) => ({
      class_reservation_penalty_id: p.class_reservation_penalty_id,
      start_date: p.start_date.toISOString(),
      end_date: p.end_date.toISOString(),
      no_shows: p.no_shows,
      reason: p.reason,
      active: p.end_date > now && p.start_date <= now,
    })),
  };
}

/**
 * What the grant-access form offers: packages on sale and the payment methods the studio takes. A package's `price`
 * is what a grant charges (core's effectivePriceCents: the sale price when set, as giveAccess records it), so the
 * picker shows the one price that is charged (it listed $1,500.00 and recorded $1,350.00).
 */
export async function accessOptions(db: Db) {
  const [rows, methods, settings, products] = await Promise.all([
    db
      .select({
        class_package_id: class_package.class_package_id,
        title: class_package.title,
        price: class_package.price,
        sale_price: class_package.sale_price,
        class_amount: class_package.class_amount,
        expiration_days: class_package.expiration_days,
        is_subscription: class_package.is_subscription,
      })
      .from(class_package)
      .where(and(isNull(class_package.deletedAt), eq(class_package.is_signup_fee, false)))
      .orderBy(asc(class_package.order), asc(class_package.class_package_id)),
    db
      .select({ payment_method_id: payment_method.payment_method_id, name: payment_method.name, provider: payment_method.provider })
      .from(payment_method)
      .where(eq(payment_method.available, true))
      .orderBy(asc(payment_method.payment_method_id)),
    db.transaction((tx) => loadReplicaSettings(tx)),
    // What the counter sells besides classes, with the units the replica says are on the shelf.
    db
      .select({ product_id: product.product_id, name: product.name, price: product.price, stock: product.stock })
      .from(product)
      .where(and(isNull(product.deletedAt), eq(product.available, true)))
      .orderBy(asc(product.name), asc(product.product_id)),
  ]);
  const packages = rows.map(({ sale_price, ...p }) => ({ ...p, price: fromCents(effectivePriceCents({ price: p.price, sale_price })) }));
  // The receipt's heading, from the replica's copy of the studio's settings: a receipt prints offline too.
  const studio = { name: settings.business_name, location: settings.location, email: settings.email, whatsapp: settings.whatsapp };
  return { packages, paymentMethods: methods, studio, products };
}
