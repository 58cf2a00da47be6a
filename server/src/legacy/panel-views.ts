import { roleNames, type Role } from '@estudio/core';
import { wallAsUtc, type Json } from './shapes.ts';

/**
 * What the previous panel's screens read, built from the spec's answers
 * (decision 094). Pure: the routes in legacy-admin.ts call the procedures
 * and hand their answers here. server/test/legacy/legacy-screens.test.ts reads
 * the paths its screens dereference.
 */

/** Our roles in the panel's words (its Usuarios screen offers admin, manager and coach; a manager is our Recepción). */
export const panelRoleWords: Record<Role, string> = { admin: 'admin', staff: 'manager', coach: 'coach', customer: 'customer' };

interface Person {
  customer_id: number;
  name: string;
  last_name: string;
  email: string;
}

/** The person inside a panel user (`user.customer.name` in its side menu and Usuarios). */
const personOf = (p: Person) => ({ customer_id: p.customer_id, name: p.name, last_name: p.last_name, email: p.email });

/**
 * GET /users as the panel reads it: the spec's user, plus `user_id` and the
 * person in `customer`. `role` stays the stored role (decision 032): the
 * panel shows its admin menus for 'admin' and 'manager' only, and our
 * Recepción works the desk, so it sees Clases and Asistentes.
 */
export function panelCurrentUser(user: { customer_id: number | null; name: string | null; last_name: string | null; email: string | null } & Json): Json {
  const customer =
    user.customer_id === null ? null : personOf({ customer_id: user.customer_id, name: user.name ?? '', last_name: user.last_name ?? '', email: user.email ?? '' });
  return { ...user, user_id: user.customer_id, customer };
}

/** A row of Usuarios: the account's id as `user_id`, its role in the panel's words (what its role picker writes back), the person inside. */
export function panelStaffRow(row: Person & { role: Role } & Json): Json {
  return { ...row, user_id: row.customer_id, role: panelRoleWords[row.role], role_name: roleNames[row.role], customer: personOf(row) };
}

/** An Instagram account as the panel shows it: it writes the '@' itself. */
export const instagramHandle = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value.trim().replace(/^@+/, '') : null);

/** A roster row as the panel's AsistenteRow reads it: the booker in `customer`, and beside it the Instagram, phone, birthday and seat (as text: its seat map compares texts). */
export function panelAttendee(reservation: Json & { customer: Json; spot: number | null }): Json {
  const who = reservation.customer;
  return {
    ...reservation,
    spot: reservation.spot === null ? null : String(reservation.spot),
    instagram: instagramHandle(who.instagram),
    phone: who.phone ?? null,
    birthday: who.birthdate ?? null,
  };
}

/** A customer row of Clientes and of the analytics' lists: what it reads (birthdate, and `value`, what the customer has paid in all). */
export function panelCustomerRow(row: Json & { customer_id: number }, value?: string): Json {
  return { ...row, birthdate: row.birthdate ?? null, phone: row.phone ?? null, value: value ?? row.value ?? '0.00' };
}

/** How a purchase was paid, as the panel names it (`payment_method.name`). */
const paymentKindNames: Record<string, string> = { card: 'Tarjeta', cash: 'Efectivo', paypal: 'PayPal', gift: 'Cortesía', free: 'Sin costo' };

/**
 * A purchase on the customer's screen: its package in `class_package`
 * (never undefined: the panel reads `.title` unless it is null), the day it
 * was made as the studio's wall clock marked UTC (it formats it with
 * `.utc()`), and `admin_enabled` when staff gave it at the desk.
 */
export function panelPurchase(p: Json & { createdAt: string }, zone: string): Json {
  const pkg = p.class_package ?? (typeof p.title === 'string' ? { title: p.title } : null);
  return {
    ...p,
    class_package: pkg,
    createdAt: wallAsUtc(p.createdAt, zone),
    created_at_utc: p.createdAt,
    admin_enabled: p.provider === 'admin' || p.is_gift === true,
    subscription_id: p.subscription_id ?? null,
    subscription_period: p.subscription_period ?? null,
  };
}

