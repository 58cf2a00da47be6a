import { z } from '../zod.ts';

/** The formats of a customer's copy of her data: JSON (everything, as stored) or CSV files (one per section, in a ZIP). */
export const personalDataFormats = ['json', 'csv'] as const;
export type PersonalDataFormat = (typeof personalDataFormats)[number];

export const personalDataInput = z.object({ format: z.enum(personalDataFormats).default('json') });
export type PersonalDataInput = z.infer<typeof personalDataInput>;

/** The file, for the portal to save: JSON as text, the ZIP as base64. */
export const personalDataOutput = z.object({
  filename: z.string(),
  content_type: z.string(),
  encoding: z.enum(['utf8', 'base64']),
  content: z.string(),
});
export type PersonalDataOutput = z.infer<typeof personalDataOutput>;
