import { normalizePhone, isValidPhone } from '../phone.ts';
import { earliestDate, latestDate } from '../schemas/dates.ts';
import type { FormFieldType } from '../schemas/content.ts';
import { requiredProfileFields } from '../profile.ts';
import { fieldError, formMessages, isFieldShown, sortFields, type FormValues, type ValidatableField } from './form-validation.ts';

/**
 * The studio's own questions to its customers (the spec's dynamic forms and
 * custom fields, decision 087): which fields a customer is asked, where, how a
 * value is checked and stored, and what is still missing before booking. Pure
 * rules shared by the portal (the forms), the server (the same checks on
 * save) and the desk (reading them).
 */

/**
 * Where a customer form is asked:
 * - signup: on the sign-up form (and in Mi Información);
 * - booking: once, in the blocking 'Completar Información' modal before the first booking (and in Mi Información);
 * - profile: in Mi Información only.
 * A required field of any form that is missing blocks booking until it is answered.
 */
export const customerFormPlacements = ['signup', 'booking', 'profile'] as const;
export type CustomerFormPlacement = (typeof customerFormPlacements)[number];

/** Keys of a customer form that are the customer's own columns (or the account's), not stored answers. */
export const builtInCustomerKeys: ReadonlySet<string> = new Set([
  'name',
  'last_name',
  'email',
  'phone',
  'instagram',
  'birthdate',
  'signup_reason',
  'signup_reason_other',
  'file',
  'file_id',
  'password',
  'password_confirm',
  'address',
  'address_id',
]);

export interface CustomerFieldDefinition extends ValidatableField {
  label: string;
  step: number;
  order: number;
  options: { label: string; value: string }[] | null;
  placement: CustomerFormPlacement;
  /** Health and the like (LFPDPPP's sensitive personal data): stored only with express consent, read only by staff and the class's coach. */
  sensitive: boolean;
  /** One of the customer's own columns (name, phone…): saved with the profile, not as an answer. */
  builtIn: boolean;
}

interface FormLike {
  form_id: number;
  object: string | null;
  placement?: string | null;
  form_fields: readonly {
    key: string;
    label: string;
    name?: string | null;
    type: FormFieldType;
    required: boolean;
    step: number;
    order: number;
    options: { label: string; value: string }[] | null;
    precondition: { key: string; value?: unknown } | null;
  }[];
}

interface CustomFieldLike {
  object: string;
  key: string;
  label: string | null;
  type: FormFieldType;
  required: boolean;
  options: { label: string; value: string }[] | null;
  sensitive?: boolean;
}

const placementRank: Record<CustomerFormPlacement, number> = { signup: 0, booking: 1, profile: 2 };

export const asPlacement = (value: string | null | undefined): CustomerFormPlacement =>
  (customerFormPlacements as readonly string[]).includes(value ?? '') ? (value as CustomerFormPlacement) : 'profile';

/**
 * Every field a customer is asked, from the studio's customer forms and its
 * custom fields of object 'customer': a form field places a key (its label,
 * type, required flag, step and order as the form says); a custom field not
 * placed by any form is asked in Mi Información. A key in several forms is
 * asked where it comes first (sign-up, then before booking, then profile).
 * Sensitivity is the custom field's (a form field has no such flag).
 * Sorted by placement, then step, then order.
 */
export function customerFieldDefinitions(forms: readonly FormLike[], customFields: readonly CustomFieldLike[]): CustomerFieldDefinition[] {
  const custom = new Map(customFields.filter((f) => f.object === 'customer').map((f) => [f.key, f]));
  const byKey = new Map<string, CustomerFieldDefinition>();
  const customerForms = forms
    .filter((f) => f.object === 'customer')
    .sort((a, b) => placementRank[asPlacement(a.placement)] - placementRank[asPlacement(b.placement)] || a.form_id - b.form_id);
  for (const form of customerForms) {
    const placement = asPlacement(form.placement);
    for (const field of form.form_fields) {
      if (byKey.has(field.key)) continue;
      byKey.set(field.key, {
        key: field.key,
        label: (field.label || field.name || field.key).trim(),
        type: field.type,
        required: field.required,
        step: field.step,
        order: field.order,
        options: field.options ?? custom.get(field.key)?.options ?? null,
        precondition: field.precondition ? { key: field.precondition.key, value: field.precondition.value } : null,
        placement,
        sensitive: custom.get(field.key)?.sensitive ?? false,
        builtIn: builtInCustomerKeys.has(field.key),
      });
    }
  }
  let extra = 0;
  for (const field of custom.values()) {
    if (byKey.has(field.key) || builtInCustomerKeys.has(field.key)) continue;
    byKey.set(field.key, {
      key: field.key,
      label: (field.label ?? field.key).trim() || field.key,
      type: field.type,
      required: field.required,
      step: 99,
      order: extra++,
      options: field.options,
      precondition: null,
      placement: 'profile',
      sensitive: field.sensitive ?? false,
      builtIn: false,
    });
  }
  const all = [...byKey.values()];
  return [...customerFormPlacements].flatMap((p) => sortFields(all.filter((f) => f.placement === p)));
}

