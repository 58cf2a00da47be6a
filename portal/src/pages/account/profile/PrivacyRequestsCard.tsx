import { useState } from 'react';
import { Alert, Badge, Button, Group, Paper, Select, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { formatCalendarDate, formatDate, privacyRequestKinds, texts, type PrivacyRequestKind, type PrivacyRequestStatus } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorFacts } from '../../../api/errors.ts';
import { useAppConfig } from '../../../config/AppConfigContext.tsx';
import { useStudioTimeZone } from '../../../booking/time.ts';
import { showSuccess } from '../../../ui/alerts.ts';

const t = texts.privacyRequests;
const statusColor: Record<PrivacyRequestStatus, string> = { pending: 'yellow', done: 'teal', refused: 'red' };

/**
 * Mi Información › Tus derechos: her requests under Mexico's data-protection law (access, rectification,
 * cancellation, opposition) with the studio's answer and the day it is due, and a form to send one.
 */
export function PrivacyRequestsCard() {
  const studio = useAppConfig().business_name;
  const tz = useStudioTimeZone();
  const utils = trpc.useUtils();
  const mine = trpc.privacy.myRequests.useQuery({});
  const [kind, setKind] = useState<PrivacyRequestKind | null>(null);
  const [details, setDetails] = useState('');
  const [errors, setErrors] = useState<{ kind?: string; details?: string; form?: string }>({});
  const send = trpc.privacy.submitRequest.useMutation({
    onSuccess: ({ privacy_request }) => {
      void utils.privacy.myRequests.invalidate();
      setKind(null);
      setDetails('');
      setErrors({});
      showSuccess(t.sent(formatCalendarDate(privacy_request.due_on)));
    },
    onError: (failure) => {
      const facts = errorFacts(failure);
      if (facts.field === 'kind' || facts.field === 'details') setErrors({ [facts.field]: facts.fieldMessage ?? facts.message });
      else setErrors({ form: facts.message });
    },
  });
  const submit = () => {
    // Said by the field before any request, in the server's own words.
    if (!kind) return setErrors({ kind: t.kindMissing });
    if (!details.trim()) return setErrors({ details: t.detailsMissing });
    send.mutate({ kind, details });
  };
  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="derechos-heading">
      <Title order={2} fz="xl" mb="xs" id="derechos-heading">
        {t.heading}
      </Title>
      <Text size="sm" c="dimmed" mb="lg">
        {t.intro(studio)}
      </Text>
      <Stack gap="md">
        {errors.form && (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        )}
        <Select
          label={t.kindLabel}
          data={privacyRequestKinds.map((k) => ({ value: k, label: t.kinds[k] }))}
          value={kind}
          onChange={(value) => {
            setKind(value as PrivacyRequestKind | null);
            setErrors({});
          }}
          error={errors.kind}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        {kind === 'cancellation' && (
          <Alert color="yellow" variant="light">
            {t.cancellationHint}
          </Alert>
        )}
        <Textarea
          label={t.detailsLabel}
          placeholder={t.detailsPlaceholder}
          value={details}
          onChange={(e) => {
            setDetails(e.currentTarget.value);
            setErrors((old) => ({ ...old, details: undefined }));
          }}
          error={errors.details}
          autosize
          minRows={3}
          maxLength={2000}
        />
        <Group>
          <Button onClick={submit} loading={send.isPending}>
            {t.send}
          </Button>
        </Group>
        <Title order={3} fz="md" mt="md">
          {t.mine}
        </Title>
        {!mine.data ? (
          <Skeleton h={60} />
        ) : mine.data.privacy_requests.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t.none}
          </Text>
        ) : (
          <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {mine.data.privacy_requests.map((r) => (
              <Paper key={r.privacy_request_id} withBorder radius="md" p="sm" component="li">
                <Group justify="space-between" gap="xs" wrap="wrap">
                  <Text fw={600}>{t.kindNames[r.kind]}</Text>
                  <Badge color={statusColor[r.status]} variant="light">
                    {t.statuses[r.status]}
                  </Badge>
                </Group>
                <Text size="sm" mt={4} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                  {r.details}
                </Text>
                <Text size="xs" c="dimmed" mt={4}>
                  {t.askedOn(formatDate(r.createdAt, tz))}
                  {r.status === 'pending' ? ` · ${t.dueBy(formatCalendarDate(r.due_on))}` : ''}
                </Text>
                {r.answer && (
                  <Text size="sm" mt="xs" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                    <Text span fw={600}>
                      {t.answer}
                    </Text>{' '}
                    {r.answer}
                  </Text>
                )}
              </Paper>
            ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
