import { isValidPhone } from '../phone.ts';
import type { FormFieldType } from '../schemas/content.ts';
import { addressMessages } from '../schemas/profile.ts';

/**
 * The dynamic-form validator of the spec (account area §5), shared by the
 * portal (messages under each field) and the server (the same rules on save).
 * Only required fields are validated; the rest are labelled '(Opcional)'.
 */

export const formMessages = {
  fill: 'Debes llenar este campo.',
  select: 'Debes seleccionar una opción.',
  file: 'Debes cargar el archivo solicitado.',
  phone: 'El formato del teléfono no es correcto.',
  several: 'Revisa los campos faltantes o inválidos.',
  onePrefix: 'Revisa el campo: ',
  optional: '(Opcional)',
} as const;

/** The address form of the original product; its nested city, state and country carry their own alerts. */
export const ADDRESS_FORM_ID = 6;

/** Anything shaped like a form field or a custom field. */
export interface ValidatableField {
  key: string;
  type: FormFieldType;
  required: boolean;
  label?: string | null;
  name?: string | null;
  step?: number | null;
  order?: number | null;
  /** Shown (and so validated) only when values[key] equals value. */
  precondition?: { key: string; value: unknown } | null;
}

export type FormValues = Readonly<Record<string, unknown>>;

export interface FormValidationResult {
  ok: boolean;
  /** Message per field key, for the fields that failed. */
  errors: Record<string, string>;
  /** The failed fields, by step then order. */
  pending: ValidatableField[];
  /** 'Revisa el campo: <label>' for one, 'Revisa los campos faltantes o inválidos.' for several, null when ok. */
  summary: string | null;
}

function baseLabel(field: ValidatableField): string {
  return (field.label ?? field.name ?? field.key).trim() || field.key;
}

/** The label shown above a field: non-required fields end with '(Opcional)'. */
export function fieldLabel(field: ValidatableField): string {
  const label = baseLabel(field);
  return field.required ? label : `${label} ${formMessages.optional}`;
}

