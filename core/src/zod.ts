import { z } from 'zod';

// Every validation message of the product is Spanish, in every package that validates.
z.config(z.locales.es());

export { z };
