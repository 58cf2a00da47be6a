import { z } from '../zod.ts';
import { bodyId } from './fields.ts';
import { texts } from '../texts.ts';

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

// ---------- ARCO requests (decision 124) ----------

export const privacyRequestKinds = ['access', 'rectification', 'cancellation', 'opposition'] as const;
export type PrivacyRequestKind = (typeof privacyRequestKinds)[number];
export const privacyRequestStatuses = ['pending', 'done', 'refused'] as const;
export type PrivacyRequestStatus = (typeof privacyRequestStatuses)[number];

const requestText = z
  .string({ error: texts.privacyRequests.detailsMissing })
  .trim()
  .min(1, { error: texts.privacyRequests.detailsMissing })
  .max(2000, { error: 'Escribe como máximo 2,000 caracteres.' });

/** What she asks: the right and, in her words, what about. */
export const privacyRequestInput = z.object({
  kind: z.enum(privacyRequestKinds, { error: texts.privacyRequests.kindMissing }),
  details: requestText,
});
export type PrivacyRequestInput = z.infer<typeof privacyRequestInput>;

export const privacyRequestOutput = z.object({
  privacy_request_id: z.number(),
  customer_id: z.number(),
  kind: z.enum(privacyRequestKinds),
  details: z.string(),
  status: z.enum(privacyRequestStatuses),
  /** The studio's date the law's 20 business days run out. */
  due_on: z.string(),
  answer: z.string().nullable(),
  answeredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type PrivacyRequestOutput = z.infer<typeof privacyRequestOutput>;
export const privacyRequestsOutput = z.object({ privacy_requests: z.array(privacyRequestOutput) });

/** The owner's list: each request with who asked and the business days left (negative: late). */
export const privacyRequestAdminOutput = privacyRequestOutput.extend({
  customer_name: z.string(),
  customer_email: z.string(),
  business_days_left: z.number(),
});
export type PrivacyRequestAdminOutput = z.infer<typeof privacyRequestAdminOutput>;
export const privacyRequestsAdminOutput = z.object({ privacy_requests: z.array(privacyRequestAdminOutput) });
export const privacyRequestsAdminInput = z.object({ status: z.enum(privacyRequestStatuses).optional() });

/**
 * The owner's answer: done or refused, with what she will read. A cancellation done anonymises her (her accounting
 * records stay, without her name).
 */
export const privacyRequestAnswerInput = z.object({
  privacy_request_id: bodyId,
  status: z.enum(['done', 'refused'], { error: 'Elige si la solicitud se atendió o se rechazó.' }),
  answer: requestText.describe('La respuesta que lee el cliente'),
});
export type PrivacyRequestAnswerInput = z.infer<typeof privacyRequestAnswerInput>;
export const privacyRequestSaveOutput = z.object({ privacy_request: privacyRequestOutput });

/**
 * The owner's answer saved, and what became of the e-mail that tells her (decision 128): `queued` when a message to
 * her waits in the outbox; `email_configured` whether the studio sends e-mail now (if not, it waits until it does).
 */
export const privacyRequestAnsweredOutput = privacyRequestSaveOutput.extend({
  message: z.object({ queued: z.boolean(), email_configured: z.boolean() }),
});
export type PrivacyRequestAnsweredOutput = z.infer<typeof privacyRequestAnsweredOutput>;
