import { maxInt4, z } from '../zod.ts';
import { bodyId as id } from './fields.ts';
import { customerCreateInput } from './customer.ts';
import { customerNoteBody, deskNoteKind } from './customer-notes.ts';
import { cartPackageLine, cartProductLine } from './products.ts';
import { drawerAmount } from './cash-shifts.ts';

/**
 * The sync protocol between the server and the front desks (decision
 * 008). The server is the authority; desks keep a PGlite replica of
 * the replicated tables, pull changes after a cursor, and push their own
 * mutations, each applied exactly once.
 */

/**
 * Replicated tables, their primary key columns, and the columns a desk never
 * receives (identity and payment provider ids). Parents before children, so a
 * snapshot can load them in this order.
 */
export const replicatedTables = {
  location: { key: ['location_id'], hidden: [] },
  room: { key: ['room_id'], hidden: [] },
  class_type: { key: ['class_type_id'], hidden: [] },
  instructor: { key: ['instructor_id'], hidden: [] },
  class_package: { key: ['class_package_id'], hidden: ['stripe_product_id', 'stripe_price_id'] },
  payment_method: { key: ['payment_method_id'], hidden: [] },
  // search_text is the server's search (decision 058): the desk searches in memory.
  // What the counter sells besides classes, with its stock: the cart lists it offline.
  product: { key: ['product_id'], hidden: [] },
  customer: { key: ['customer_id'], hidden: ['uid', 'stripe_customer_id', 'paypal_payer_id', 'search_text'] },
  single_class: { key: ['single_class_id'], hidden: [] },
  single_class_instructor: { key: ['single_class_id', 'instructor_id'], hidden: [] },
  purchase: { key: ['purchase_id'], hidden: ['provider_payment_id', 'provider_session_id', 'subscription_id'] },
  available_classes: { key: ['available_class_id'], hidden: [] },
  class_reservation: { key: ['class_reservation_id'], hidden: [] },
  waitlist: { key: ['waitlist_id'], hidden: [] },
  class_reservation_penalty: { key: ['class_reservation_penalty_id'], hidden: [] },
  // Decision 018: the counter warns about required documents not yet accepted, and collects them.
  page: { key: ['page_id'], hidden: [] },
  accepted_page: { key: ['accepted_page_id'], hidden: [] },
  // Notes and alerts on a customer: the card and the scan show them offline. Health notes never reach a desk's disk
  // (decision 087): the card reads them from the server.
  customer_note: { key: ['customer_note_id'], hidden: [], only: "kind <> 'health'" },
} as const satisfies Record<string, { key: readonly string[]; hidden: readonly string[]; only?: string }>;

/**
 * The rows of a table a desk receives, as an SQL condition on its columns (a constant of this file, never input);
 * null: every row. A row outside it reaches a desk as deleted.
 */
export function replicatedRowsWhere(table: ReplicatedTable): string | null {
  const spec = replicatedTables[table];
  return 'only' in spec ? spec.only : null;
}

export type ReplicatedTable = keyof typeof replicatedTables;
export const replicatedTableNames = Object.keys(replicatedTables) as ReplicatedTable[];
export const replicatedTable = z.enum(replicatedTableNames as [ReplicatedTable, ...ReplicatedTable[]]);

/**
 * A position in the change log: "<txid>:<change_id>:<stamp>", opaque to desks.
 * The stamp (the change's time in microseconds) tells this log's change from
 * another with the same ids, written after the server's database went back
 * to a backup (decision 078); a cursor without one is still read.
 */
export const syncCursor = z.string().regex(/^\d+:\d+(:\d+)?$/, { error: 'El cursor de sincronización no es válido.' });
export type SyncCursor = z.infer<typeof syncCursor>;

/** A desk's id: one per replica and signed-in account, bound to that account on first use. */
export const syncClientId = z.uuid({ error: 'El identificador del escritorio no es válido.' });

/** A row's primary key, e.g. { customer_id: 5 }. */
export const rowKey = z.record(z.string(), z.number().int());
export type RowKey = z.infer<typeof rowKey>;

