import { audit_log, type DbOrTx } from '@estudio/db';
import type { DeskOrigin, StaffActor } from '../permissions/staff-permissions.ts';

export interface AuditEntry {
  /** The staff or admin customer making the change. */
  actorId: number;
  /** The desk that pushed it and when it happened there; absent for the console and the API. */
  desk?: DeskOrigin | undefined;
  action: string;
  entity: string;
  entityId?: string | number | null;
  /** The fields sent or changed; never passwords or tokens. */
  changes?: unknown;
}

/** Who did it, for an AuditEntry: the staff member and, for a desk's push, the desk and its time. */
export const auditedBy = (actor: StaffActor): Pick<AuditEntry, 'actorId' | 'desk'> => ({ actorId: actor.customer_id, desk: actor.desk });

/**
 * Records an admin write in audit_log. Call it with the transaction of the
 * write itself, so a change and its record commit or roll back together.
 */
export async function recordAudit(db: DbOrTx, entry: AuditEntry): Promise<void> {
  await db.insert(audit_log).values({
    customer_id: entry.actorId,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId === undefined || entry.entityId === null ? null : String(entry.entityId),
    changes: entry.changes ?? null,
    desk_id: entry.desk?.id ?? null,
    occurredAt: entry.desk?.at ?? null,
  });
}