/** Reads `a.b.c` keys from nested values (the address form's fields live under `address`). */
export function readFieldValue(values: FormValues, key: string): unknown {
  if (Object.hasOwn(values, key)) return values[key];
  let current: unknown = values;
  for (const part of key.split('.')) {
    if (current === null || typeof current !== 'object' || !Object.hasOwn(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function isBlankText(value: unknown): boolean {
  if (typeof value === 'number') return !Number.isFinite(value);
  return typeof value !== 'string' || value.trim() === '';
}

function isValidDate(value: unknown): boolean {
  if (value instanceof Date) return !Number.isNaN(value.getTime());
  if (typeof value !== 'string' || value.trim() === '') return false;
  return !Number.isNaN(Date.parse(value.trim()));
}

function isNonNegativeNumber(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0;
  if (typeof value !== 'string' || value.trim() === '') return false;
  const n = Number(value.trim());
  return Number.isFinite(n) && n >= 0;
}

/** A file reference: an id, an uploaded-file object ({file_id} / {src} / a browser File) or non-empty text. */
function hasFile(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.length > 0;
  return typeof value === 'object';
}

/**
 * The message for one field's value, or null when it passes. Non-required
 * fields always pass (spec: only required fields are validated).
 */
export function fieldError(field: ValidatableField, value: unknown): string | null {
  if (!field.required) return null;
  switch (field.type) {
    case 'text':
    case 'time':
    case 'textarea':
      return isBlankText(value) ? formMessages.fill : null;
    case 'date':
    case 'datetime-local':
      return isValidDate(value) ? null : formMessages.fill;
    case 'number':
      return isNonNegativeNumber(value) ? null : formMessages.fill;
    case 'phone':
      if (isBlankText(value)) return formMessages.fill;
      return isValidPhone(String(value)) ? null : formMessages.phone;
    case 'select':
    case 'boolean':
      // false (and 0) are answers; only a missing value is not.
      return value === null || value === undefined || value === '' ? formMessages.select : null;
    case 'creatable-select':
      return Array.isArray(value) && value.length > 0 ? null : formMessages.select;
    case 'file':
    case 'image':
      return hasFile(value) ? null : formMessages.file;
  }
}

/** A field with an unmet precondition is hidden, so it is not validated. */
export function isFieldShown(field: ValidatableField, values: FormValues): boolean {
  const pre = field.precondition;
  if (!pre) return true;
  return readFieldValue(values, pre.key) === pre.value;
}

/** Pending fields are sorted by step, then order (spec). */
export function sortFields<T extends ValidatableField>(fields: readonly T[]): T[] {
  return [...fields].sort((a, b) => (a.step ?? 0) - (b.step ?? 0) || (a.order ?? 0) - (b.order ?? 0));
}

/** The summary alert for a list of failed fields. */
export function formSummary(pending: readonly ValidatableField[]): string | null {
  const [first] = pending;
  if (!first) return null;
  return pending.length === 1 ? `${formMessages.onePrefix}${baseLabel(first)}` : formMessages.several;
}

export interface ValidateFormOptions {
  /** The form's id: form 6 (the address form) answers city, state and country with their own alerts. */
  form_id?: number | null;
  /** A form whose object is 'address' is the address form too (its id differs between studios). */
  object?: string | null;
}

/** The address form's alert for a nested city/state/country key (plain or under `address.`). */
function addressMessage(key: string): string | undefined {
  const leaf = key.startsWith('address.') ? key.slice('address.'.length) : key;
  return Object.hasOwn(addressMessages, leaf) ? addressMessages[leaf as keyof typeof addressMessages] : undefined;
}

/** Validates every shown, required field of a form against the values. */
export function validateForm(
  fields: readonly ValidatableField[],
  values: FormValues,
  options: ValidateFormOptions = {},
): FormValidationResult {
  const errors: Record<string, string> = {};
  const pending: ValidatableField[] = [];
  const isAddressForm = options.form_id === ADDRESS_FORM_ID || options.object === 'address';
  for (const field of sortFields(fields)) {
    if (!isFieldShown(field, values)) continue;
    const message = fieldError(field, readFieldValue(values, field.key));
    if (message === null) continue;
    errors[field.key] = (isAddressForm && addressMessage(field.key)) || message;
    pending.push(field);
  }
  return { ok: pending.length === 0, errors, pending, summary: formSummary(pending) };
}

/** The fields of the address form (form 6), nested under `address` in the profile values. */
export const addressFormFields: readonly ValidatableField[] = [
  { key: 'address.street', label: 'Calle', type: 'text', required: false, step: 0, order: 0 },
  { key: 'address.number', label: 'Número', type: 'text', required: false, step: 0, order: 1 },
  { key: 'address.interior_number', label: 'Número interior', type: 'text', required: false, step: 0, order: 2 },
  { key: 'address.neighborhood', label: 'Colonia', type: 'text', required: false, step: 0, order: 3 },
  { key: 'address.zip_code', label: 'Código postal', type: 'text', required: false, step: 0, order: 4 },
  { key: 'address.city', label: 'Ciudad', type: 'text', required: true, step: 0, order: 5 },
  { key: 'address.state', label: 'Estado', type: 'text', required: true, step: 0, order: 6 },
  { key: 'address.country', label: 'País', type: 'text', required: true, step: 0, order: 7 },
];

/** Validates an address (the nested fields of form 6) with 'Debes agregar tu ciudad.' and the like. */
export function validateAddress(address: unknown): FormValidationResult {
  return validateForm(addressFormFields, { address: address ?? {} }, { form_id: ADDRESS_FORM_ID });
}

/** Objects other than the address validate through the custom fields declared for their type. */
export function validateCustomFields(
  customFields: readonly (ValidatableField & { object: string })[],
  object: string,
  values: FormValues,
): FormValidationResult {
  return validateForm(
    customFields.filter((f) => f.object === object),
    values,
  );
}
