import {
  answerFields,
  answerRefusal,
  answerText,
  customerFieldDefinitions,
  customerFieldMessages,
  DomainError,
  fieldError,
  formMessages,
  isFieldShown,
  normalizeCustomerFieldValue,
  pendingCustomerFields,
  unknownFieldMessage,
  type CustomerFieldDefinition,
  type CustomerFieldValue,
} from '@estudio/core';
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { file } from '@estudio/db/schema/content';
import { customer, customer_field_value } from '@estudio/db/schema/customer';
import type { Db } from '../../db.ts';
import { listCustomFields, listForms } from '../forms/forms.ts';
import type { CustomerRow } from './find-customer.ts';

/**
 * A customer's answers to the studio's own questions (decision 087): the
 * extra fields of the customer forms and the custom fields of object
 * 'customer', one row per key in customer_field_value. Every write goes
 * through saveCustomerAnswers, in the transaction of the profile save or the
 * sign-up it belongs to.
 */

/** Every field a customer is asked, from the studio's forms and custom fields (core's customerFieldDefinitions). */
export async function loadCustomerFieldDefinitions(db: Db): Promise<CustomerFieldDefinition[]> {
  const [forms, custom] = await Promise.all([listForms(db), listCustomFields(db, 'customer')]);
  return customerFieldDefinitions(forms, custom);
}

export interface StoredAnswers {
  /** Answers by key (null: asked and left empty). */
  values: Record<string, CustomerFieldValue>;
  /** When consent was given, for the sensitive answers that have it. */
  consentedAt: Map<string, Date>;
}

/** The stored answers of some customers, by customer. */
export async function readAnswersOf(db: Db, customerIds: readonly number[]): Promise<Map<number, StoredAnswers>> {
  const out = new Map<number, StoredAnswers>();
  if (customerIds.length === 0) return out;
  const rows = await db.select().from(customer_field_value).where(inArray(customer_field_value.customer_id, [...new Set(customerIds)]));
  for (const row of rows) {
    let answers = out.get(row.customer_id);
    if (!answers) out.set(row.customer_id, (answers = { values: {}, consentedAt: new Map() }));
    answers.values[row.key] = row.value ?? null;
    if (row.consented_at) answers.consentedAt.set(row.key, row.consented_at);
  }
  return out;
}

export async function readAnswers(db: Db, customerId: number): Promise<StoredAnswers> {
  return (await readAnswersOf(db, [customerId])).get(customerId) ?? { values: {}, consentedAt: new Map() };
}

/** The profile's own columns as the form rules read them (preconditions, required built-ins). */
function profileValues(row: CustomerRow): Record<string, unknown> {
  return {
    name: row.name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone ?? '',
    instagram: row.instagram ?? '',
    birthdate: row.birthdate ?? '',
    signup_reason: row.signup_reason ?? '',
    signup_reason_other: row.signup_reason_other ?? '',
    file_id: row.file_id,
  };
}

/** Her own answers (empty ones left out) and what she must still answer before booking. */
export async function answersForOwnProfile(
  db: Db,
  row: CustomerRow,
): Promise<{ custom_fields: Record<string, CustomerFieldValue>; pending_fields: string[] }> {
  const [definitions, stored] = await Promise.all([loadCustomerFieldDefinitions(db), readAnswers(db, row.customer_id)]);
  const known = new Set(answerFields(definitions).map((d) => d.key));
  const custom_fields = Object.fromEntries(Object.entries(stored.values).filter(([key, value]) => value !== null && known.has(key)));
  const pending_fields = pendingCustomerFields(definitions, { ...profileValues(row), ...stored.values }, new Set(Object.keys(stored.values)));
  return { custom_fields, pending_fields };
}

const refusal = (code: 'validation' | 'validation/unknown-field' | 'customer/sensitive-consent-required', message: string, key: string) =>
  Object.assign(new DomainError(code, message), { field: `custom_fields.${key}` });

/**
 * A file or picture an answer names must be one the customer uploaded (or one
 * nobody owns). The one home for "a customer names a file": when the shared
 * ownership helper of services/files is on main, this calls it.
 */
async function assertAnswerFile(db: Db, customerId: number, fileId: number, field: CustomerFieldDefinition): Promise<void> {
  const [row] = await db.select({ customer_id: file.customer_id, type: file.type }).from(file).where(eq(file.file_id, fileId)).limit(1);
  if (!row || (row.customer_id !== null && row.customer_id !== customerId)) throw refusal('validation', answerRefusal(field.label, formMessages.file), field.key);
  if (field.type === 'image' && !row.type.startsWith('image/')) throw refusal('validation', answerRefusal(field.label, 'Debe ser una imagen.'), field.key);
}

export interface SaveAnswersOptions {
  /** The profile as it will be after this save (preconditions and the built-in fields read it). */
  profile: CustomerRow | Record<string, unknown>;
  /** Sign-up: every required field of the sign-up form must come with it. */
  signingUp?: boolean;
  now?: Date;
}

/**
 * Checks and stores the answers sent (`raw`: key → value) in the caller's
 * transaction. An unknown key (not one of the studio's questions, or one of
 * the profile's own columns) is 400 naming `custom_fields.<key>`; a value of
 * the wrong kind or a required one left empty is 400 'Revisa el campo:
 * <label>. <why>'; a sensitive answer is stored only with express consent
 * (`consent`), or unchanged from one that has it. Keys not sent are kept as
 * they are; a key sent empty is stored as asked-and-empty (and a sensitive
 * one loses its consent with its value). At sign-up the required fields of
 * the sign-up form must be there. Returns the keys written.
 */
