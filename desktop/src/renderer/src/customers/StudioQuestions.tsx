import { Alert, Checkbox, Group, NumberInput, Select, SimpleGrid, Skeleton, Stack, TagsInput, Text, Textarea, TextInput, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  answerRefusal,
  fieldError,
  fieldLabel,
  isFieldShown,
  normalizeCustomerFieldValue,
  normalizePhone,
  texts,
  type CustomerFieldValue,
  type FormValues,
} from '@estudio/core';
import { api, type ApiOutputs } from '../admin/api.ts';

const t = texts.desk;
type Answer = ApiOutputs['customer']['answers']['answers'][number];
/** A question as core's form rules read it (the wire's precondition names its value even when it is undefined). */
type Question = Omit<Answer, 'precondition'> & { precondition: { key: string; value: unknown } | null };
const asQuestion = (a: Answer): Question => ({ ...a, precondition: a.precondition ? { key: a.precondition.key, value: a.precondition.value } : null });

const sameAnswer = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
const asText = (value: unknown) => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '');

/** What a save of the studio's questions sends: only the answers changed, as stored; null when one is wrong (its message shown). */
export interface QuestionsDraft {
  /** Checks the changed answers; the payload part of PUT /customer, or null with each wrong answer's message under it. */
  collect: () => { custom_fields?: Record<string, CustomerFieldValue>; sensitive_consent?: true } | null;
  /** A refusal of the server that names `custom_fields.<key>`: shown under that question. True when it was one. */
  showRefusal: (field: string, message: string) => boolean;
  node: ReactNode;
}

/**
 * The studio's questions to its customers (decision 087) in the desk's edit
 * form: each one as the studio asks it (its type, options, required flag and
 * precondition come from the server with the answer as stored), a health
 * answer saved only with the express consent the customer gives at the
 * counter. Read from the server, never from the replica: health answers do
 * not sit on the reception PC's disk. The server checks everything again.
 */
export function useStudioQuestions(customerId: number, profile: FormValues): QuestionsDraft {
  const query = api.customer.answers.useQuery({ id: customerId }, { retry: false, staleTime: 30_000 });
  const questions = useMemo(() => (query.data?.answers ?? []).map(asQuestion), [query.data]);
  const stored = useMemo(() => Object.fromEntries(questions.map((q) => [q.key, q.value])), [questions]);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [consent, setConsent] = useState(false);
  useEffect(() => setValues(stored), [stored]);

  const all: FormValues = { ...profile, ...values };
  const shown = questions.filter((q) => isFieldShown(q, all));
  const changed = shown.filter((q) => q.type !== 'file' && q.type !== 'image' && !sameAnswer(normalized(q, values[q.key]), q.value));
  const consentNeeded = changed.some((q) => q.sensitive && normalized(q, values[q.key]) !== null);

  const set = (key: string, value: unknown) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _gone, sensitive_consent: _consent, ...rest }) => rest);
  };

  const collect: QuestionsDraft['collect'] = () => {
    const next: Record<string, string> = {};
    const out: Record<string, CustomerFieldValue> = {};
    for (const q of changed) {
      const answer = normalizeCustomerFieldValue(q, values[q.key]);
      const message = answer.ok ? fieldError(q, answer.value) : answer.message;
      if (message) next[q.key] = message;
      else if (answer.ok) out[q.key] = answer.value;
    }
    if (consentNeeded && !consent) next.sensitive_consent = t.editHealthConsentRequired;
    setErrors(next);
    if (Object.keys(next).length > 0) return null;
    if (changed.length === 0) return {};
    return { custom_fields: out, ...(consentNeeded ? { sensitive_consent: true as const } : {}) };
  };

  const showRefusal: QuestionsDraft['showRefusal'] = (field, message) => {
    const key = field.startsWith('custom_fields.') ? field.slice('custom_fields.'.length) : null;
    const question = questions.find((q) => q.key === key);
    if (!question) return false;
    // 'Revisa el campo: <label>. <why>' → '<why>' under the question itself.
    const prefix = answerRefusal(question.label, '');
    setErrors({ [question.key]: message.startsWith(prefix) ? message.slice(prefix.length) : message });
    return true;
  };

  let node: ReactNode = null;
  if (query.isPending) node = <Skeleton h={56} aria-label={t.editQuestionsLoading} />;
  else if (query.error)
    node = (
      <Alert color="gray" variant="light" data-testid="desk-edit-questions-offline">
        {t.editQuestionsOffline}
      </Alert>
    );
  else if (shown.length > 0)
    node = (
      <Stack gap="xs" data-testid="desk-edit-questions">
        <Title order={5}>{t.editQuestions}</Title>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          {shown.map((q) => (
            <Stack key={q.key} gap={4} data-question={q.key}>
              <QuestionInput question={q} value={values[q.key]} error={errors[q.key]} onChange={(value) => set(q.key, value)} />
              {q.sensitive && (
                // The same words as a health note on the card: who sees it.
                <Group gap={6} wrap="nowrap" align="flex-start">
                  <IconLock size={14} color="var(--mantine-color-red-7)" style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />
                  <Text size="xs" c="dimmed">
                    {texts.customerNotes.kindHints.health}
                  </Text>
                </Group>
              )}
            </Stack>
          ))}
        </SimpleGrid>
        {consentNeeded && (
          <Checkbox
            checked={consent}
            onChange={(e) => {
              setConsent(e.currentTarget.checked);
              setErrors(({ sensitive_consent: _gone, ...rest }) => rest);
            }}
            label={t.editHealthConsent}
            error={errors.sensitive_consent}
            data-testid="desk-edit-health-consent"
          />
        )}
      </Stack>
    );
  return { collect, showRefusal, node };
}