/** The stored answers only (not the customer's own columns). */
export const answerFields = (definitions: readonly CustomerFieldDefinition[]) => definitions.filter((d) => !d.builtIn);

/** A stored answer: text, a number, yes/no, a list of words, or a file's id. */
export type CustomerFieldValue = string | number | boolean | string[] | null;

/** The longest answer of each kind. */
export const customerFieldLimits = { text: 500, textarea: 2000, listItems: 20, listItem: 100 } as const;

export const customerFieldMessages = {
  invalid: 'El valor no es válido.',
  number: 'Escribe un número mayor o igual a cero.',
  date: 'Escribe una fecha válida.',
  time: 'Escribe una hora válida (HH:MM).',
  option: 'Elige una de las opciones.',
  tooLong: (max: number) => `Puede tener hasta ${max} caracteres.`,
  tooMany: (max: number) => `Puedes escribir hasta ${max} opciones.`,
  consent: 'Para guardar esta información de salud necesitamos tu consentimiento expreso: marca la casilla.',
} as const;

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

function validCalendarDate(date: string): boolean {
  if (!ISO_DATE.test(date) || date < earliestDate || date > latestDate) return false;
  const d = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === date;
}

export type NormalizedAnswer = { ok: true; value: CustomerFieldValue } | { ok: false; message: string };

/**
 * One answer as it is stored, checked by its field's type whether or not the
 * field is required (a stored value always has its type): text trimmed, an
 * empty answer null; a phone as its 10 digits; a number ≥ 0; a date
 * AAAA-MM-DD; a select one of its options; a list of words; a file by its id.
 * Required answers are checked after, by the spec's rules (fieldError).
 */
export function normalizeCustomerFieldValue(field: Pick<CustomerFieldDefinition, 'type' | 'options'>, raw: unknown): NormalizedAnswer {
  if (raw === null || raw === undefined) return { ok: true, value: null };
  const text = typeof raw === 'string' ? raw.trim() : typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : null;
  if (text === '') return { ok: true, value: null };
  const fail = (message: string = customerFieldMessages.invalid): NormalizedAnswer => ({ ok: false, message });
  switch (field.type) {
    case 'text':
    case 'textarea': {
      if (text === null) return fail();
      const max = field.type === 'text' ? customerFieldLimits.text : customerFieldLimits.textarea;
      return text.length > max ? fail(customerFieldMessages.tooLong(max)) : { ok: true, value: text };
    }
    case 'phone': {
      if (text === null) return fail(formMessages.phone);
      const digits = normalizePhone(text);
      return isValidPhone(digits) && digits.length === 10 ? { ok: true, value: digits } : fail(formMessages.phone);
    }
    case 'number': {
      const n = typeof raw === 'number' ? raw : text === null ? Number.NaN : Number(text);
      return Number.isFinite(n) && n >= 0 ? { ok: true, value: n } : fail(customerFieldMessages.number);
    }
    case 'date':
      return text !== null && validCalendarDate(text) ? { ok: true, value: text } : fail(customerFieldMessages.date);
    case 'datetime-local':
      return text !== null && ISO_DATETIME.test(text) && validCalendarDate(text.slice(0, 10)) && TIME.test(text.slice(11, 16))
        ? { ok: true, value: text.slice(0, 16) }
        : fail(customerFieldMessages.date);
    case 'time':
      return text !== null && TIME.test(text.slice(0, 5)) && text.length <= 8 ? { ok: true, value: text.slice(0, 5) } : fail(customerFieldMessages.time);
    case 'boolean':
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (raw === 'true' || raw === 'false') return { ok: true, value: raw === 'true' };
      return fail();
    case 'select': {
      if (typeof raw === 'boolean') return { ok: true, value: raw };
      if (text === null) return fail(customerFieldMessages.option);
      const options = field.options ?? [];
      return options.length === 0 || options.some((o) => o.value === text) ? { ok: true, value: text } : fail(customerFieldMessages.option);
    }
    case 'creatable-select': {
      if (!Array.isArray(raw)) return fail();
      const words = raw.map((w) => (typeof w === 'string' ? w.trim() : null));
      if (words.some((w) => w === null)) return fail();
      const list = [...new Set(words.filter((w): w is string => !!w))];
      if (list.length > customerFieldLimits.listItems) return fail(customerFieldMessages.tooMany(customerFieldLimits.listItems));
      if (list.some((w) => w.length > customerFieldLimits.listItem)) return fail(customerFieldMessages.tooLong(customerFieldLimits.listItem));
      return { ok: true, value: list.length ? list : null };
    }
    case 'file':
    case 'image': {
      const id = typeof raw === 'number' ? raw : text !== null && /^\d+$/.test(text) ? Number(text) : Number.NaN;
      return Number.isInteger(id) && id > 0 && id <= 2_147_483_647 ? { ok: true, value: id } : fail(formMessages.file);
    }
  }
}

