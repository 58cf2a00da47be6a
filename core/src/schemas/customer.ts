import { maxInt4, z } from '../zod.ts';
import { normalizePhone, isValidPhone } from '../phone.ts';
import { email, roles } from './auth.ts';
import { fileSummary, formFieldTypes } from './content.ts';
import { birthdate } from './dates.ts';
import { addressOutput } from './profile.ts';

const name = z.string().trim().min(1, { error: 'Debes escribir tu nombre.' }).max(100);
const lastName = z.string().trim().min(1, { error: 'Debes escribir tu apellido.' }).max(100);

/** Phone: keeps digits only, Mexico's 10 with its country code recognised (core's normalizePhone), then checks the format. */
export const phone = z
  .string()
  .max(40)
  .transform(normalizePhone)
  .refine((v) => v === '' || (v.length === 10 && isValidPhone(v)), { error: 'El formato del teléfono no es correcto.' });

export const customerProfileFields = {
  name,
  last_name: lastName,
  phone,
  instagram: z.string().trim().max(100).nullish(),
  birthdate: birthdate.nullish(),
  signup_reason: z.string().trim().max(200).nullish(),
  signup_reason_other: z.string().trim().max(500).nullish(),
  file_id: z.number().int().positive().max(maxInt4).nullish(),
};

/**
 * The studio's own questions (decision 087): answers by key, checked on save
 * against the customer forms and custom fields (an unknown key is a 400
 * naming it, `custom_fields.<key>`); `sensitive_consent` is the customer's
 * express consent to store the sensitive ones sent (health).
 */
export const customerAnswersFields = {
  custom_fields: z.record(z.string().max(100), z.unknown()).optional(),
  sensitive_consent: z.boolean().optional(),
};

/** A stored answer as the API gives it. */
export const customerFieldValueOutput = z.union([z.string(), z.number(), z.boolean(), z.array(z.string()), z.null()]);

/**
 * Her yes to the optional messages (class reminders, expiring credits, promotions), asked apart from the account's
 * necessary messages; absent or false is no (Mexico's data-protection law; decision 120).
 */
const optionalMessagesField = { optional_messages: z.boolean().optional() };

/** POST /api/customer/signup: the customer row for the signed-in identity. */
export const customerSignupInput = z.object({
  ...customerProfileFields,
  ...customerAnswersFields,
  email,
  /** The identity's uid; must match the bearer token's. */
  uid: z.string().min(1).max(128).optional(),
  /** Ids of required pages the customer accepted at sign-up. */
  accepted_page_ids: z.array(z.number().int().positive().max(maxInt4)).max(50).default([]),
  ...optionalMessagesField,
});

/**
 * POST /api/customer (staff and admin): a customer registered at the desk or by
 * the studio, without an account to sign in with (uid stays empty). Unknown
 * fields are refused, naming the field; the required documents are the pages
 * the customer accepted at the counter.
 */
export const customerCreateInput = z.strictObject({
  name: z.string().trim().min(1, { error: 'Escribe el nombre del cliente.' }).max(100),
  last_name: z.string().trim().min(1, { error: 'Escribe el apellido del cliente.' }).max(100),
  phone: phone.refine((v) => v !== '', { error: 'Escribe el teléfono del cliente.' }),
  email,
  accepted_page_ids: z.array(z.number().int().positive().max(maxInt4)).max(50).default([]),
  /** Asked at the counter, so the first scan does not warn that the profile lacks it. */
  birthdate: birthdate.nullish(),
  /** Asked at the counter too: staff tick it only when the customer says yes. */
  ...optionalMessagesField,
});
export type CustomerCreateInput = z.input<typeof customerCreateInput>;

/**
 * PUT /api/customer: the spec strips related lists and invoices before a save;
 * unknown keys are dropped the same way rather than rejected.
 */
export const customerUpdateInput = z.object({
  name: name.optional(),
  last_name: lastName.optional(),
  phone: phone.optional(),
  instagram: customerProfileFields.instagram,
  birthdate: customerProfileFields.birthdate,
  signup_reason: customerProfileFields.signup_reason,
  signup_reason_other: customerProfileFields.signup_reason_other,
  file_id: customerProfileFields.file_id,
  /** One of the caller's own addresses (POST /api/addresses sets it on the first one). */
  address_id: z.number().int().positive().max(maxInt4).nullish(),
  ...customerAnswersFields,
});

export const customerByPhoneInput = z.object({ phone });

export const customerOutput = z.object({
  customer_id: z.number(),
  uid: z.string().nullable(),
  name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  instagram: z.string().nullable(),
  birthdate: z.string().nullable(),
  signup_reason: z.string().nullable(),
  signup_reason_other: z.string().nullable(),
  file_id: z.number().nullable(),
  role: z.enum(roles),
  has_unlimited: z.boolean(),
  unlimited_membership_expiration: z.string().nullable(),
  unlimited_max_no_shows_for_penalty: z.number().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** The billing address of "Mi Información" (one of the customer's own). */
  address_id: z.number().nullable().optional(),
  address: addressOutput.nullable().optional(),
  /** The profile image. */
  file: fileSummary.nullable().optional(),
  /** Her answers to the studio's questions, by key (her own profile only; never in another's answer). */
  custom_fields: z.record(z.string(), customerFieldValueOutput).optional(),
  /** What she must still answer before booking ('Completar Información'), in the forms' order (her own profile only). */
  pending_fields: z.array(z.string()).optional(),
});
export type CustomerOutput = z.infer<typeof customerOutput>;

/** GET /api/customer/{id}/answers (staff): a customer's answers to the studio's questions, in the forms' order. */
export const customerAnswerOutput = z.object({
  key: z.string(),
  label: z.string(),
  /** The answer in words ('Sí', a list joined); '' when not answered. */
  text: z.string(),
  /** Health and the like: shown to staff and the class's coach only. */
  sensitive: z.boolean(),
  /** When the customer gave express consent to store it (sensitive answers). */
  consented_at: z.string().nullable(),
  /** The question as the studio asks it, so staff can answer it at the desk. */
  type: z.enum(formFieldTypes),
  required: z.boolean(),
  options: z.array(z.object({ label: z.string(), value: z.string() })).nullable(),
  /** Asked only when another answer (or profile field) has this value. */
  precondition: z.object({ key: z.string(), value: z.unknown() }).nullable(),
  /** The stored answer itself (null: not answered). */
  value: customerFieldValueOutput,
});
export const customerAnswersOutput = z.object({ answers: z.array(customerAnswerOutput) });
