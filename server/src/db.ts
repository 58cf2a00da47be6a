import type { DbOrTx } from '@estudio/db';

export { isUniqueViolation } from '@estudio/db/errors';

/**
 * What services receive: a database on either driver (PGlite or postgres.js)
 * or a transaction of one, so a service composes inside its caller's transaction.
 */
export type Db = DbOrTx;
