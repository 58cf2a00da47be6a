import { Alert, Badge, Button, Group, Modal, Paper, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { formatCalendarDate, texts, type PrivacyRequestStatus } from '@estudio/core';
import { useState } from 'react';
import { dateOf, errorText } from '../../format.ts';
import { api, type ApiOutputs } from '../api.ts';
import { Loaded } from '../list-widgets.tsx';

const t = texts.privacyRequests;
const a = t.admin;
type Request = ApiOutputs['privacy']['requests']['privacy_requests'][number];
const statusColor: Record<PrivacyRequestStatus, string> = { pending: 'yellow', done: 'teal', refused: 'red' };

/** The deadline as the owner reads it: days left, or how late, in red once it has passed. */
function Deadline({ r }: { r: Request }) {
  if (r.status !== 'pending') return <Text size="xs" c="dimmed">{r.answeredAt ? a.answeredOn(dateOf(r.answeredAt)) : null}</Text>;
  const late = r.business_days_left < 0;
  return (
    <Text size="sm" fw={600} c={late ? 'red.8' : r.business_days_left <= 5 ? 'orange.8' : 'dimmed'} data-testid="privacy-deadline">
      {late ? a.late(-r.business_days_left) : a.daysLeft(r.business_days_left)} · {a.due(formatCalendarDate(r.due_on))}
    </Text>
  );
}

/** One answer: done or refused, with the text she reads; a cancellation done warns that it anonymises. */
function AnswerModal({ request, onClose }: { request: Request | null; onClose: () => void }) {
  const utils = api.useUtils();
  const [status, setStatus] = useState<'done' | 'refused'>('done');
  const [answer, setAnswer] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // Decision 079: the console says what became of the e-mail that tells her, never that it was sent before it leaves.
  const channels = api.messaging.channels.useQuery(undefined, { staleTime: 60_000 });
  const emailGoes = channels.data?.email === true;
  const save = api.privacy.answerRequest.useMutation({
    onSuccess: (answered, input) => {
      void utils.privacy.requests.invalidate();
      const saved = request?.kind === 'cancellation' && input.status === 'done' ? a.anonymised : a.saved;
      const { queued, email_configured } = answered.message;
      const mail = !queued ? a.mailNotQueued : email_configured ? a.mailQueued : a.mailWaiting;
      notifications.show({ color: queued && email_configured ? 'teal' : 'yellow', message: `${saved} ${mail}`, autoClose: 10_000 });
      close();
    },
    onError: (failure) => setProblem(errorText(failure)),
  });
  const close = () => {
    setStatus('done');
    setAnswer('');
    setProblem(null);
    onClose();
  };
  return (
    <Modal opened={request !== null} onClose={close} title={request ? a.respondTitle(request.customer_name) : ''} size="lg" data-testid="privacy-answer">
      {request && (
        <Stack>
          <Text size="sm" fw={600}>
            {t.kindNames[request.kind]}
          </Text>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {request.details}
          </Text>
          {problem && (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          )}
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {a.outcome}
            </Text>
            <SegmentedControl
              value={status}
              onChange={(value) => setStatus(value as 'done' | 'refused')}
              data={[
                { value: 'done', label: a.done },
                { value: 'refused', label: a.refused },
              ]}
            />
          </Stack>
          {request.kind === 'cancellation' && status === 'done' && (
            <Alert color="orange" data-testid="privacy-anonymise-warning">
              {a.anonymiseWarning}
            </Alert>
          )}
          <Textarea
            label={a.answerLabel}
            description={a.answerHint}
            value={answer}
            onChange={(e) => {
              setAnswer(e.currentTarget.value);
              setProblem(null);
            }}
            autosize
            minRows={3}
            maxLength={2000}
          />
          {channels.data && (
            <Text size="sm" c={emailGoes ? 'dimmed' : 'orange.9'} data-testid="privacy-answer-mail">
              {request.kind === 'cancellation' && status === 'done'
                ? emailGoes
                  ? a.mailHintCancellation(request.customer_email)
                  : a.mailHintCancellationSilent
                : emailGoes
                  ? a.mailHint(request.customer_email)
                  : a.mailHintSilent}
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {a.cancel}
            </Button>
            <Button
              color={request.kind === 'cancellation' && status === 'done' ? 'red' : undefined}
              loading={save.isPending}
              onClick={() => {
                if (!answer.trim()) return setProblem(a.answerMissing);
                save.mutate({ privacy_request_id: request.privacy_request_id, status, answer });
              }}
            >
              {a.save}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

/** Derechos ARCO: every customer's request with the law's deadline, the pending ones first, and the owner's answer. */
export function PrivacyRequestsScreen() {
  const [filter, setFilter] = useState<'pending' | 'all'>('pending');
  const list = api.privacy.requests.useQuery(filter === 'pending' ? { status: 'pending' } : {});
  const [answering, setAnswering] = useState<Request | null>(null);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {a.intro}
      </Text>
      <SegmentedControl
        w="fit-content"
        value={filter}
        onChange={(value) => setFilter(value as 'pending' | 'all')}
        data={[
          { value: 'pending', label: a.pending },
          { value: 'all', label: a.all },
        ]}
      />
      <Loaded query={list}>
        {() => {
          const data = list.data ?? { privacy_requests: [] };
          return data.privacy_requests.length === 0 ? (
            <Text c="dimmed">{filter === 'pending' ? a.none : a.noneAtAll}</Text>
          ) : (
            <Stack gap="sm">
              {data.privacy_requests.map((r) => (
                <Paper key={r.privacy_request_id} withBorder p="md" radius="md" data-testid="privacy-request">
                  <Group justify="space-between" align="flex-start" gap="sm" wrap="wrap">
                    <Stack gap={2} style={{ minWidth: 0, flex: '1 1 260px' }}>
                      <Group gap="xs" wrap="wrap">
                        <Text fw={700}>{t.kindNames[r.kind]}</Text>
                        <Badge color={statusColor[r.status]} variant="light">
                          {t.statuses[r.status]}
                        </Badge>
                      </Group>
                      <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                        {r.customer_name} · {r.customer_email}
                      </Text>
                      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                        {r.details}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {a.received(dateOf(r.createdAt))}
                      </Text>
                      {r.answer && (
                        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                          <Text span fw={600}>
                            {t.answer}
                          </Text>{' '}
                          {r.answer}
                        </Text>
                      )}
                    </Stack>
                    <Stack gap="xs" align="flex-end">
                      <Deadline r={r} />
                      {r.status === 'pending' && (
                        <Button size="sm" onClick={() => setAnswering(r)}>
                          {a.respond}
                        </Button>
                      )}
                    </Stack>
                  </Group>
                </Paper>
              ))}
            </Stack>
          );
        }}
      </Loaded>
      <AnswerModal request={answering} onClose={() => setAnswering(null)} />
    </Stack>
  );
}
