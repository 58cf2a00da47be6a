import { useMemo, useState } from 'react';
import { Button, Skeleton, Stack, Text } from '@mantine/core';
import { customerUpdateInput, texts, type FormValues } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { useSession, type Customer } from '../../../session/SessionProvider.tsx';
import { showError, showSuccess } from '../../../ui/alerts.ts';
import { useFormErrors } from '../../../ui/form-errors.ts';
import { AnswerInputs, answerErrors, answersToSend, builtInDefinition, needsConsent, useCustomerFieldDefinitions } from './answers.tsx';
import { UploadError } from './upload.ts';

/**
 * The spec's 'Completar Información' with what is missing asked in place
 * (decision 087): the customer's pending fields (a phone, a birthdate, a
 * required question of the studio, the first-class questions not asked yet)
 * and the spec's button, which saves them. Once nothing is pending the modal
 * that holds it goes away on its own.
 */
export function CompleteInfoForm({ customer, onSaved }: { customer: Customer; onSaved?: () => void }) {
  const { store } = useSession();
  const utils = trpc.useUtils();
  const { definitions, loading } = useCustomerFieldDefinitions();
  const pending = customer.pending_fields ?? [];
  const fields = useMemo(() => pending.map((key) => builtInDefinition(key, definitions)), [pending, definitions]);
  const stored = useMemo(() => ({ ...(customer.custom_fields ?? {}) }), [customer.custom_fields]);
  const [values, setValues] = useState<Record<string, unknown>>(() => ({ ...customer, ...stored }));
  const [consent, setConsent] = useState(false);
  const labels = useMemo(() => Object.fromEntries([...fields.map((f) => [f.key, f.label]), ['sensitive_consent', '']]) as Record<string, string>, [fields]);
  const { errors, fail, failFromServer, clear } = useFormErrors(labels);
  const [saving, setSaving] = useState(false);
  const consentNeeded = needsConsent(fields, values as FormValues, stored);

  const submit = async () => {
    if (fail(answerErrors(fields, values as FormValues, { needed: consentNeeded, given: consent }))) return;
    setSaving(true);
    try {
      const profile: Record<string, unknown> = {};
      for (const f of fields) if (f.builtIn) profile[f.key] = typeof values[f.key] === 'string' ? (values[f.key] as string).trim() : values[f.key];
      const parsed = customerUpdateInput.safeParse(profile);
      if (!parsed.success) {
        fail(Object.fromEntries(parsed.error.issues.map((issue) => [String(issue.path[0]), issue.message])));
        return;
      }
      const custom_fields = await answersToSend(fields, values as FormValues, { store });
      const answer = await utils.client.customer.update.mutate({
        ...parsed.data,
        ...(Object.keys(custom_fields).length ? { custom_fields } : {}),
        ...(consentNeeded ? { sensitive_consent: true } : {}),
      });
      utils.customer.me.setData(undefined, answer);
      showSuccess(texts.profile.updated);
      onSaved?.();
    } catch (error) {
      if (error instanceof UploadError) showError(error.message);
      else failFromServer(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      noValidate
      aria-label={texts.blocking.completeInfoTitle}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Stack gap="lg">
        <Text>{texts.blocking.completeInfoText}</Text>
        {loading ? (
          <Skeleton h={120} radius="md" />
        ) : (
          <AnswerInputs
            fields={fields}
            values={values as FormValues}
            errors={errors}
            onChange={(key, value) => {
              setValues((current) => ({ ...current, [key]: value }));
              clear(key);
            }}
            consent={{
              needed: consentNeeded,
              given: consent,
              onChange: (given) => {
                setConsent(given);
                clear('sensitive_consent');
              },
            }}
          />
        )}
        <Button type="submit" fullWidth loading={saving} disabled={loading}>
          {texts.blocking.completeInfoButton}
        </Button>
      </Stack>
    </form>
  );
}
