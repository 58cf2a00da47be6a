import { types, type PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite';

const asText = (value: string) => value;

/**
 * The types drizzle's PGlite driver reads as PostgreSQL's text (its own
 * column mappers parse them): timestamps, dates, intervals and their arrays,
 * and numeric arrays. The same list as drizzle-orm/pglite's session.
 */
export const textParsers: Record<number, (value: string) => string> = {
  [types.TIMESTAMP]: asText,
  [types.TIMESTAMPTZ]: asText,
  [types.INTERVAL]: asText,
  [types.DATE]: asText,
  1231: asText, // numeric[]
  1115: asText, // timestamp[]
  1185: asText, // timestamptz[]
  1187: asText, // interval[]
  1182: asText, // date[]
};

/**
 * Drizzle passes those parsers with every query, and PGlite then copies its
 * whole parser table to merge them, per query: most of what a desk scan
 * allocated (measured: 0.5 MB per scan, a young-generation collection of
 * 3–7 ms every fifteen scans). PGlite is given them once (createDb), and this
 * view of the client drops them from drizzle's queries when they are exactly
 * those, in and out of transactions; anything else passes as it came.
 */
export function withParsersGivenOnce(client: PGlite): PGlite {
  return present(client);
}

function present<T extends PGlite | Transaction>(target: T): T {
  return new Proxy(target, {
    get(object, key) {
      if (key === 'query') return (text: string, params?: unknown[], options?: QueryOptions) => object.query(text, params, withoutTextParsers(options));
      if (key === 'transaction' && 'transaction' in object) {
        return <R>(callback: (tx: Transaction) => Promise<R>) => (object as PGlite).transaction((tx) => callback(present(tx)));
      }
      // PGlite's methods read its private fields: they run on the object itself, not on this view.
      const value: unknown = Reflect.get(object, key, object);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
    },
  });
}

function withoutTextParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!options || !parsers) return options;
  for (const key of Object.keys(parsers)) if (textParsers[Number(key)] === undefined) return options;
  const { parsers: _given, ...rest } = options;
  return rest;
}