/** A row as JSON (timestamps as ISO strings, money as strings), hidden columns left out. */
export const replicatedRow = z.record(z.string(), z.unknown());

/** One change: the row's state at pull time, or null when it no longer exists. */
export const syncChange = z.object({ table: replicatedTable, key: rowKey, row: replicatedRow.nullable() });
export type SyncChange = z.infer<typeof syncChange>;

export const pullInput = z.object({
  clientId: syncClientId,
  /** null: from the start of the log. */
  cursor: syncCursor.nullable(),
  limit: z.number().int().min(1).max(5000).default(1000),
});
export type PullInput = z.input<typeof pullInput>;

export const pullOutput = z.object({
  /** Where the next pull starts; unchanged when nothing new was committed. */
  cursor: syncCursor,
  changes: z.array(syncChange),
  /** More changes are waiting: pull again at once. */
  more: z.boolean(),
  /** The last of this desk's mutations whose effects are in the log up to `cursor`. */
  lastMutationId: z.number().int().min(0),
  /**
   * Committed changes are waiting behind an older transaction still running
   * (the horizon of decision 008 is cluster-wide): pull again shortly, since
   * their poke has already been sent.
   */
  held: z.boolean(),
});
export type PullOutput = z.infer<typeof pullOutput>;

/** A first sync without replaying the whole log: take the position, copy every table in key order, then pull from the position. */
export const snapshotInput = z.object({
  clientId: syncClientId,
  table: replicatedTable,
  /** Key of the last row of the previous page; null for the first page. */
  after: rowKey.nullable(),
  limit: z.number().int().min(1).max(10000).default(5000),
});
export const snapshotOutput = z.object({ rows: z.array(replicatedRow), more: z.boolean() });
export type SnapshotOutput = z.infer<typeof snapshotOutput>;

export const positionOutput = z.object({ cursor: syncCursor });

// ---------- Mutations a desk can push ----------

/** A staff member's reason (decision 037): null when not given; the service says when one is required. */
const reasonText = z.string().trim().max(300).nullable().default(null);

/** What a card terminal's slip says of a charge, as staff copy it at the counter. */
export const terminalSlip = z.strictObject({
  last4: z.string({ error: 'Escribe los últimos 4 dígitos de la tarjeta.' }).trim().regex(/^\d{4}$/, { error: 'Escribe los últimos 4 dígitos de la tarjeta.' }),
  authorization: z
    .string({ error: 'Escribe el número de autorización del voucher.' })
    .trim()
    .regex(/^[A-Za-z0-9]{4,12}$/, { error: 'Escribe el número de autorización del voucher (de 4 a 12 letras o números).' }),
});

export type TerminalSlip = z.output<typeof terminalSlip>;

/**
 * The customer a desk change is about: a server id, or (negative) the temporary id of a customer this desk
 * registered offline and has not yet heard back about. The server replaces it with the id it gave that
 * registration (decision 113); anywhere else a negative id names nobody (customer/not-found).
 */
export const customerRef = z
  .number({ error: 'Debe ser un número.' })
  .int()
  .min(-maxInt4)
  .max(maxInt4)
  .refine((v) => v !== 0, { error: 'Debe ser un número.' });

