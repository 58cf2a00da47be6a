import { useMemo, useState } from 'react';
import { Badge, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconLock, IconPencil } from '@tabler/icons-react';
import { answerFields, answerText, texts, type CustomerFieldValue, type FormValues } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { useSession, type Customer } from '../../../session/SessionProvider.tsx';
import { showError, showSuccess } from '../../../ui/alerts.ts';
import { useFormErrors } from '../../../ui/form-errors.ts';
import { AnswerInputs, answerErrors, answersToSend, needsConsent, useCustomerFieldDefinitions } from './answers.tsx';
import { UploadError } from './upload.ts';

/**
 * Mi Información's 'Información para tus clases' (decision 087): every one of
 * the studio's questions with her answer, wherever it was first asked (sign-up,
 * before the first class), and an edit mode that saves them with the consent a
 * health answer needs. Nothing when the studio asks nothing.
 */
export function AnswersCard({ customer }: { customer: Customer }) {
  const { store } = useSession();
  const utils = trpc.useUtils();
  const { definitions } = useCustomerFieldDefinitions();
  const fields = useMemo(() => answerFields(definitions), [definitions]);
  const stored = useMemo(() => ({ ...(customer.custom_fields ?? {}) }) as Record<string, CustomerFieldValue>, [customer.custom_fields]);
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<Record<string, unknown>>({});
  const [consent, setConsent] = useState(false);
  const labels = useMemo(() => Object.fromEntries([...fields.map((f) => [f.key, f.label]), ['sensitive_consent', '']]) as Record<string, string>, [fields]);
  const { errors, fail, failFromServer, clear, reset } = useFormErrors(labels);
  const [saving, setSaving] = useState(false);
  if (fields.length === 0) return null;
  const consentNeeded = editing && needsConsent(fields, values as FormValues, stored);

  const startEditing = () => {
    setValues({ ...customer, ...stored });
    setConsent(false);
    reset();
    setEditing(true);
  };

  const submit = async () => {
    if (fail(answerErrors(fields, values as FormValues, { needed: consentNeeded, given: consent }))) return;
    setSaving(true);
    try {
      const custom_fields = await answersToSend(fields, values as FormValues, { store });
      const answer = await utils.client.customer.update.mutate({ custom_fields, ...(consentNeeded ? { sensitive_consent: true } : {}) });
      utils.customer.me.setData(undefined, answer);
      showSuccess(texts.profile.updated);
      setEditing(false);
    } catch (error) {
      if (error instanceof UploadError) showError(error.message);
      else failFromServer(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="answers-heading">
      <Group justify="space-between" mb="xs">
        <Title order={2} fz="xl" id="answers-heading">
          {texts.profile.answersHeading}
        </Title>
        {!editing && (
          <Button variant="light" leftSection={<IconPencil size={16} />} onClick={startEditing} aria-label={`${texts.profile.edit}: ${texts.profile.answersHeading}`}>
            {texts.profile.edit}
          </Button>
        )}
      </Group>
      <Text size="sm" c="dimmed" mb="lg">
        {texts.profile.answersIntro}
      </Text>
      {editing ? (
        <form
          noValidate
          aria-label={texts.profile.answersHeading}
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack gap="sm">
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
            <Group justify="flex-end" mt="sm">
              <Button variant="default" onClick={() => setEditing(false)} disabled={saving}>
                {texts.profile.cancel}
              </Button>
              <Button type="submit" loading={saving}>
                {texts.profile.save}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          {fields.map((f) => {
            const text = answerText(f, stored[f.key]);
            return (
              <div key={f.key} data-answer={f.key}>
                <Group gap={6} wrap="nowrap" align="center">
                  <Text size="sm" fw={700} c="dimmed">
                    {f.label}
                  </Text>
                  {f.sensitive && (
                    <Badge size="xs" variant="light" color="gray" leftSection={<IconLock size={10} />} title={texts.profile.sensitiveNote}>
                      {texts.profile.sensitiveBadge}
                    </Badge>
                  )}
                </Group>
                {text ? <Text style={{ whiteSpace: 'pre-line' }}>{text}</Text> : <Text c="dimmed">{texts.profile.answersEmpty}</Text>}
              </div>
            );
          })}
        </SimpleGrid>
      )}
    </Paper>
  );
}
