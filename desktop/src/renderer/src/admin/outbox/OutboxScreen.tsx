import { Badge, Button, Group, SegmentedControl, Table, Text, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRefresh } from '@tabler/icons-react';
import { outboxPageSize, texts } from '@estudio/core';
import { useState } from 'react';
import { dateTimeOf, errorText } from '../../format.ts';
import { api } from '../api.ts';
import { Loaded, Pager } from '../widgets.tsx';

const t = texts.adminConsole;
const statusText = { pending: 'En espera', sent: 'Enviado', failed: 'Falló' } as const;
const statusColor = { pending: 'orange', sent: 'teal', failed: 'red' } as const;
const channelText = { email: 'Correo', whatsapp: 'WhatsApp' } as const;

/** The messages the server sends (WhatsApp, e-mail): waiting, sent and failed, with a retry for the failed ones. */
export function OutboxScreen() {
  const [status, setStatus] = useState<'all' | 'pending' | 'sent' | 'failed'>('all');
  const [channel, setChannel] = useState<'all' | 'email' | 'whatsapp'>('all');
  const [page, setPage] = useState(1);
  const utils = api.useUtils();
  const list = api.outbox.list.useQuery({
    page,
    ...(status !== 'all' ? { status } : {}),
    ...(channel !== 'all' ? { channel } : {}),
  });
  const retry = api.outbox.retry.useMutation({
    onSuccess: () => {
      notifications.show({ color: 'teal', message: 'El mensaje volvió a la cola de envío.' });
      void utils.outbox.invalidate();
    },
    onError: (e) => notifications.show({ color: 'red', message: errorText(e) }),
  });
  return (
    <>
      <Group>
        <SegmentedControl
          value={status}
          onChange={(v) => {
            setStatus(v as typeof status);
            setPage(1);
          }}
          data={[
            { value: 'all', label: 'Todos' },
            { value: 'pending', label: statusText.pending },
            { value: 'sent', label: statusText.sent },
            { value: 'failed', label: statusText.failed },
          ]}
        />
        <SegmentedControl
          value={channel}
          onChange={(v) => {
            setChannel(v as typeof channel);
            setPage(1);
          }}
          data={[
            { value: 'all', label: 'Todos los canales' },
            { value: 'whatsapp', label: channelText.whatsapp },
            { value: 'email', label: channelText.email },
          ]}
        />
        <Button variant="subtle" leftSection={<IconRefresh size={16} />} onClick={() => void utils.outbox.invalidate()}>
          Actualizar
        </Button>
      </Group>
      <Loaded query={list}>
        {() => (
          <>
            <Table striped data-testid="outbox-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Fecha</Table.Th>
                  <Table.Th>Canal</Table.Th>
                  <Table.Th>Para</Table.Th>
                  <Table.Th>Mensaje</Table.Th>
                  <Table.Th>Estado</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {list.data?.outbox_messages.map((m) => (
                  <Table.Tr key={m.outbox_message_id} data-testid="outbox-row">
                    <Table.Td>{dateTimeOf(m.createdAt)}</Table.Td>
                    <Table.Td>{channelText[m.channel]}</Table.Td>
                    <Table.Td>{m.recipient}</Table.Td>
                    <Table.Td maw={420}>
                      {m.subject && (
                        <Text size="sm" fw={600}>
                          {m.subject}
                        </Text>
                      )}
                      <Text size="xs" c="dimmed" lineClamp={2} style={{ whiteSpace: 'pre-line' }}>
                        {m.body}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <Tooltip label={m.last_error ?? (m.sentAt ? `Enviado: ${dateTimeOf(m.sentAt)}` : `Intentos: ${m.attempts}`)}>
                        <Badge color={statusColor[m.status]}>{statusText[m.status]}</Badge>
                      </Tooltip>
                    </Table.Td>
                    <Table.Td>
                      {m.status === 'failed' && (
                        <Button size="xs" variant="light" loading={retry.isPending && retry.variables?.id === m.outbox_message_id} onClick={() => retry.mutate({ id: m.outbox_message_id })}>
                          Reintentar
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            {list.data?.outbox_messages.length === 0 && <Text c="dimmed">{t.empty}</Text>}
            <Pager page={page} limit={outboxPageSize} total={list.data?.total ?? 0} onChange={setPage} />
          </>
        )}
      </Loaded>
    </>
  );
}
