import { z } from 'zod';

// Every validation message of the product is Spanish, in every package that validates.
z.config(z.locales.es());
// In a browser, zod's probe for `new Function` (to compile object parsers) is refused by the portal's content-security
// policy and reported as a violation; it must be off before the first schema is built. Node keeps the faster compiled parsers.
if ('document' in globalThis) z.config({ jitless: true });

export { z };

/**
 * The largest value of a PostgreSQL `integer` column. Ids are integer
 * identities: a bigger id in a request is a validation error, not a query
 * the database refuses with "out of range" (a 500).
 */
export const maxInt4 = 2_147_483_647;
