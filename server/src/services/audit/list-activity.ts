import { activityKindOf, activityKindRules, activitySentence, appConfigDefaults, studioDayRange, type ActivityEntry, type ActivityKind } from '@estudio/core';
import { and, desc, eq, gte, lte, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { audit_log } from '@estudio/db/schema/audit';
import { app_config } from '@estudio/db/schema/app-config';
import { customer } from '@estudio/db/schema/customer';
import { purchase } from '@estudio/db/schema/purchases';
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

/**
 * What staff did, newest first, 30 a page, as sentences people read
 * (issue 19.5): filtered by the staff member, the customer it was about, the
 * kind (core's closed list) and studio days. Read by the console's Actividad
 * and by a customer's card.
 */
export async function listActivity(db: Db, filter: ActivityFilter): Promise<{ entries: ActivityEntry[]; page: number; pages: number; total: number }> {
  const staff = alias(customer, 'staff');
  const subject = alias(customer, 'subject');
  const where: SQL[] = [];
  if (filter.staffId) where.push(eq(audit_log.customer_id, filter.staffId));
  if (filter.customerId) where.push(sql`${subjectId} = ${filter.customerId}`);
  if (filter.kind && Object.hasOwn(activityKindRules, filter.kind)) {
    const pairs = activityKindRules[filter.kind as ActivityKind].map(([entity, action]) => and(eq(audit_log.entity, entity), eq(audit_log.action, action)));
    const any = or(...pairs);
    if (any) where.push(any);
  }
  if (filter.from || filter.to) {
    const [tzRow] = await db.select({ value: app_config.value }).from(app_config).where(eq(app_config.key, 'timezone'));
    const range = studioDayRange(filter.from ?? '2000-01-01', filter.to ?? '2999-12-31', tzRow?.value || appConfigDefaults.timezone);
    if (filter.from) where.push(gte(audit_log.createdAt, range.from));
    if (filter.to) where.push(lte(audit_log.createdAt, range.to));
  }
  const condition = where.length ? and(...where) : undefined;
  const joinPurchase = and(eq(audit_log.entity, 'purchase'), sql`${audit_log.entity_id} = ${purchase.purchase_id}::text`);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(audit_log)
    .leftJoin(purchase, joinPurchase)
    .where(condition);
  const total = Number(count?.n ?? 0);
  const rows = await db
    .select({
      id: audit_log.audit_log_id,
      at: audit_log.createdAt,
      entity: audit_log.entity,
      action: audit_log.action,
      entityId: audit_log.entity_id,
      changes: audit_log.changes,
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
    .where(condition)
    .orderBy(desc(audit_log.createdAt), desc(audit_log.audit_log_id))
    .limit(pageSize)
    .offset((filter.page - 1) * pageSize);
  const entries = rows.map((r): ActivityEntry => {
    const actor = r.staffId !== null ? { name: `${r.staffName ?? ''} ${r.staffLastName ?? ''}`.trim(), email: r.staffEmail } : null;
    const customerName = r.subjectId !== null ? `${r.subjectName ?? ''} ${r.subjectLastName ?? ''}`.trim() : null;
    const reason = r.changes && typeof r.changes === 'object' ? (r.changes as Record<string, unknown>).reason : undefined;
    return {
      audit_log_id: r.id,
      at: r.at.toISOString(),
      kind: activityKindOf(r.entity, r.action),
      text: activitySentence({ entity: r.entity, action: r.action, entityId: r.entityId, changes: r.changes, actor, customerName }),
      staff: actor && r.staffId !== null ? { customer_id: r.staffId, name: actor.name, email: actor.email } : null,
      customer: customerName !== null && r.subjectId !== null ? { customer_id: r.subjectId, name: customerName } : null,
      reason: typeof reason === 'string' && reason.trim() ? reason.trim() : null,
    };
  });
  return { entries, page: filter.page, pages: Math.max(1, Math.ceil(total / pageSize)), total };
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
