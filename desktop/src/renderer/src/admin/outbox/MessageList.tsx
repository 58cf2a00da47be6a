import { Button, Group, Paper, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconBrandWhatsapp, IconMail, IconRefresh } from '@tabler/icons-react';
import { outboxPageSize, texts } from '@estudio/core';
import { useState } from 'react';
import { dateOf, dateTimeOf, errorText, timeOf } from '../../format.ts';
import { api, type ApiOutputs } from '../api.ts';
import { Loaded, Pager } from '../list-widgets.tsx';
import { Panel } from './Panel.tsx';
import { words } from './words.ts';

const w = words.list;
type Message = ApiOutputs['outbox']['list']['outbox_messages'][number];
type Channel = Message['channel'];
/** Whether each channel can send now (a pending message of a channel without configuration waits for it). */
export type ChannelsReady = Record<Channel, boolean> | null;

const statusColor = { pending: 'orange.8', sent: 'teal.8', failed: 'red.8' } as const;

/** The status in words: 'Enviado', 'Pendiente — próximo intento a las 10:42', 'Falló: <the provider's reason>'. */
function statusText(m: Message, ready: ChannelsReady, now: number): string {
  if (m.status === 'sent') return words.status.sent;
  if (m.status === 'failed') return w.failed(m.last_error);
  if (ready && !ready[m.channel]) return w.pendingUnconfigured(words.channel[m.channel]);
  if (Date.parse(m.next_attempt_at) <= now) return w.pendingNow;
  return dateOf(m.next_attempt_at) === dateOf(new Date(now).toISOString()) ? w.pendingAt(timeOf(m.next_attempt_at)) : w.pendingOn(dateTimeOf(m.next_attempt_at));
}

function Status({ m, ready, now }: { m: Message; ready: ChannelsReady; now: number }) {
  return (
    <Stack gap={0}>
      <Text size="sm" fw={600} c={statusColor[m.status]} style={{ overflowWrap: 'anywhere' }} data-testid="outbox-status">
        {statusText(m, ready, now)}
      </Text>
      {m.status === 'sent' && m.sentAt && (
        <Text size="xs" c="dimmed">
          {w.sentAt(dateTimeOf(m.sentAt))}
        </Text>
      )}
    </Stack>
  );
}

function Recipient({ m }: { m: Message }) {
  const Icon = m.channel === 'email' ? IconMail : IconBrandWhatsapp;
  return (
    <Stack gap={0} style={{ minWidth: 0 }}>
      {m.customer_name && (
        <Text size="sm" fw={600}>
          {m.customer_name}
        </Text>
      )}
      <Group gap={4} wrap="nowrap" style={{ minWidth: 0 }}>
        <Icon size={14} aria-label={words.channel[m.channel]} style={{ flexShrink: 0 }} />
        <Text size="sm" c={m.customer_name ? 'dimmed' : undefined} style={{ overflowWrap: 'anywhere' }}>
          {m.recipient}
        </Text>
      </Group>
    </Stack>
  );
}

/** What the message is about ('Recordatorio de clase'), whole: it wraps instead of being cut. */
function Kind({ m }: { m: Message }) {
  return (
    <Text size="xs" fw={700} c="gray.7" tt="uppercase" style={{ letterSpacing: 0.3, overflowWrap: 'anywhere' }} data-testid="outbox-kind">
      {m.kind_label}
    </Text>
  );
}

function Content({ m, withKind = true }: { m: Message; withKind?: boolean }) {
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      {withKind && <Kind m={m} />}
      {m.subject && (
        <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
          {m.subject}
        </Text>
      )}
      <Text size="xs" c="dimmed" lineClamp={2} style={{ overflowWrap: 'anywhere' }} title={m.body}>
        {m.body.replace(/\s+/g, ' ').trim()}
      </Text>
    </Stack>
  );
}

/** A row of choices that filters the list ('Todos', 'Pendiente', …). */
function Filter<T extends string>({ label, value, onChange, options }: { label: string; value: T; onChange: (value: T) => void; options: Record<T, string> }) {
  return (
    <SegmentedControl
      value={value}
      onChange={(v) => onChange(v as T)}
      data={(Object.entries(options) as [T, string][]).map(([v, text]) => ({ value: v, label: text }))}
      aria-label={label}
    />
  );
}

