/**
 * The logger a service writes to. The HTTP layer hands it Fastify's (pino)
 * logger; services name only this, so they never import the web framework.
 */
type LogFn = (fields: object, message?: string) => void;

export interface Log {
  info: LogFn;
  warn: LogFn;
  error: LogFn;
  debug: LogFn;
}