/** Args of each desk mutation. The same services back the spec's REST routes. */
export const deskMutationArgs = {
  /**
   * Check-in: marks the reservation attended. `at` is when staff scanned it
   * (the desk's clock), so a check-in made offline and sent the next morning
   * is judged by the day it happened, not the day it arrived.
   */
  checkIn: z.object({ class_reservation_id: id, at: z.iso.datetime({ offset: true }).optional() }),
  /** Walk-in booking on behalf of a customer, with the customer's credits (or membership). */
  walkIn: z.object({
    customer_id: customerRef,
    single_class_id: id,
    spot: id.nullable().default(null),
    guest: z.string().trim().max(120).nullable().default(null),
  }),
  /** Cash collected for a reservation booked to pay at the studio. */
  markReservationPaid: z.object({ class_reservation_id: id }),
  /** Money collected for a pending 'Efectivo' purchase, in cash or as a bank transfer (not drawer cash): grants what it sells. */
  markPurchasePaid: z.object({ purchase_id: id, paid_with: z.enum(['cash', 'transfer']).default('cash') }),
  /** POST /api/customer/giveAccess */
  giveAccess: z.object({
    customer_id: customerRef,
    class_package_id: id,
    /** Days of access; defaults to the package's expiration_days. */
    package_days: id.max(3650).nullable().default(null),
    is_gift: z.boolean().default(false),
    payment_method_id: id.nullable().default(null),
    /** Record an invoice for the amount paid at the desk. */
    bill: z.boolean().default(false),
    /** Why it is given; required for a gift (decision 037), kept in the audit log with who gave it. */
    reason: reasonText,
    /** A card charged on the counter's terminal: the slip's last four digits and authorization, to match the terminal's report. */
    terminal: terminalSlip.nullable().default(null),
  }),
  /**
   * A sale at the counter: packages and products in one cart, an optional discount code (for the packages it
   * applies to), paid with one payment method. Each package is a purchase granted as giveAccess grants it; each
   * product takes its units from the stock; the money goes into the seller's open drawer (cash) or beside it.
   */
  sellAtDesk: z.object({
    customer_id: customerRef,
    packages: z.array(cartPackageLine).max(10, { error: 'Vende hasta 10 paquetes a la vez.' }).default([]),
    products: z.array(cartProductLine).max(30, { error: 'Vende hasta 30 productos distintos a la vez.' }).default([]),
    discount_code: z.string().trim().max(64).nullable().default(null),
    payment_method_id: id,
    bill: z.boolean().default(false),
    terminal: terminalSlip.nullable().default(null),
    /** Paid partly in cash: the cash part (the rest goes on the card, `payment_method_id`); null when all is paid one way. */
    cash_part: drawerAmount('la parte en efectivo').nullable().default(null),
  }),
  /** PUT /api/customer/revokeAccess; the reason is required (decision 037). */
  revokeAccess: z.object({ purchase_id: id, reason: reasonText }),
  /** PUT /api/customer/removeClasses; the reason is required (decision 037). */
  removeClasses: z.object({ customer_id: customerRef, amount: id, reason: reasonText }),
  // Decision 017: customer_id and single_class_id name whom and which class a change is about,
  // also when the server refuses it; the server checks they are the reservation's own.
  /**
   * Cancels a reservation at the desk. Without `return_credit` the spec's rules decide (as if the customer
   * cancelled, at `at`: the desk's time); with it, staff override the rules and must give a `reason`,
   * recorded with who did it in the audit log.
   */
  cancelReservation: z.object({
    class_reservation_id: id,
    customer_id: id,
    single_class_id: id,
    at: z.iso.datetime({ offset: true }).optional(),
    return_credit: z.boolean().nullable().default(null),
    reason: z.string().trim().max(300).nullable().default(null),
  }),
  /** Undoes a mistaken check-in: the reservation is no longer attended. */
  undoCheckIn: z.object({ class_reservation_id: id, customer_id: id, single_class_id: id }),
  /** Moves a reservation to another class (`single_class_id`, the new one) in one step, with its credit. */
  moveReservation: z.object({
    class_reservation_id: id,
    customer_id: id,
    from_single_class_id: id,
    single_class_id: id,
    spot: id.nullable().default(null),
  }),
  /** Adds a customer to a full class's waitlist (the portal's rules). */
  joinWaitlist: z.object({ customer_id: customerRef, single_class_id: id }),
  /** Takes a customer off a class's waitlist. Promoting them is a walkIn, which also leaves the waitlist. */
  leaveWaitlist: z.object({ customer_id: customerRef, single_class_id: id }),
  /**
   * Decision 018: staff showed the customer these documents (pages) at the counter and the
   * customer accepted them in person. `at` is when, on the desk's clock; who is the signed-in staff (audit log).
   */
  acceptDocuments: z.object({
    customer_id: customerRef,
    page_ids: z.array(id).min(1, { error: 'Elige al menos un documento.' }).max(50),
    /**
     * The version of each page staff showed (decision 122): she accepted that text, so that is the version recorded,
     * even when a newer one reached the server while the desk was offline (the newer one stays pending).
     */
    versions_read: z.array(z.object({ page_id: id, version: z.number().int().positive().max(maxInt4) })).max(50).optional(),
    at: z.iso.datetime({ offset: true }).optional(),
  }),
  /** A note or an alert on a customer (POST /customer/notes), written by the signed-in staff member; health notes go over /api. */
  addCustomerNote: z.object({ customer_id: customerRef, kind: deskNoteKind, body: customerNoteBody }),
  /**
   * A first-time walk-in registered at the counter (POST /api/customer's fields), queued like any change when the
   * desk is offline: the customer gets the mutation's temporary id until the server answers with its own. At the
   * push, an e-mail (then a phone) already registered names that customer instead of a second one, and staff are told.
   */
  registerCustomer: customerCreateInput,
  /** Removes a note (DELETE /customer/notes/{id}); customer_id names whose it is, checked against the note. */
  removeCustomerNote: z.object({ customer_note_id: id, customer_id: id }),
} as const;