/** 'Revisa el campo: Ciudad. Debes llenar este campo.' — the spec's prefix with the question, then why ('¿Tu nivel? Elige…'). */
export function answerRefusal(label: string, message: string): string {
  return `${formMessages.onePrefix}${label}${/[.?!:]$/.test(label) ? '' : '.'} ${message}`;
}

/** Whether an answer counts as given for the spec's required-field rules (false is an answer; an empty list is not). */
export function isAnswered(value: CustomerFieldValue | undefined): boolean {
  return value !== null && value !== undefined && !(Array.isArray(value) && value.length === 0);
}

/**
 * What a customer still has to answer before booking (the 'Completar
 * Información' modal): the profile's own required fields (name, last name,
 * phone, birthdate), every shown required field of the studio's forms that has
 * no valid answer, and the fields of a 'booking' form never asked yet
 * (`asked` holds the keys with a stored answer, empty ones included). In
 * placement, step and order.
 */
export function pendingCustomerFields(
  definitions: readonly CustomerFieldDefinition[],
  values: FormValues,
  asked: ReadonlySet<string>,
): string[] {
  const pending = new Set<string>();
  for (const key of requiredProfileFields) {
    const value = values[key];
    if (typeof value !== 'string' || value.trim() === '') pending.add(key);
  }
  for (const field of definitions) {
    if (!isFieldShown(field, values)) continue;
    if (field.key === 'email' || field.key === 'password' || field.key === 'password_confirm' || field.key === 'address') continue;
    if (field.required && fieldError(field, values[field.key]) !== null) pending.add(field.key);
    else if (field.placement === 'booking' && !field.builtIn && !asked.has(field.key)) pending.add(field.key);
  }
  const order = new Map(definitions.map((d, i) => [d.key, i]));
  return [...pending].sort((a, b) => (order.get(a) ?? -1) - (order.get(b) ?? -1));
}

/** The studio's default label of a profile column, for the pending list when no form names it. */
export const profileColumnLabels: Record<string, string> = {
  name: 'Nombre',
  last_name: 'Apellidos',
  phone: 'Teléfono',
  birthdate: 'Fecha de nacimiento',
  instagram: 'Instagram',
  signup_reason: '¿Cómo te enteraste de nosotros?',
  signup_reason_other: 'Cuéntanos cómo',
};

/** An answer as staff read it at the desk: 'Sí'/'No', a list joined, a date as written. */
export function answerText(field: Pick<CustomerFieldDefinition, 'type' | 'options'>, value: CustomerFieldValue | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'Sí' : 'No';
  if (Array.isArray(value)) return value.join(', ');
  if (field.type === 'select') return field.options?.find((o) => o.value === String(value))?.label ?? String(value);
  if (field.type === 'file' || field.type === 'image') return 'Archivo cargado';
  return String(value);
}