/** The messages the server sends (WhatsApp, e-mail): what, to whom, sent, waiting or failed and why, with a retry for the failed ones. */
export function MessageList({ ready }: { ready: ChannelsReady }) {
  const [status, setStatus] = useState<'all' | 'pending' | 'sent' | 'failed'>('all');
  const [channel, setChannel] = useState<'all' | Channel>('all');
  const [page, setPage] = useState(1);
  /** A filter changed: back to the first page. */
  const filtered =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  // A table from 1200 px wide; narrower (the desk at 1024 with the console's menu, a phone), one card per message.
  const wide = useMediaQuery('(min-width: 75em)', true);
  const utils = api.useUtils();
  const list = api.outbox.list.useQuery({
    page,
    ...(status !== 'all' ? { status } : {}),
    ...(channel !== 'all' ? { channel } : {}),
  });
  const retry = api.outbox.retry.useMutation({
    onSuccess: () => {
      notifications.show({ color: 'teal', message: w.retried });
      void utils.outbox.invalidate();
    },
    onError: (e) => notifications.show({ color: 'red', message: errorText(e) }),
  });
  const now = Date.now();
  const retryButton = (m: Message) =>
    m.status === 'failed' && (
      <Button
        size="xs"
        variant="light"
        loading={retry.isPending && retry.variables?.id === m.outbox_message_id}
        onClick={() => retry.mutate({ id: m.outbox_message_id })}
        data-testid="outbox-retry"
      >
        {w.retry}
      </Button>
    );
  const messages = list.data?.outbox_messages ?? [];
  return (
    <Panel title={w.title} testId="outbox-list">
      <Group gap="xs">
        <Filter label={w.status} value={status} onChange={filtered(setStatus)} options={{ all: w.all, ...words.status }} />
        <Filter label={w.channel} value={channel} onChange={filtered(setChannel)} options={{ all: w.allChannels, whatsapp: words.channel.whatsapp, email: words.channel.email }} />
        <Button variant="subtle" leftSection={<IconRefresh size={16} />} onClick={() => void utils.outbox.invalidate()}>
          {w.refresh}
        </Button>
      </Group>
      <Loaded query={list}>
        {() => (
          <>
            {wide ? (
              <Table striped verticalSpacing="sm" data-testid="outbox-table" layout="fixed">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th w={150}>{w.date}</Table.Th>
                    <Table.Th>{w.message}</Table.Th>
                    <Table.Th w="22%">{w.to}</Table.Th>
                    <Table.Th w="22%">{w.status}</Table.Th>
                    <Table.Th w={80}>{w.attempts}</Table.Th>
                    <Table.Th w={120} />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {messages.map((m) => (
                    <Table.Tr key={m.outbox_message_id} data-testid="outbox-row" data-status={m.status}>
                      <Table.Td>
                        <Text size="sm">{dateTimeOf(m.createdAt)}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Content m={m} />
                      </Table.Td>
                      <Table.Td>
                        <Recipient m={m} />
                      </Table.Td>
                      <Table.Td>
                        <Status m={m} ready={ready} now={now} />
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" data-testid="outbox-attempts">
                          {m.attempts}
                        </Text>
                      </Table.Td>
                      <Table.Td>{retryButton(m)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            ) : (
              <Stack gap="xs" data-testid="outbox-table">
                {messages.map((m) => (
                  <Paper key={m.outbox_message_id} withBorder p="sm" data-testid="outbox-row" data-status={m.status}>
                    <Stack gap="xs">
                      <Group justify="space-between" align="flex-start" gap="xs">
                        <Kind m={m} />
                        <Text size="xs" c="dimmed">
                          {dateTimeOf(m.createdAt)}
                        </Text>
                      </Group>
                      <Content m={m} withKind={false} />
                      <Recipient m={m} />
                      <Group justify="space-between" align="flex-end" gap="xs">
                        <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
                          <Status m={m} ready={ready} now={now} />
                          <Text size="xs" c="dimmed" data-testid="outbox-attempts">
                            {w.attemptsOf(m.attempts)}
                          </Text>
                        </Stack>
                        {retryButton(m)}
                      </Group>
                    </Stack>
                  </Paper>
                ))}
              </Stack>
            )}
            {messages.length === 0 && <Text c="dimmed">{texts.adminConsole.empty}</Text>}
            <Pager page={page} limit={outboxPageSize} total={list.data?.total ?? 0} onChange={setPage} />
          </>
        )}
      </Loaded>
    </Panel>
  );
}