export type DeskMutationName = keyof typeof deskMutationArgs;
export type DeskMutationArgs<N extends DeskMutationName> = z.output<(typeof deskMutationArgs)[N]>;
export const deskMutationNames = Object.keys(deskMutationArgs) as DeskMutationName[];

const mutationOf = <N extends DeskMutationName>(name: N) =>
  z.object({
    id: z.number().int().positive(),
    name: z.literal(name),
    args: deskMutationArgs[name],
    /** When staff did it, on the desk's clock (the activity log's "at the desk" time); older desks send none. */
    at: z.iso.datetime({ offset: true }).optional(),
    /** The temporary id the desk gave what this change creates (a customer registered offline), so later changes can name it. */
    temp_id: z.number().int().min(-maxInt4).max(-1).optional(),
  });

/** One pushed mutation: ids increase by one per client, starting at 1. */
export const deskMutation = z.discriminatedUnion('name', [
  mutationOf('checkIn'),
  mutationOf('walkIn'),
  mutationOf('markReservationPaid'),
  mutationOf('markPurchasePaid'),
  mutationOf('giveAccess'),
  mutationOf('sellAtDesk'),
  mutationOf('revokeAccess'),
  mutationOf('removeClasses'),
  mutationOf('cancelReservation'),
  mutationOf('undoCheckIn'),
  mutationOf('moveReservation'),
  mutationOf('joinWaitlist'),
  mutationOf('leaveWaitlist'),
  mutationOf('acceptDocuments'),
  mutationOf('addCustomerNote'),
  mutationOf('removeCustomerNote'),
  mutationOf('registerCustomer'),
]);
export type DeskMutation = z.output<typeof deskMutation>;

export const pushInput = z.object({
  clientId: syncClientId,
  mutations: z.array(deskMutation).min(1).max(500),
  /** The desk's position in the log: a server whose history no longer has it refuses the push (sync/reset-required, decision 078). */
  cursor: syncCursor.nullable().optional(),
});
export type PushInput = z.input<typeof pushInput>;

export const mutationResult = z.object({
  id: z.number().int().positive(),
  /** applied; rejected by a domain rule (rolled back, reason below); duplicate: an earlier push already did it. */
  status: z.enum(['applied', 'rejected', 'duplicate']),
  code: z.string().optional(),
  message: z.string().optional(),
  /** What the server's id is for the row the change created under its temp_id (a customer registered offline). */
  created_id: z.number().int().positive().optional(),
  /** What staff should know about how it was applied (the e-mail was already a customer's), in Spanish. */
  notice: z.string().optional(),
});
export type MutationResult = z.infer<typeof mutationResult>;

export const pushOutput = z.object({ results: z.array(mutationResult), lastMutationId: z.number().int().min(0) });
export type PushOutput = z.infer<typeof pushOutput>;

/** What the live poke says: the log moved, pull. */
export const pokeEvent = z.object({ at: z.number() });
