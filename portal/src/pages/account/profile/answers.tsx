import { useMemo } from 'react';
import { Checkbox, Stack, Text } from '@mantine/core';
import {
  answerFields,
  customerFieldDefinitions,
  isFieldShown,
  normalizeCustomerFieldValue,
  profileColumnLabels,
  texts,
  validateForm,
  type CustomerFieldDefinition,
  type CustomerFieldValue,
  type FormValues,
} from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { useAppConfig } from '../../../config/AppConfigContext.tsx';
import type { SessionStore } from '../../../session/session-store.ts';
import { DynamicField } from './DynamicField.tsx';
import { uploadFile } from './upload.ts';

/**
 * The studio's questions to its customers in the portal (decision 087): the
 * definitions from its customer forms and custom fields (core's
 * customerFieldDefinitions, the same the server checks with), their inputs
 * with the express consent of a health answer, and what a save sends.
 */

/** Every field a customer is asked, sign-up's first; `loading` until both lists are here. */
export function useCustomerFieldDefinitions(): { definitions: CustomerFieldDefinition[]; loading: boolean } {
  const forms = trpc.forms.list.useQuery(undefined, { staleTime: 5 * 60_000 });
  const custom = trpc.customFields.list.useQuery({ object: 'customer' }, { staleTime: 5 * 60_000 });
  const definitions = useMemo(() => customerFieldDefinitions(forms.data?.forms ?? [], custom.data?.custom_fields ?? []), [forms.data, custom.data]);
  return { definitions, loading: forms.isPending || custom.isPending };
}

/** A profile column the studio's forms do not describe (a pending phone), asked with the sign-up's words. */
export function builtInDefinition(key: string, definitions: readonly CustomerFieldDefinition[]): CustomerFieldDefinition {
  const known = definitions.find((d) => d.key === key);
  if (known) return known;
  return {
    key,
    label: profileColumnLabels[key] ?? key,
    type: key === 'phone' ? 'phone' : key === 'birthdate' ? 'date' : 'text',
    required: ['name', 'last_name', 'phone', 'birthdate'].includes(key),
    step: 0,
    order: 0,
    options: null,
    precondition: null,
    placement: 'signup',
    sensitive: false,
    builtIn: true,
  };
}

const sameAnswer = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A sensitive answer typed or changed: its express consent must be given with it. */
export function needsConsent(fields: readonly CustomerFieldDefinition[], values: FormValues, stored: Readonly<Record<string, unknown>>): boolean {
  return fields.some((f) => {
    if (!f.sensitive || !isFieldShown(f, values)) return false;
    const answer = normalizeCustomerFieldValue(f, values[f.key]);
    return answer.ok && answer.value !== null && !sameAnswer(answer.value, stored[f.key]);
  });
}

/**
 * Each shown field's message: the spec's required rules ('Debes llenar este
 * campo.'), then the answer's own type (a number, a date, an option), then
 * the consent of a health answer (under its checkbox, key 'sensitive_consent').
 */
export function answerErrors(
  fields: readonly CustomerFieldDefinition[],
  values: FormValues,
  consent: { needed: boolean; given: boolean },
): Record<string, string> {
  const shown = fields.filter((f) => isFieldShown(f, values));
  const { errors } = validateForm(shown, values);
  for (const f of shown) {
    if (errors[f.key] || f.builtIn || values[f.key] instanceof File) continue;
    const answer = normalizeCustomerFieldValue(f, values[f.key]);
    if (!answer.ok) errors[f.key] = answer.message;
  }
  if (consent.needed && !consent.given) errors.sensitive_consent = texts.forms.sensitiveConsentRequired;
  return errors;
}

/**
 * The answers a save sends: every shown question of `fields` (an empty one as
 * null, so it counts as asked), files uploaded first and sent as their id
 * (spec: files in forms are uploaded first and replaced by a reference).
 */
export async function answersToSend(
  fields: readonly CustomerFieldDefinition[],
  values: FormValues,
  upload: { store: SessionStore; idToken?: string },
): Promise<Record<string, CustomerFieldValue>> {
  const out: Record<string, CustomerFieldValue> = {};
  for (const f of answerFields(fields)) {
    if (!isFieldShown(f, values)) continue;
    const value = values[f.key];
    if (value instanceof File) {
      out[f.key] = (await uploadFile(upload.store, value, f.type === 'image' ? 'image' : 'any', upload.idToken)).file_id;
      continue;
    }
    const answer = normalizeCustomerFieldValue(f, value);
    out[f.key] = answer.ok ? answer.value : null;
  }
  return out;
}

interface AnswerInputsProps {
  fields: readonly CustomerFieldDefinition[];
  values: FormValues;
  errors: Readonly<Record<string, string | undefined>>;
  onChange: (key: string, value: unknown) => void;
  /** Shown when a health answer is typed: the express consent, required to store it. */
  consent: { needed: boolean; given: boolean; onChange: (given: boolean) => void };
}

/** The inputs of some of the studio's questions (shown by their preconditions), and the consent a health answer needs. */
export function AnswerInputs({ fields, values, errors, onChange, consent }: AnswerInputsProps) {
  const config = useAppConfig();
  return (
    <Stack gap="sm">
      {fields
        .filter((f) => isFieldShown(f, values))
        .map((f) => (
          <Stack key={f.key} gap={4}>
            <DynamicField field={f} value={values[f.key]} error={errors[f.key]} onChange={(value) => onChange(f.key, value)} />
            {f.sensitive && (
              <Text size="xs" c="dimmed">
                {texts.profile.sensitiveNote}
              </Text>
            )}
          </Stack>
        ))}
      {consent.needed && (
        <Checkbox
          name="sensitive_consent"
          checked={consent.given}
          onChange={(e) => consent.onChange(e.currentTarget.checked)}
          label={texts.forms.sensitiveConsent(config.business_name)}
          error={errors.sensitive_consent}
        />
      )}
    </Stack>
  );
}