export async function saveCustomerAnswers(
  tx: Db,
  customerId: number,
  raw: Record<string, unknown> | undefined,
  consent: boolean | undefined,
  options: SaveAnswersOptions,
): Promise<string[]> {
  const sent = raw ?? {};
  if (Object.keys(sent).length === 0 && !options.signingUp) return [];
  const definitions = await loadCustomerFieldDefinitions(tx);
  const byKey = new Map(answerFields(definitions).map((d) => [d.key, d]));
  for (const key of Object.keys(sent)) if (!byKey.has(key)) throw refusal('validation/unknown-field', unknownFieldMessage(`custom_fields.${key}`), key);

  const stored = options.signingUp ? { values: {}, consentedAt: new Map<string, Date>() } : await readAnswers(tx, customerId);
  const next: Record<string, CustomerFieldValue> = {};
  for (const [key, value] of Object.entries(sent)) {
    const field = byKey.get(key) as CustomerFieldDefinition;
    const answer = normalizeCustomerFieldValue(field, value);
    if (!answer.ok) throw refusal('validation', answerRefusal(field.label, answer.message), key);
    next[key] = answer.value;
  }
  const profile = 'customer_id' in options.profile ? profileValues(options.profile as CustomerRow) : options.profile;
  const values = { ...profile, ...stored.values, ...next };
  const mustAnswer = options.signingUp
    ? [...byKey.values()].filter((f) => f.placement === 'signup' || Object.hasOwn(sent, f.key))
    : [...byKey.values()].filter((f) => Object.hasOwn(sent, f.key));
  for (const field of mustAnswer) {
    if (!isFieldShown(field, values)) continue;
    const message = fieldError(field, values[field.key] ?? null);
    if (message !== null) throw refusal('validation', answerRefusal(field.label, message), field.key);
  }

  const now = options.now ?? new Date();
  const rows = Object.entries(next).map(([key, value]) => {
    const field = byKey.get(key) as CustomerFieldDefinition;
    let consented_at: Date | null = null;
    if (field.sensitive && value !== null) {
      const unchanged = JSON.stringify(stored.values[key] ?? null) === JSON.stringify(value) && stored.consentedAt.has(key);
      if (consent === true) consented_at = unchanged ? (stored.consentedAt.get(key) as Date) : now;
      else if (unchanged) consented_at = stored.consentedAt.get(key) as Date;
      else throw refusal('customer/sensitive-consent-required', customerFieldMessages.consent, key);
    }
    return { customer_id: customerId, key, value, consented_at, updatedAt: now };
  });
  for (const row of rows) {
    const field = byKey.get(row.key) as CustomerFieldDefinition;
    if ((field.type === 'file' || field.type === 'image') && typeof row.value === 'number') await assertAnswerFile(tx, customerId, row.value, field);
  }
  if (rows.length === 0) return [];
  await tx
    .insert(customer_field_value)
    .values(rows)
    .onConflictDoUpdate({
      target: [customer_field_value.customer_id, customer_field_value.key],
      set: { value: sqlExcluded('value'), consented_at: sqlExcluded('consented_at'), updatedAt: now },
    });
  return rows.map((r) => r.key);
}

const sqlExcluded = (column: string) => sql.raw(`excluded."${column}"`);

/** One answer as staff and coaches read it. */
export interface AnswerForStaff {
  key: string;
  label: string;
  /** The answer in words ('Sí', a list joined), '' when empty. */
  text: string;
  sensitive: boolean;
  /** When the customer consented to store it (sensitive answers). */
  consented_at: string | null;
  /** The question itself, for staff to answer it at the desk (checked again by saveCustomerAnswers). */
  type: CustomerFieldDefinition['type'];
  required: boolean;
  options: CustomerFieldDefinition['options'];
  precondition: { key: string; value: unknown } | null;
  value: CustomerFieldValue;
}

/** A customer's answers for the desk: every question of the studio in the forms' order, answered or not. 404 for no live customer. */
export async function answersForStaff(db: Db, customerId: number): Promise<AnswerForStaff[]> {
  const [live] = await db
    .select({ id: customer.customer_id })
    .from(customer)
    .where(and(eq(customer.customer_id, customerId), isNull(customer.deletedAt)));
  if (!live) throw new DomainError('customer/not-found');
  const [definitions, stored] = await Promise.all([loadCustomerFieldDefinitions(db), readAnswers(db, customerId)]);
  return answerFields(definitions).map((d) => ({
    key: d.key,
    label: d.label,
    text: answerText(d, stored.values[d.key]),
    sensitive: d.sensitive,
    consented_at: stored.consentedAt.get(d.key)?.toISOString() ?? null,
    type: d.type,
    required: d.required,
    options: d.options,
    precondition: d.precondition ?? null,
    value: stored.values[d.key] ?? null,
  }));
}

/**
 * The sensitive answers (health) of the given customers, for the coach of a
 * class they booked: only those answered with consent, by customer.
 */
export async function sensitiveAnswersOf(db: Db, customerIds: readonly number[]): Promise<Map<number, { label: string; text: string }[]>> {
  const out = new Map<number, { label: string; text: string }[]>();
  if (customerIds.length === 0) return out;
  const definitions = (await loadCustomerFieldDefinitions(db)).filter((d) => d.sensitive && !d.builtIn);
  if (definitions.length === 0) return out;
  const rows = await db
    .select()
    .from(customer_field_value)
    .where(
      and(
        inArray(customer_field_value.customer_id, [...new Set(customerIds)]),
        inArray(
          customer_field_value.key,
          definitions.map((d) => d.key),
        ),
        isNotNull(customer_field_value.consented_at),
      ),
    );
  for (const d of definitions) {
    for (const row of rows.filter((r) => r.key === d.key && r.value !== null)) {
      out.set(row.customer_id, [...(out.get(row.customer_id) ?? []), { label: d.label, text: answerText(d, row.value) }]);
    }
  }
  return out;
}
