import { z } from '../zod.ts';

export const appConfigEntry = z.object({ key: z.string(), value: z.string() });
export const appConfigOutput = z.object({ config: z.array(appConfigEntry) });

/** PUT /api/appconfig (admin): one or more values to change. */
export const appConfigUpdateInput = z.object({
  config: z.array(z.object({ key: z.string().min(1).max(100), value: z.string().max(100_000) })).min(1).max(200),
});
