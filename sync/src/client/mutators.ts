import {
  addPeriod,
  addStudioPeriod,
  checkInTiming,
  checkInWindow,
  configMap,
  DomainError,
  effectivePriceCents,
  evaluateCancellation,
  fromCents,
  isClassFull,
  isOn,
  isReasonGiven,
  isValidSpot,
  localDate,
  parseSpotMap,
  pickCredit,
  placesForBooking,
  studioTimeZone,
  toMs,
  type AppConfigMap,
  type DeskMutationArgs,
  type DeskMutationName,
  type ReplicatedTable,
} from '@estudio/core';
import {
  app_config,
  available_classes,
  class_package,
  class_reservation,
  class_reservation_penalty,
  class_type,
  customer,
  payment_method,
  purchase,
  single_class,
  waitlist,
  page,
  accepted_page,
  type Tx,
} from '@estudio/db';
import { and, asc, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import { query } from './replica.ts';
import { ident, tableInfo } from './tables.ts';

/**
 * The desk's optimistic copies of the server's desk mutations. Each one
 * applies the mutation to the replica the way the server would, so staff see
 * the result at once, and refuses with the server's DomainError code when the
 * replica already shows the server would refuse. The server stays the
 * authority: its answer (and the next pull) replaces whatever is done here.
 *
 * Rows a mutation creates get the mutation's temporary negative id (one per
 * mutation, reused when the mutation is redone after a pull).
 */
export interface MutatorContext {
  tx: Tx;
  /** When the mutation was made at the desk (redos keep the original time). */
  now: Date;
  /** Temporary id for rows this mutation creates. */
  tempId: number;
  settings: AppConfigMap;
}

type Mutator<N extends DeskMutationName> = (ctx: MutatorContext, args: DeskMutationArgs<N>) => Promise<ReplicatedTable[]>;

/** The studio settings the replica holds (the defaults where it holds none). */
export async function loadReplicaSettings(tx: Tx): Promise<AppConfigMap> {
  const rows = await tx.select({ key: app_config.key, value: app_config.value }).from(app_config);
  return configMap(rows);
}

/** Inserts one new row; columns not given take the table's defaults. */
async function insertRow(tx: Tx, table: ReplicatedTable, values: Record<string, unknown>): Promise<void> {
  const info = tableInfo(table);
  const columns = Object.keys(values).map(ident).join(', ');
  await tx.execute(
    sql`${sql.raw(`INSERT INTO ${ident(table)} (${columns}) SELECT ${columns} FROM jsonb_populate_record(NULL::${ident(info.name)}, `)}${JSON.stringify(values)}${sql.raw('::jsonb)')}`,
  );
}

async function liveCustomer(tx: Tx, customerId: number) {
  const [row] = await tx
    .select()
    .from(customer)
    .where(and(eq(customer.customer_id, customerId), isNull(customer.deletedAt)));
  if (!row) throw new DomainError('customer/not-found');
  return row;
}

/**
 * Keeps the membership columns in step with the customer's unlimited credits,
 * as the server's syncUnlimitedMembership does after a grant or a removal.
 */
async function syncUnlimitedMembership(tx: Tx, customerId: number, now: Date): Promise<void> {
  const unlimited = sql`from ${available_classes} where ${available_classes.customer_id} = ${customerId}
    and ${available_classes.available_classes} = -1 and ${available_classes.deletedAt} is null
    and (${available_classes.expiration_date} is null or ${available_classes.expiration_date} > ${now.toISOString()}::timestamptz)`;
  await tx
    .update(customer)
    .set({
      has_unlimited: sql`exists (select 1 ${unlimited})`,
      unlimited_membership_expiration: sql`(select max(${available_classes.expiration_date}) ${unlimited})`,
      updatedAt: now,
    })
    .where(eq(customer.customer_id, customerId));
}

/** The server's tolerance for a desk clock running ahead. */
const checkInFutureToleranceMs = 5 * 60_000;

const checkIn: Mutator<'checkIn'> = async ({ tx, now, settings }, args) => {
  const at = args.at ? new Date(args.at) : now;
  if (at.getTime() > now.getTime() + checkInFutureToleranceMs) throw new DomainError('checkin/time-in-future');
  const [row] = await tx
    .select({ r: class_reservation, c: single_class })
    .from(class_reservation)
    .innerJoin(single_class, eq(single_class.single_class_id, class_reservation.single_class_id))
    .where(eq(class_reservation.class_reservation_id, args.class_reservation_id));
  if (!row) throw new DomainError('reservation/not-found');
  if (row.r.deletedAt) throw new DomainError('checkin/reservation-cancelled');
  if (row.c.cancelledAt) throw new DomainError('checkin/class-cancelled');
  const tz = studioTimeZone(settings);
  if (localDate(row.c.class_date, tz) !== localDate(at, tz)) throw new DomainError('checkin/wrong-day');
  // Checking in twice keeps the first time.
  if (row.r.attend) return [];
  const timing = checkInTiming(at, checkInWindow(row.c.class_date, row.c.duration_minutes, settings));
  if (timing) throw new DomainError(timing === 'too-early' ? 'checkin/too-early' : 'checkin/too-late');
  await tx
    .update(class_reservation)
    // A no-show the clock marked before this (offline) check-in arrived is cleared.
    .set({ attend: true, attendedAt: at, noShowAt: null, updatedAt: now })
    .where(eq(class_reservation.class_reservation_id, args.class_reservation_id));
  return ['class_reservation'];
};

/** Purchases that give access to a package-only class. */
const accessStatuses = ['active', 'completed'];

const walkIn: Mutator<'walkIn'> = async ({ tx, now, tempId, settings }, args) => {
  const tz = studioTimeZone(settings);
  const who = await liveCustomer(tx, args.customer_id);
  const [found] = await tx
    .select({ c: single_class, ct: class_type })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(single_class.single_class_id, args.single_class_id));
  if (!found) throw new DomainError('class/not-found');
  const { c, ct } = found;
  if (c.cancelledAt) throw new DomainError('booking/class-cancelled');
  // Booked by staff: only the end of the class closes it.
  if (c.class_date.getTime() + c.duration_minutes * 60_000 <= now.getTime()) throw new DomainError('booking/class-started');

  if (c.class_package_id !== null) {
    const bought = await tx
      .select({ id: purchase.purchase_id, status: purchase.status })
      .from(purchase)
      .where(and(eq(purchase.customer_id, who.customer_id), eq(purchase.class_package_id, c.class_package_id)));
    if (!bought.some((p) => accessStatuses.includes(p.status))) throw new DomainError('booking/package-only');
  }

  const live = await tx
    .select({ customer_id: class_reservation.customer_id, spot: class_reservation.spot, guest: class_reservation.guest })
    .from(class_reservation)
    .where(and(eq(class_reservation.single_class_id, c.single_class_id), isNull(class_reservation.deletedAt)));
  if (live.some((r) => r.customer_id === who.customer_id)) throw new DomainError('booking/already-booked');

  const spot = args.spot ?? null;
  const guest = args.guest?.trim() || null;
  if (guest !== null) {
    if (!isOn(settings.allow_class_guests)) throw new DomainError('booking/guest-not-allowed');
    if (guest.length < 2) throw new DomainError('booking/guest-name');
  }
  if (spot !== null && (!parseSpotMap(ct.spot_map) || !isValidSpot(ct.spot_map, spot))) throw new DomainError('booking/spot-invalid');
  if (spot !== null && live.some((r) => r.spot === spot)) throw new DomainError('booking/spot-taken');
  const places = live.reduce((sum, r) => sum + placesForBooking(r.guest), 0);
  if (places + placesForBooking(guest) > c.capacity) throw new DomainError('booking/class-full');

  // A special class takes only its package's credits; other classes never take them.
  const credits = await tx
    .select({ credit: available_classes, package_id: purchase.class_package_id, special: class_package.is_special_event })
    .from(available_classes)
    .leftJoin(purchase, eq(purchase.purchase_id, available_classes.purchase_id))
    .leftJoin(class_package, eq(class_package.class_package_id, purchase.class_package_id))
    .where(
      and(
        eq(available_classes.customer_id, who.customer_id),
        isNull(available_classes.deletedAt),
        sql`${available_classes.available_classes} <> 0`,
        or(isNull(available_classes.expiration_date), gt(available_classes.expiration_date, c.class_date)),
      ),
    );
  const eligible = credits
    .filter((r) => (c.class_package_id !== null ? r.package_id === c.class_package_id : !r.special))
    .map((r) => r.credit);
  const credit = pickCredit(eligible, { classTypeId: c.class_type_id, classDate: c.class_date, timeZone: tz });
  if (!credit) throw new DomainError('booking/no-credits');
  const touched: ReplicatedTable[] = ['class_reservation'];
  if (credit.available_classes === -1) {
    // The replica holds the penalties; a new one (no-shows just reaching the threshold) is the server's to create.
    const penalties = await tx
      .select({ start: class_reservation_penalty.start_date, end: class_reservation_penalty.end_date })
      .from(class_reservation_penalty)
      .where(and(eq(class_reservation_penalty.customer_id, who.customer_id), isNull(class_reservation_penalty.deletedAt)));
    if (penalties.some((p) => toMs(p.start) <= now.getTime() && toMs(p.end) > now.getTime())) throw new DomainError('booking/penalized');
  } else {
    await tx
      .update(available_classes)
      .set({ available_classes: sql`${available_classes.available_classes} - 1`, updatedAt: now })
      .where(eq(available_classes.available_class_id, credit.available_class_id));
    touched.push('available_classes');
  }
  const left = await tx
    .delete(waitlist)
    .where(and(eq(waitlist.single_class_id, c.single_class_id), eq(waitlist.customer_id, who.customer_id)))
    .returning({ id: waitlist.waitlist_id });
  if (left.length) touched.push('waitlist');
  await insertRow(tx, 'class_reservation', {
    class_reservation_id: tempId,
    single_class_id: c.single_class_id,
    customer_id: who.customer_id,
    available_class_id: credit.available_class_id,
    spot,
    guest,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  return touched;
};

const markReservationPaid: Mutator<'markReservationPaid'> = async ({ tx, now }, args) => {
  const [row] = await tx.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, args.class_reservation_id));
  if (!row) throw new DomainError('reservation/not-found');
  if (row.deletedAt) throw new DomainError('reservation/already-cancelled');
  // A reservation that was not a cash one is already paid.
  if (!row.is_cash || row.is_paid) return [];
  await tx
    .update(class_reservation)
    .set({ is_paid: true, updatedAt: now })
    .where(eq(class_reservation.class_reservation_id, args.class_reservation_id));
  return ['class_reservation'];
};

/** End of the access a payment buys (the server's accessEnd): a subscription cycle on the studio's clock, or expiration_days. */
function accessEnd(p: { subscription_period: string | null; subscription_interval: number | null; expiration_days: number | null }, from: Date, tz: string): Date | null {
  if (p.subscription_period) return addStudioPeriod(from, p.subscription_interval ?? 1, p.subscription_period, tz);
  return p.expiration_days ? addPeriod(from, p.expiration_days, 'day') : null;
}

/**
 * The credit a paid purchase grants. The server grants one row per class type
 * when the package restricts class types (class_package_type is not
 * replicated); the desk shows one row of class_amount until the pull brings
 * the server's rows.
 */
async function grantPurchaseCredit(
  ctx: MutatorContext,
  p: { purchase_id: number; customer_id: number; class_amount: number },
  until: Date | null,
): Promise<ReplicatedTable[]> {
  if (p.class_amount === 0) return [];
  await insertRow(ctx.tx, 'available_classes', {
    available_class_id: ctx.tempId,
    customer_id: p.customer_id,
    purchase_id: p.purchase_id,
    available_classes: p.class_amount,
    expiration_date: until?.toISOString() ?? null,
    created_at: ctx.now.toISOString(),
    updated_at: ctx.now.toISOString(),
  });
  if (p.class_amount === -1) {
    await syncUnlimitedMembership(ctx.tx, p.customer_id, ctx.now);
    return ['available_classes', 'customer'];
  }
  return ['available_classes'];
}

const markPurchasePaid: Mutator<'markPurchasePaid'> = async (ctx, args) => {
  const { tx, now } = ctx;
  const [p] = await tx.select().from(purchase).where(eq(purchase.purchase_id, args.purchase_id));
  if (!p) throw new DomainError('purchase/not-found');
  if (p.provider !== 'cash' || p.status !== 'pending') throw new DomainError('purchase/not-pending');
  const until = accessEnd(p, now, studioTimeZone(ctx.settings));
  await tx
    .update(purchase)
    .set({ status: p.subscription_period ? 'active' : 'completed', expiration_date: until, paidAt: now, paid_with: args.paid_with, updatedAt: now })
    .where(eq(purchase.purchase_id, p.purchase_id));
  return ['purchase', ...(await grantPurchaseCredit(ctx, p, until))];
};

const giveAccess: Mutator<'giveAccess'> = async (ctx, args) => {
  const { tx, now, tempId } = ctx;
  // The reason is judged here as on the server (decision 037); the gift's price limit is the server's, at replay.
  if (args.is_gift && !isReasonGiven(args.reason)) throw new DomainError('access/reason-required');
  const who = await liveCustomer(tx, args.customer_id);
  const [pkg] = await tx
    .select()
    .from(class_package)
    .where(and(eq(class_package.class_package_id, args.class_package_id), isNull(class_package.deletedAt)));
  if (!pkg) throw new DomainError('package/not-found');
  if (args.payment_method_id !== null) {
    const [method] = await tx
      .select({ id: payment_method.payment_method_id })
      .from(payment_method)
      .where(eq(payment_method.payment_method_id, args.payment_method_id));
    if (!method) throw new DomainError('payment-method/not-found');
  }
  // A subscription package given at the desk lasts one period unless days are given (nothing renews it).
  const periodDays =
    pkg.is_subscription && pkg.subscription_period
      ? Math.round((addPeriod(now, pkg.subscription_interval ?? 1, pkg.subscription_period).getTime() - now.getTime()) / 86_400_000)
      : null;
  const days = args.package_days ?? pkg.expiration_days ?? periodDays;
  const until = days ? addPeriod(now, days, 'day') : null;
  const p = { purchase_id: tempId, customer_id: who.customer_id, class_amount: pkg.class_amount };
  await insertRow(tx, 'purchase', {
    purchase_id: tempId,
    customer_id: who.customer_id,
    class_package_id: pkg.class_package_id,
    payment_method_id: args.payment_method_id,
    title: pkg.title,
    amount: pkg.price,
    total_payment: args.is_gift ? '0.00' : fromCents(effectivePriceCents(pkg)),
    class_amount: pkg.class_amount,
    expiration_days: days,
    status: 'completed',
    is_gift: args.is_gift,
    provider: 'admin',
    expiration_date: until?.toISOString() ?? null,
    // Granted now: the server records the moment as paid_at, which keeps the caps' units for good.
    paid_at: now.toISOString(),
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  return ['purchase', ...(await grantPurchaseCredit(ctx, p, until))];
};

const revokeAccess: Mutator<'revokeAccess'> = async ({ tx, now }, args) => {
  if (!isReasonGiven(args.reason)) throw new DomainError('access/reason-required');
  const [p] = await tx.select().from(purchase).where(eq(purchase.purchase_id, args.purchase_id));
  if (!p) throw new DomainError('purchase/not-found');
  if (p.status === 'revoked') throw new DomainError('access/already-revoked');
  await tx.update(purchase).set({ status: 'revoked', updatedAt: now }).where(eq(purchase.purchase_id, p.purchase_id));
  await tx
    .update(available_classes)
    .set({ deletedAt: now, updatedAt: now })
    .where(and(eq(available_classes.purchase_id, p.purchase_id), isNull(available_classes.deletedAt)));
  await syncUnlimitedMembership(tx, p.customer_id, now);
  return ['purchase', 'available_classes', 'customer'];
};

const removeClasses: Mutator<'removeClasses'> = async ({ tx, now }, args) => {
  if (!isReasonGiven(args.reason)) throw new DomainError('access/reason-required');
  const who = await liveCustomer(tx, args.customer_id);
  // Limited, live, unexpired credits, the ones expiring first spent first (as bookings spend them).
  const credits = await tx
    .select({ id: available_classes.available_class_id, left: available_classes.available_classes })
    .from(available_classes)
    .where(
      and(
        eq(available_classes.customer_id, who.customer_id),
        isNull(available_classes.deletedAt),
        gt(available_classes.available_classes, 0),
        or(isNull(available_classes.expiration_date), gt(available_classes.expiration_date, now)),
      ),
    )
    .orderBy(sql`${available_classes.expiration_date} asc nulls last`, asc(available_classes.available_class_id));
  const total = credits.reduce((sum, c) => sum + c.left, 0);
  if (total < args.amount) throw new DomainError('access/not-enough-classes');
  let remaining = args.amount;
  for (const credit of credits) {
    if (remaining === 0) break;
    const take = Math.min(credit.left, remaining);
    remaining -= take;
    await tx
      .update(available_classes)
      .set({ available_classes: credit.left - take, updatedAt: now })
      .where(eq(available_classes.available_class_id, credit.id));
  }
  return ['available_classes'];
};

// ---------- Issue 16: desk actions (decision 017) ----------

/** The reservation a mutation names, when it is the customer's and the class's the mutation says (the server's reservationNamedBy). */
async function reservationNamedBy(tx: Tx, args: { class_reservation_id: number; customer_id: number; single_class_id: number }) {
  const [row] = await tx.select().from(class_reservation).where(eq(class_reservation.class_reservation_id, args.class_reservation_id));
  if (!row || row.customer_id !== args.customer_id || row.single_class_id !== args.single_class_id) throw new DomainError('reservation/not-found');
  return row;
}

/**
 * The server's cancelReservation on the replica: frees the place and gives the
 * credit back as decided. `countsAsCancel`: the customer's rules decided, so a
 * limited credit uses one of its cancellations.
 */
async function cancelOnReplica(
  tx: Tx,
  r: typeof class_reservation.$inferSelect,
  creditReturned: boolean,
  countsAsCancel: boolean,
  now: Date,
): Promise<ReplicatedTable[]> {
  await tx
    .update(class_reservation)
    .set({ deletedAt: now, credit_returned: creditReturned, updatedAt: now })
    .where(eq(class_reservation.class_reservation_id, r.class_reservation_id));
  if (!creditReturned || r.available_class_id === null) return ['class_reservation'];
  const [credit] = await tx.select().from(available_classes).where(eq(available_classes.available_class_id, r.available_class_id));
  if (!credit || credit.available_classes === -1) return ['class_reservation'];
  await tx
    .update(available_classes)
    .set({
      available_classes: sql`${available_classes.available_classes} + 1`,
      ...(countsAsCancel ? { cancels_used: sql`${available_classes.cancels_used} + 1` } : {}),
      updatedAt: now,
    })
    .where(eq(available_classes.available_class_id, credit.available_class_id));
  return ['class_reservation', 'available_classes'];
}

const cancelReservation: Mutator<'cancelReservation'> = async ({ tx, now, settings }, args) => {
  const at = args.at ? new Date(args.at) : now;
  if (at.getTime() > now.getTime() + checkInFutureToleranceMs) throw new DomainError('checkin/time-in-future');
  const override = args.return_credit !== null;
  if (override && (args.reason?.trim().length ?? 0) < 3) throw new DomainError('desk/override-reason');
  const r = await reservationNamedBy(tx, args);
  if (r.deletedAt) throw new DomainError('reservation/already-cancelled');
  if (override) return cancelOnReplica(tx, r, args.return_credit === true, false, at);
  const [c] = await tx.select({ class_date: single_class.class_date }).from(single_class).where(eq(single_class.single_class_id, r.single_class_id));
  if (!c) throw new DomainError('class/not-found');
  const [credit] = r.available_class_id
    ? await tx.select().from(available_classes).where(eq(available_classes.available_class_id, r.available_class_id))
    : [];
  const limited = credit !== undefined && credit.available_classes !== -1;
  const verdict = evaluateCancellation({ classDate: c.class_date, now: at, config: settings, cancelsUsed: limited ? credit.cancels_used : 0, cancelled: false });
  if (!verdict.allowed) throw new DomainError(verdict.code ?? 'reservation/cancel-disabled');
  return cancelOnReplica(tx, r, verdict.creditReturned, true, at);
};

const undoCheckIn: Mutator<'undoCheckIn'> = async ({ tx, now }, args) => {
  const r = await reservationNamedBy(tx, args);
  if (r.deletedAt) throw new DomainError('checkin/reservation-cancelled');
  if (!r.attend) return [];
  await tx
    .update(class_reservation)
    .set({ attend: false, attendedAt: null, updatedAt: now })
    .where(eq(class_reservation.class_reservation_id, r.class_reservation_id));
  return ['class_reservation'];
};

const moveReservation: Mutator<'moveReservation'> = async (ctx, args) => {
  if (args.single_class_id === args.from_single_class_id) throw new DomainError('desk/move-same-class');
  const old = await reservationNamedBy(ctx.tx, { ...args, single_class_id: args.from_single_class_id });
  if (old.deletedAt) throw new DomainError('reservation/already-cancelled');
  if (old.attend) throw new DomainError('desk/move-attended');
  // Cancelled by staff (the credit comes back, no cancellation used), then booked as a walk-in; a refusal undoes both.
  const cancelled = await cancelOnReplica(ctx.tx, old, true, false, ctx.now);
  const booked = await walkIn(ctx, { customer_id: old.customer_id, single_class_id: args.single_class_id, spot: args.spot, guest: old.guest });
  return [...new Set([...cancelled, ...booked])];
};

const joinWaitlist: Mutator<'joinWaitlist'> = async ({ tx, now, tempId, settings }, args) => {
  if (!isOn(settings.waitlist_enabled)) throw new DomainError('waitlist/disabled');
  await liveCustomer(tx, args.customer_id);
  const [c] = await tx.select().from(single_class).where(eq(single_class.single_class_id, args.single_class_id));
  if (!c) throw new DomainError('class/not-found');
  if (c.cancelledAt) throw new DomainError('booking/class-cancelled');
  if (c.class_date.getTime() <= now.getTime()) throw new DomainError('booking/class-started');
  const live = await tx
    .select({ customer_id: class_reservation.customer_id, guest: class_reservation.guest })
    .from(class_reservation)
    .where(and(eq(class_reservation.single_class_id, c.single_class_id), isNull(class_reservation.deletedAt)));
  if (live.some((r) => r.customer_id === args.customer_id)) throw new DomainError('waitlist/already-booked');
  const [joined] = await tx
    .select({ id: waitlist.waitlist_id })
    .from(waitlist)
    .where(and(eq(waitlist.single_class_id, c.single_class_id), eq(waitlist.customer_id, args.customer_id)));
  if (joined) throw new DomainError('waitlist/already-joined');
  const places = live.reduce((sum, r) => sum + placesForBooking(r.guest), 0);
  if (!isClassFull({ capacity: c.capacity, reservation_count: places })) throw new DomainError('waitlist/class-not-full');
  await insertRow(tx, 'waitlist', {
    waitlist_id: tempId,
    single_class_id: c.single_class_id,
    customer_id: args.customer_id,
    created_at: now.toISOString(),
  });
  return ['waitlist'];
};

const leaveWaitlist: Mutator<'leaveWaitlist'> = async ({ tx }, args) => {
  const left = await tx
    .delete(waitlist)
    .where(and(eq(waitlist.single_class_id, args.single_class_id), eq(waitlist.customer_id, args.customer_id)))
    .returning({ id: waitlist.waitlist_id });
  if (!left.length) throw new DomainError('waitlist/not-found');
  return ['waitlist'];
};

/**
 * Issue 16 (decision 018): the customer accepted these documents at the
 * counter. Every id must be a page the replica has; pages already accepted
 * keep their first acceptance (the server's acceptDocuments).
 */
const acceptDocuments: Mutator<'acceptDocuments'> = async ({ tx, now }, args) => {
  const who = await liveCustomer(tx, args.customer_id);
  const ids = [...new Set(args.page_ids)];
  const known = await tx.select({ page_id: page.page_id }).from(page).where(inArray(page.page_id, ids));
  if (known.length !== ids.length) throw new DomainError('page/not-found');
  const have = await tx
    .select({ page_id: accepted_page.page_id })
    .from(accepted_page)
    .where(and(eq(accepted_page.customer_id, who.customer_id), inArray(accepted_page.page_id, ids)));
  const missing = ids.filter((id) => !have.some((h) => h.page_id === id));
  for (const pageId of missing) {
    // One temporary id per row (the mutation's own covers one).
    const [next] = await query<{ id: number }>(tx, sql`select nextval('desk.temp_id')::int as id`);
    if (!next) throw new Error('desk.temp_id gave no value');
    await insertRow(tx, 'accepted_page', {
      accepted_page_id: next.id,
      page_id: pageId,
      customer_id: who.customer_id,
      created_at: (args.at ? new Date(args.at) : now).toISOString(),
    });
  }
  return missing.length ? ['accepted_page'] : [];
};

const mutators: { [N in DeskMutationName]: Mutator<N> } = {
  checkIn,
  walkIn,
  markReservationPaid,
  markPurchasePaid,
  giveAccess,
  revokeAccess,
  removeClasses,
  cancelReservation,
  undoCheckIn,
  moveReservation,
  joinWaitlist,
  leaveWaitlist,
  acceptDocuments,
};

/** Runs the local mutator of `name`; returns the tables it changed. Throws DomainError when the replica says the server would refuse. */
export function runMutator<N extends DeskMutationName>(name: N, ctx: MutatorContext, args: DeskMutationArgs<N>): Promise<ReplicatedTable[]> {
  const mutator = mutators[name] as Mutator<N>;
  return mutator(ctx, args);
}
