import type { DeskMutationArgs, DeskMutationName } from '@estudio/core';
import type { DbOrTx } from '@estudio/db';
import { sql } from 'drizzle-orm';
import { query } from './replica.ts';

/**
 * Whom and what a refused desk change was about: resolved against
 * the replica when the refusal arrives, before the change is undone, and kept
 * with the rejection, so the names stay even if the rows later vanish.
 */
export interface RejectionSubject {
  customer: { id: number; name: string; phone: string | null } | null;
  class: { id: number; name: string; /** ISO instant; the screen shows it in studio time. */ start: string } | null;
  /** The package of an access or a cash purchase. */
  package: string | null;
  /** Classes removed. */
  amount: number | null;
}

/** The rows a mutation's args point at. */
interface Refs {
  customerId?: number;
  classId?: number;
  reservationId?: number;
  purchaseId?: number;
  packageId?: number;
  amount?: number;
  /** A person not yet anyone's row: a registration names whom staff typed. */
  typed?: { name: string; phone: string };
}

/** One entry per desk mutation: a new mutation name is a type error here until it says what it is about. */
const refsOf: { [N in DeskMutationName]: (args: DeskMutationArgs<N>) => Refs } = {
  checkIn: (a) => ({ reservationId: a.class_reservation_id }),
  walkIn: (a) => ({ customerId: a.customer_id, classId: a.single_class_id }),
  markReservationPaid: (a) => ({ reservationId: a.class_reservation_id }),
  markPurchasePaid: (a) => ({ purchaseId: a.purchase_id }),
  giveAccess: (a) => ({ customerId: a.customer_id, packageId: a.class_package_id }),
  sellAtDesk: (a) => ({ customerId: a.customer_id, ...(a.packages[0] ? { packageId: a.packages[0].class_package_id } : {}) }),
  revokeAccess: (a) => ({ purchaseId: a.purchase_id }),
  removeClasses: (a) => ({ customerId: a.customer_id, amount: a.amount }),
  cancelReservation: (a) => ({ reservationId: a.class_reservation_id, customerId: a.customer_id, classId: a.single_class_id }),
  undoCheckIn: (a) => ({ reservationId: a.class_reservation_id, customerId: a.customer_id, classId: a.single_class_id }),
  // The class it was moved from is the one the customer knows it by.
  moveReservation: (a) => ({ reservationId: a.class_reservation_id, customerId: a.customer_id, classId: a.from_single_class_id }),
  joinWaitlist: (a) => ({ customerId: a.customer_id, classId: a.single_class_id }),
  leaveWaitlist: (a) => ({ customerId: a.customer_id, classId: a.single_class_id }),
  acceptDocuments: (a) => ({ customerId: a.customer_id }),
  addCustomerNote: (a) => ({ customerId: a.customer_id }),
  removeCustomerNote: (a) => ({ customerId: a.customer_id }),
  registerCustomer: (a) => ({ typed: { name: `${a.name} ${a.last_name}`.trim(), phone: a.phone } }),
};

const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : v == null ? undefined : Number(v));

/** Resolves a stored mutation's customer, class and package against the replica as it is now. */
export async function resolveRejectionSubject(db: DbOrTx, name: string, args: unknown): Promise<RejectionSubject> {
  const refs: Refs = name in refsOf ? (refsOf as Record<string, (a: unknown) => Refs>)[name]!(args) : {};
  let { customerId, classId, packageId } = refs;
  if (refs.reservationId !== undefined) {
    const [r] = await query<{ customer_id: number; single_class_id: number }>(
      db,
      sql`select customer_id, single_class_id from class_reservation where class_reservation_id = ${refs.reservationId}`,
    );
    customerId ??= num(r?.customer_id);
    classId ??= num(r?.single_class_id);
  }
  if (refs.purchaseId !== undefined) {
    const [p] = await query<{ customer_id: number; class_package_id: number }>(
      db,
      sql`select customer_id, class_package_id from purchase where purchase_id = ${refs.purchaseId}`,
    );
    customerId ??= num(p?.customer_id);
    packageId ??= num(p?.class_package_id);
  }
  const [c] =
    customerId === undefined
      ? []
      : await query<{ name: string; last_name: string; phone: string | null }>(db, sql`select name, last_name, phone from customer where customer_id = ${customerId}`);
  const [k] =
    classId === undefined
      ? []
      : await query<{ name: string | null; class_date: string | Date }>(
          db,
          sql`select t.name, c.class_date from single_class c left join class_type t on t.class_type_id = c.class_type_id where c.single_class_id = ${classId}`,
        );
  const [pkg] = packageId === undefined ? [] : await query<{ title: string }>(db, sql`select title from class_package where class_package_id = ${packageId}`);
  return {
    customer:
      c && customerId !== undefined
        ? { id: customerId, name: `${c.name} ${c.last_name}`.trim(), phone: c.phone || null }
        : refs.typed
          ? { id: 0, name: refs.typed.name, phone: refs.typed.phone }
          : null,
    class: k && classId !== undefined ? { id: classId, name: k.name ?? '', start: new Date(k.class_date).toISOString() } : null,
    package: pkg?.title ?? null,
    amount: refs.amount ?? null,
  };
}
