import { integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.ts';

export const importLineKinds = ['credit', 'booking'] as const;

/**
 * A line of another system's export already brought over (decision 127): its kind and a key made from what the line
 * says (and which time the same content appears in its file), with the record it made. Run again on the same file,
 * the import finds each line here and makes nothing twice.
 */
export const import_line = pgTable(
  'import_line',
  {
    import_line_id: integer('import_line_id').primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: importLineKinds }).notNull(),
    key: text('key').notNull(),
    /** The credit row (available_class_id) or the booking (class_reservation_id) the line made. */
    entity_id: integer('entity_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('import_line_kind_key_key').on(t.kind, t.key)],
);
