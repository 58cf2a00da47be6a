import { bookingRefusal, creditsMatchingPackage, DomainError, guestUsesCredit, packageAccessStatuses, pickCredit, pickGuestCredit, placesForBooking, refuse, studioTimeZone, toMs, type ReplicatedTable } from '@estudio/core';
import { available_classes, class_package, class_reservation, class_reservation_penalty, class_type, classSpotMapSql, purchase, single_class, usableCredit, waitlist } from '@estudio/db';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Mutator } from './context.ts';
import { insertRow, liveCustomer } from './replica-rows.ts';

/**
 * The server's walkIn (`server/src/services/desk/walk-in.ts`, through its
 * booking service) on the replica: the same refusals from core's
 * bookingRefusal, booked by staff (only the class's end closes it).
 */
export const walkIn: Mutator<'walkIn'> = async ({ tx, now, tempId, settings }, args) => {
  const tz = studioTimeZone(settings);
  const who = await liveCustomer(tx, args.customer_id);
  const [found] = await tx
    .select({ c: single_class, spot_map: classSpotMapSql() })
    .from(single_class)
    .innerJoin(class_type, eq(class_type.class_type_id, single_class.class_type_id))
    .where(eq(single_class.single_class_id, args.single_class_id));
  if (!found) throw new DomainError('class/not-found');
  const { c, spot_map } = found;

  const bought =
    c.class_package_id === null
      ? []
      : await tx
          .select({ status: purchase.status })
          .from(purchase)
          .where(and(eq(purchase.customer_id, who.customer_id), eq(purchase.class_package_id, c.class_package_id)));
  const live = await tx
    .select({ customer_id: class_reservation.customer_id, spot: class_reservation.spot, guest: class_reservation.guest })
    .from(class_reservation)
    .where(and(eq(class_reservation.single_class_id, c.single_class_id), isNull(class_reservation.deletedAt)));
  const spot = args.spot ?? null;
  const guest = args.guest?.trim() || null;
  refuse(
    bookingRefusal({
      klass: { ...c, spot_map },
      byStaff: true,
      now,
      settings,
      packageBought: bought.some((p) => (packageAccessStatuses as readonly string[]).includes(p.status)),
      booked: live.some((r) => r.customer_id === who.customer_id),
      change: { spot, guest },
      taken: {
        places: live.reduce((sum, r) => sum + placesForBooking(r.guest), 0),
        spotTaken: spot !== null && live.some((r) => r.spot === spot),
      },
    }),
  );

  const credits = await tx
    .select({ credit: available_classes, package_id: purchase.class_package_id, special: class_package.is_special_event })
    .from(available_classes)
    .leftJoin(purchase, eq(purchase.purchase_id, available_classes.purchase_id))
    .leftJoin(class_package, eq(class_package.class_package_id, purchase.class_package_id))
    .where(
      and(
        eq(available_classes.customer_id, who.customer_id),
        usableCredit(c.class_date),
      ),
    );
  const eligible = creditsMatchingPackage(credits, c.class_package_id);
  const target = { classTypeId: c.class_type_id, classDate: c.class_date, timeZone: tz };
  const credit = pickCredit(eligible, target);
  if (!credit) throw new DomainError('booking/no-credits');
  // Where a guest pays with a class, one more of the customer's (the server's pickGuestCredit), or the booking is refused whole.
  const guestCredit = guest !== null && guestUsesCredit(settings) ? pickGuestCredit(eligible, target, credit) : null;
  if (guest !== null && guestUsesCredit(settings) && !guestCredit) throw new DomainError('booking/guest-no-credits');
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
  if (guestCredit) {
    await tx
      .update(available_classes)
      .set({ available_classes: sql`${available_classes.available_classes} - 1`, updatedAt: now })
      .where(eq(available_classes.available_class_id, guestCredit.available_class_id));
    if (!touched.includes('available_classes')) touched.push('available_classes');
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
    guest_available_class_id: guestCredit?.available_class_id ?? null,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  });
  return touched;
};
