import {
  activityKindOf,
  activityKindRules,
  activitySentence,
  appConfigDefaults,
  refusedActivityKind,
  refusedChangeSentence,
  refusedChangeWhat,
  studioDayRange,
  type ActivityEntry,
  type ActivityKind,
} from '@estudio/core';
import { and, eq, gte, inArray, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { audit_log } from '@estudio/db/schema/audit';
import { app_config } from '@estudio/db/schema/app-config';
import { customer } from '@estudio/db/schema/customer';
import { class_package } from '@estudio/db/schema/packages';
import { purchase } from '@estudio/db/schema/purchases';
import { class_reservation } from '@estudio/db/schema/reservations';
import { sync_mutation } from '@estudio/db/schema/sync';
import type { Db } from '../../db.ts';

const pageSize = 30;

export interface ActivityFilter {
  staffId?: number | undefined;
  customerId?: number | undefined;
  kind?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  page: number;
}

/**
 * Whom an audit row is about (decision 037): the customer it names
 * (entity 'customer'), the customer in its changes (reservations), or the
 * buyer of the purchase it names (refunds).
 */
const subjectId = sql<number | null>`coalesce(
  case when ${audit_log.entity} = 'customer' and ${audit_log.entity_id} ~ '^[0-9]{1,9}$' then ${audit_log.entity_id}::int end,
  case when jsonb_typeof(${audit_log.changes}) = 'object' and (${audit_log.changes}->>'customer_id') ~ '^[0-9]{1,9}$' then (${audit_log.changes}->>'customer_id')::int end,
  ${purchase.customer_id}
)`;

/** A desk mutation's integer argument, or null (the args are the desk's JSON). */
const argId = (key: string) =>
  sql<number | null>`case when (${sync_mutation.args}->>${key}) ~ '^[0-9]{1,9}$' then (${sync_mutation.args}->>${key})::int end`;

/**
 * Whom a refused desk change was about (decision 039): the customer its args
 * name, else the buyer of the purchase (revokeAccess), else the reservation's
 * customer (checkIn, markReservationPaid).
 */
const refusedSubjectId = sql<number | null>`coalesce(
  ${argId('customer_id')},
  (select ${purchase.customer_id} from ${purchase} where ${purchase.purchase_id} = ${argId('purchase_id')}),
  (select ${class_reservation.customer_id} from ${class_reservation} where ${class_reservation.class_reservation_id} = ${argId('class_reservation_id')})
)`;

/**
 * What staff did, newest first, 30 a page, as sentences people read
 *: filtered by the staff member, the customer it was about, the
 * kind (core's closed list) and studio days. Read by the console's Actividad
 * and by a customer's card.
 *
 * Beside audit_log it lists what a desk pushed and the server refused
 * (sync_mutation, status 'rejected'; decision 039): kind 'refusedBySync',
 * with the desk, what was attempted and the server's Spanish reason. The two
 * are merged in SQL (one ordered page), then each page's rows are read whole.
 */
export async function listActivity(db: Db, filter: ActivityFilter): Promise<{ entries: ActivityEntry[]; page: number; pages: number; total: number }> {
  const staff = alias(customer, 'staff');
  const subject = alias(customer, 'subject');
  const where: SQL[] = [];
  const refusedWhere: SQL[] = [eq(sync_mutation.status, 'rejected')];
  const onlyRefused = filter.kind === refusedActivityKind;
  const noRefused = Boolean(filter.kind) && !onlyRefused;
  if (filter.staffId) {
    where.push(eq(audit_log.customer_id, filter.staffId));
    refusedWhere.push(eq(sync_mutation.customer_id, filter.staffId));
  }
  if (filter.customerId) {
    where.push(sql`${subjectId} = ${filter.customerId}`);
    refusedWhere.push(sql`${refusedSubjectId} = ${filter.customerId}`);
  }
  if (filter.kind && Object.hasOwn(activityKindRules, filter.kind)) {
    const pairs = activityKindRules[filter.kind as ActivityKind].map(([entity, action]) => and(eq(audit_log.entity, entity), eq(audit_log.action, action)));
    const any = or(...pairs);
    if (any) where.push(any);
  }
  if (filter.from || filter.to) {
    const [tzRow] = await db.select({ value: app_config.value }).from(app_config).where(eq(app_config.key, 'timezone'));
    const range = studioDayRange(filter.from ?? '2000-01-01', filter.to ?? '2999-12-31', tzRow?.value || appConfigDefaults.timezone);
    if (filter.from) {
      where.push(gte(audit_log.createdAt, range.from));
      refusedWhere.push(gte(sync_mutation.createdAt, range.from));
    }
    if (filter.to) {
      where.push(lte(audit_log.createdAt, range.to));
      refusedWhere.push(lte(sync_mutation.createdAt, range.to));
    }
  }
  if (onlyRefused) where.push(sql`false`);
  if (noRefused) refusedWhere.push(sql`false`);
  const condition = where.length ? and(...where) : undefined;
  const refusedCondition = and(...refusedWhere);
  const joinPurchase = and(eq(audit_log.entity, 'purchase'), sql`${audit_log.entity_id} = ${purchase.purchase_id}::text`);

  const [auditCount] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(audit_log)
    .leftJoin(purchase, joinPurchase)
    .where(condition);
  const [refusedCount] = await db.select({ n: sql<number>`count(*)::int` }).from(sync_mutation).where(refusedCondition);
  const total = Number(auditCount?.n ?? 0) + Number(refusedCount?.n ?? 0);

  // One page of keys from both sources, newest first.
  const auditKeys = db
    .select({ source: sql<string>`'audit'`.as('source'), key: sql<string>`${audit_log.audit_log_id}::text`.as('key'), at: sql<Date>`${audit_log.createdAt}`.as('at') })
    .from(audit_log)
    .leftJoin(purchase, joinPurchase)
    .where(condition);
  const refusedKeys = db
    .select({
      source: sql<string>`'refused'`.as('source'),
      key: sql<string>`${sync_mutation.client_id} || '/' || ${sync_mutation.mutation_id}::text`.as('key'),
      at: sql<Date>`${sync_mutation.createdAt}`.as('at'),
    })
    .from(sync_mutation)
    .where(refusedCondition);
  const keys = await auditKeys
    .unionAll(refusedKeys)
    .orderBy(sql`"at" desc`, sql`"source" desc`, sql`"key" desc`)
    .limit(pageSize)
    .offset((filter.page - 1) * pageSize);

  const auditIds = keys.filter((k) => k.source === 'audit').map((k) => Number(k.key));
  const refusedPairs = keys.filter((k) => k.source === 'refused').map((k) => k.key);
  const byKey = new Map<string, ActivityEntry>();

  if (auditIds.length) {
    const rows = await db
      .select({
        id: audit_log.audit_log_id,
        at: audit_log.createdAt,
        entity: audit_log.entity,
        action: audit_log.action,
        entityId: audit_log.entity_id,
        changes: audit_log.changes,
        deskId: audit_log.desk_id,
        occurredAt: audit_log.occurredAt,
        staffId: staff.customer_id,
        staffName: staff.name,
        staffLastName: staff.last_name,
        staffEmail: staff.email,
        subjectId: subject.customer_id,
        subjectName: subject.name,
        subjectLastName: subject.last_name,
      })
      .from(audit_log)
      .leftJoin(purchase, joinPurchase)
      .leftJoin(staff, eq(staff.customer_id, audit_log.customer_id))
      .leftJoin(subject, sql`${subject.customer_id} = ${subjectId}`)
      .where(inArray(audit_log.audit_log_id, auditIds));
    for (const r of rows) {
      const { actor, customerName, staff, customer } = peopleOf(r);
      byKey.set(`audit:${r.id}`, {
        id: `audit-${r.id}`,
        audit_log_id: r.id,
        at: r.at.toISOString(),
        kind: activityKindOf(r.entity, r.action),
        text: activitySentence({ entity: r.entity, action: r.action, entityId: r.entityId, changes: r.changes, actor, customerName }),
        staff,
        customer,
        reason: reasonIn(r.changes),
        desk: r.deskId ? { id: r.deskId.slice(0, 8), occurred_at: (r.occurredAt ?? r.at).toISOString() } : null,
        refused: null,
      });
    }
  }

  if (refusedPairs.length) {
    const rows = await db
      .select({
        clientId: sync_mutation.client_id,
        mutationId: sync_mutation.mutation_id,
        at: sync_mutation.createdAt,
        name: sync_mutation.name,
        args: sync_mutation.args,
        code: sync_mutation.error_code,
        message: sync_mutation.error_message,
        staffId: staff.customer_id,
        staffName: staff.name,
        staffLastName: staff.last_name,
        staffEmail: staff.email,
        subjectId: subject.customer_id,
        subjectName: subject.name,
        subjectLastName: subject.last_name,
        packageTitle: class_package.title,
      })
      .from(sync_mutation)
      .leftJoin(staff, eq(staff.customer_id, sync_mutation.customer_id))
      .leftJoin(subject, sql`${subject.customer_id} = ${refusedSubjectId}`)
      .leftJoin(class_package, sql`${class_package.class_package_id} = ${argId('class_package_id')}`)
      .where(and(eq(sync_mutation.status, 'rejected'), inArray(sql`${sync_mutation.client_id} || '/' || ${sync_mutation.mutation_id}::text`, refusedPairs)));
    for (const r of rows) {
      const { actor, customerName, staff, customer } = peopleOf(r);
      const facts = { name: r.name, args: r.args, actor, customerName, packageTitle: r.packageTitle, desk: r.clientId, message: r.message };
      byKey.set(`refused:${r.clientId}/${r.mutationId}`, {
        id: `refused-${r.clientId}-${r.mutationId}`,
        audit_log_id: null,
        at: r.at.toISOString(),
        kind: refusedActivityKind,
        text: refusedChangeSentence(facts),
        staff,
        customer,
        reason: reasonIn(r.args),
        desk: { id: r.clientId.slice(0, 8), occurred_at: r.at.toISOString() },
        refused: { desk: r.clientId.slice(0, 8), attempted: refusedChangeWhat(facts), code: r.code, message: r.message },
      });
    }
  }

  const entries = keys.flatMap((k) => byKey.get(`${k.source}:${k.key}`) ?? []);
  return { entries, page: filter.page, pages: Math.max(1, Math.ceil(total / pageSize)), total };
}

/** The staff member and the customer of an entry's row (both left-joined, so either may be missing). */
function peopleOf(r: {
  staffId: number | null;
  staffName: string | null;
  staffLastName: string | null;
  staffEmail: string | null;
  subjectId: number | null;
  subjectName: string | null;
  subjectLastName: string | null;
}) {
  const actor = r.staffId !== null ? { name: `${r.staffName ?? ''} ${r.staffLastName ?? ''}`.trim(), email: r.staffEmail } : null;
  const customerName = r.subjectId !== null ? `${r.subjectName ?? ''} ${r.subjectLastName ?? ''}`.trim() : null;
  return {
    actor,
    customerName,
    staff: actor && r.staffId !== null ? { customer_id: r.staffId, name: actor.name, email: actor.email } : null,
    customer: customerName !== null && r.subjectId !== null ? { customer_id: r.subjectId, name: customerName } : null,
  };
}

/** The reason a staff member gave, kept in the change's JSON (an audit row's changes, a desk mutation's args). */
function reasonIn(json: unknown): string | null {
  const reason = json && typeof json === 'object' ? (json as Record<string, unknown>).reason : undefined;
  return typeof reason === 'string' && reason.trim() ? reason.trim() : null;
}

/** The staff members Actividad can be filtered by: Recepción and administrators, by name. */
export async function listStaffMembers(db: Db): Promise<{ customer_id: number; name: string; email: string }[]> {
  const rows = await db
    .select({ customer_id: customer.customer_id, name: customer.name, last_name: customer.last_name, email: customer.email })
    .from(customer)
    .where(or(eq(customer.role, 'staff'), eq(customer.role, 'admin')))
    .orderBy(customer.name, customer.last_name);
  return rows.map((r) => ({ customer_id: r.customer_id, name: `${r.name} ${r.last_name}`.trim(), email: r.email }));
}
