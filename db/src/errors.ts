/**
 * PostgreSQL error inspection that works for both drivers: drizzle wraps the
 * driver error (PGlite DatabaseError or postgres.js PostgresError) in `cause`.
 */
interface PgErrorFields {
  code?: string;
  constraint?: string;
  constraint_name?: string;
}

function findPgError(err: unknown): PgErrorFields | undefined {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const fields = e as PgErrorFields & { cause?: unknown };
    if (typeof fields.code === 'string' && /^[0-9A-Z]{5}$/.test(fields.code)) return fields;
    e = fields.cause;
  }
  return undefined;
}

/** The SQLSTATE of a database error (e.g. '23505'), or undefined when `err` is not one. */
export function pgErrorCode(err: unknown): string | undefined {
  return findPgError(err)?.code;
}

/** Name of the violated constraint or index, when the database reported it. */
export function pgConstraint(err: unknown): string | undefined {
  const e = findPgError(err);
  return e?.constraint ?? e?.constraint_name;
}

/** True for a unique violation, optionally of one named constraint/index (e.g. 'class_reservation_spot_key'). */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  return pgErrorCode(err) === '23505' && (constraint === undefined || pgConstraint(err) === constraint);
}

/** True for a CHECK violation, optionally of one named constraint. */
export function isCheckViolation(err: unknown, constraint?: string): boolean {
  return pgErrorCode(err) === '23514' && (constraint === undefined || pgConstraint(err) === constraint);
}

/** Codes of a connection that is gone: the postgres.js driver's own, and the socket's. */
const lostConnectionCodes = new Set(['CONNECTION_CLOSED', 'CONNECTION_ENDED', 'CONNECTION_DESTROYED', 'CONNECT_TIMEOUT', 'ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ERR_STREAM_DESTROYED']);

/**
 * True when the query failed because the connection to PostgreSQL was lost
 * (terminated backend, server shut down or restarting, network cut): SQLSTATE
 * class 08, 57P01–57P03, or the driver's connection errors. A transaction
 * cut before its commit was rolled back by the server; the request may be
 * tried again.
 */
export function isConnectionLost(err: unknown): boolean {
  for (let e = err, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || lostConnectionCodes.has(code))) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