/** The customer's charges (Cargos): one row per invoice of her purchases, each with its package, amount, status and how it was paid. */
export function panelInvoices(purchases: (Json & { purchase_id: number })[]): Json[] {
  return purchases.flatMap((p) =>
    (Array.isArray(p.invoices) ? (p.invoices as Json[]) : []).map((invoice) => ({
      ...invoice,
      purchase_id: p.purchase_id,
      customer_id: p.customer_id,
      class_package: p.class_package ?? (typeof p.title === 'string' ? { title: p.title } : null),
      purchase: { purchase_id: p.purchase_id, payment_method: p.payment_method ?? null },
    })),
  );
}

/**
 * The customer's credits in the panel's meaning: it counts the entries of
 * `available_classes` as classes (`available_classes.length`), so each
 * usable class is an entry of its own, with the credit it belongs to. An
 * unlimited credit (-1) is one entry marked `unlimited`.
 */
export function panelCredits(credits: (Json & { available_classes: number })[]): Json[] {
  return credits.flatMap((credit) => {
    const { available_classes: amount, ...rest } = credit;
    if (amount < 0) return [{ ...rest, unlimited: true }];
    return Array.from({ length: Math.min(amount, 10_000) }, () => ({ ...rest, unlimited: false }));
  });
}

/**
 * A coach as the panel's Coaches reads it: `idAdjunto` (its photo's file,
 * shown from /adjuntos/{id}), `user_id` and `user` (the account linked to
 * the coach, decision 045, with the person in `user.customer`; null when
 * none: the panel tests `coach.user !== null`).
 */
export function panelCoach(coach: Json & { file_id?: number | null }, account: Person | null): Json {
  return {
    ...coach,
    idAdjunto: coach.file_id ?? null,
    user_id: account?.customer_id ?? null,
    user: account ? { user_id: account.customer_id, customer: personOf(account) } : null,
  };
}

/** A discount as the panel's Descuentos reads and writes it: its dates as the studio's days, its per-customer limit by the panel's name. */
export function panelDiscount(d: Json & { starts_at?: string | null; expires_at?: string | null }, studioDay: (iso: string) => string): Json {
  return {
    ...d,
    start_date: d.starts_at ? studioDay(d.starts_at) : null,
    expiration_date: d.expires_at ? studioDay(d.expires_at) : null,
    limit_per_customer: d.max_uses_per_customer ?? null,
  };
}

/** A package as the panel reads it: its name for the people limit (customer_limit, which its form edits) beside ours. */
export function panelPackage(p: Json): Json {
  return { ...p, customer_limit: p.people_limit ?? null };
}

/** A category as the panel's form reads it: its «¿Es gratis?» switch (Estudio has no free categories: false). */
export function panelCategory(c: Json): Json {
  return { ...c, is_free: false };
}

/** A package of the panel's Home, which compares and removes by `package_class_id`, its name of class_package_id. */
export function panelHomePackage(p: Json): Json {
  return { ...p, package_class_id: p.class_package_id ?? null };
}

/** A class type with the panel's name of its seat map (`mapa`, which Tipos de Clase shows and edits). */
export function panelClassType(t: Json): Json {
  return { ...t, mapa: t.spot_map ?? null };
}

/** A purchase of Órdenes: its package, the customer with her charges (a star marks a first purchase) and how it was paid. */
export function panelOrder(row: Json & { customer_id: number; payment_kind: string; title: string }, person: { name: string; last_name: string } | undefined, invoices: Json[]): Json {
  return {
    ...row,
    class_package: { class_package_id: row.class_package_id, title: row.title },
    customer: { customer_id: row.customer_id, name: person?.name ?? '', last_name: person?.last_name ?? '', invoices },
    payment_method: { name: paymentKindNames[row.payment_kind] ?? row.payment_kind },
    admin_enabled: false,
    subscription_id: row.subscription_id ?? null,
  };
}

/** Our payment kinds in the panel's words, for the income report (`payment_methods[i].name`). */
export function paymentKindName(kind: string): string {
  return paymentKindNames[kind] ?? kind;
}
