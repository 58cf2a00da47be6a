import { audit_log, type DbOrTx } from '@estudio/db';

export interface AuditEntry {
  /** The staff or admin customer making the change. */
  actorId: number;
  action: string;
  entity: string;
  entityId?: string | number | null;
  /** The fields sent or changed; never passwords or tokens. */
  changes?: unknown;
}

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
  });
}
