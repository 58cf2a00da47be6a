import { maxInt4, z } from '../zod.ts';

/**
 * The fields every schema of the API shares, defined once. Not exported from
 * core's index: schemas import them; callers see them inside the schemas.
 */

/** An id in a path or query (text that must be a positive int4). */
export const id = z.coerce.number({ error: 'Debe ser un número.' }).int().positive().max(maxInt4);
/** An id in a JSON body (a number, never text). */
export const bodyId = z.number({ error: 'Debe ser un número.' }).int().positive().max(maxInt4);
/** A date-time as the API answers it (ISO text). */
export const isoDateTime = z.string();
/** An amount as the API answers it ('1350.00'). */
export const money = z.string();
/** A subscription's or a trial's period unit. */
export const periodEnum = z.enum(['day', 'week', 'month', 'year']);
/** A list position set by the studio. */
export const order = z.number().int().min(0).max(100_000);
