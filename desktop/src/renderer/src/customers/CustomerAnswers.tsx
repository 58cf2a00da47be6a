import { Alert, Badge, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { api } from '../admin/api.ts';
import { dateOf } from '../format.ts';

const t = texts.desk;

/**
 * The customer's answers to the studio's questions (decision 087), read-only:
 * the emergency contact, and what she told her coach about her health (with
 * the date she consented). Read from the server through the desk, never kept
 * in the replica: health data does not sit on the reception PC's disk.
 */
export function CustomerAnswers({ customerId }: { customerId: number }) {
  const answers = api.customer.answers.useQuery({ id: customerId }, { retry: false, staleTime: 30_000 });
  if (answers.isPending) return <Skeleton h={64} mt="md" />;
  if (answers.error) {
    return (
      <Alert color="gray" variant="light" mt="md" data-testid="customer-answers-offline">
        {t.answersOffline}
      </Alert>
    );
  }
  if (answers.data.answers.length === 0) return null;
  return (
    <Stack gap="xs" mt="md" data-testid="customer-answers">
      <Title order={4}>{t.answersTitle}</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
        {answers.data.answers.map((a) => (
          <div key={a.key} data-answer={a.key}>
            <Group gap={6} wrap="wrap">
              <Text size="sm" c="dimmed" fw={600}>
                {a.label}
              </Text>
              {a.sensitive && (
                <Badge size="xs" color="red" variant="light" leftSection={<IconLock size={10} />} style={{ flexShrink: 0 }}>
                  {t.answersSensitive}
                </Badge>
              )}
            </Group>
            {a.text ? <Text style={{ whiteSpace: 'pre-line' }}>{a.text}</Text> : <Text c="dimmed">{t.answersEmpty}</Text>}
            {a.sensitive && a.consented_at && a.text && (
              <Text size="xs" c="dimmed">
                {t.answersConsent(dateOf(a.consented_at))}
              </Text>
            )}
          </div>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
