import { sql, type SQL } from 'drizzle-orm';
import { class_type, room } from './schema/catalogue.ts';
import { single_class } from './schema/schedule.ts';

/**
 * A class's seat map in SQL, core's classSeatMap as one expression (decision
 * 140): its room's map when the class is in a room that has one, else its
 * class type's. For a query over single_class joined to its class_type; the
 * server's reads, the desk's replica and the offline walk-in all use it, so
 * the rule is written once.
 */
export function classSpotMapSql(): SQL<string | null> {
  return sql<string | null>`coalesce((select r.spot_map from ${room} r where r.room_id = ${single_class.room_id}), ${class_type.spot_map})`;
}
