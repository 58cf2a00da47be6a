import type { AvailableClassOutput } from '@estudio/core';
import { class_type } from '@estudio/db/schema/catalogue';
import { available_classes } from '@estudio/db/schema/purchases';

export type CreditRow = typeof available_classes.$inferSelect;
type ClassTypeRow = typeof class_type.$inferSelect;

/** The spec's available_class envelope with its class type summary (class_types; null: any type). */
export function toCreditOutput(row: CreditRow, type: ClassTypeRow | null): AvailableClassOutput {
  return {
    available_class_id: row.available_class_id,
    customer_id: row.customer_id,
    purchase_id: row.purchase_id,
    available_classes: row.available_classes,
    expiration_date: row.expiration_date?.toISOString() ?? null,
    class_type_id: row.class_type_id,
    class_types: type
      ? { class_type_id: type.class_type_id, name: type.name, icon: type.icon, description: type.description, spot_map: type.spot_map, level: type.level, what_to_bring: type.what_to_bring }
      : null,
    allowed_times: row.allowed_times,
    cancels_used: row.cancels_used,
    createdAt: row.createdAt.toISOString(),
  };
}