/** The answer as it would be stored (null when empty or not valid yet: a wrong one is caught by collect). */
function normalized(q: Question, raw: unknown): CustomerFieldValue {
  const answer = normalizeCustomerFieldValue(q, raw);
  return answer.ok ? answer.value : (raw as CustomerFieldValue);
}

/** One question's input, by the spec's field types; a file is the customer's to upload from the portal. */
function QuestionInput({ question: q, value, error, onChange }: { question: Question; value: unknown; error: string | undefined; onChange: (value: unknown) => void }) {
  const common = { label: fieldLabel(q), error, name: q.key } as const;
  switch (q.type) {
    case 'textarea':
      return <Textarea {...common} autosize minRows={2} maxRows={5} value={asText(value)} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'date':
    case 'time':
    case 'datetime-local':
      return <TextInput {...common} type={q.type} value={asText(value)} onChange={(e) => onChange(e.currentTarget.value)} />;
    case 'number':
      return <NumberInput {...common} min={0} value={typeof value === 'number' || typeof value === 'string' ? value : ''} onChange={(v) => onChange(v === '' ? null : v)} />;
    case 'phone':
      return <TextInput {...common} type="tel" inputMode="tel" value={asText(value)} onChange={(e) => onChange(normalizePhone(e.currentTarget.value))} />;
    case 'select':
      return (
        <Select
          {...common}
          data={q.options ?? []}
          value={value === null || value === undefined || value === '' ? null : String(value)}
          onChange={(v) => onChange(v)}
          clearable={!q.required}
          comboboxProps={{ withinPortal: true }}
        />
      );
    case 'boolean':
      return <Checkbox label={common.label} error={error} name={q.key} checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} mt="lg" />;
    case 'creatable-select':
      return <TagsInput {...common} data={(q.options ?? []).map((o) => o.value)} value={Array.isArray(value) ? value.map(String) : []} onChange={(v) => onChange(v)} />;
    case 'file':
    case 'image':
      return <TextInput {...common} readOnly value={q.text} description={t.editFileAnswer(q.text || null)} />;
    default:
      return <TextInput {...common} value={asText(value)} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
}
