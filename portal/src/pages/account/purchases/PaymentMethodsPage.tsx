import { ActionIcon, Alert, EmptyState, Group, Paper, Skeleton, Stack, Text } from '@mantine/core';
import { IconCreditCard, IconTrash } from '@tabler/icons-react';
import { cardBrandLabel, texts } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { showError, showSuccess } from '../../../ui/alerts.ts';
import { AccountPageFrame } from '../AccountPageFrame.tsx';

/** /mystudio/metodos: the customer's saved cards, each with delete. */
export default function PaymentMethodsPage() {
  const sources = trpc.paymentSources.list.useQuery();
  const utils = trpc.useUtils();
  const remove = trpc.paymentSources.remove.useMutation({
    onSuccess: () => {
      showSuccess(texts.purchases.methodRemoved);
      void utils.paymentSources.invalidate();
    },
    // Spec wording for a failed delete.
    onError: () => showError(texts.purchases.methodRemoveError),
  });
  const rows = sources.data?.payment_sources ?? [];

  let content: React.ReactNode;
  if (sources.isError) content = <Alert color="red" variant="light" title={errorMessage(sources.error)} />;
  else if (!sources.data) content = <Skeleton h={120} radius="md" />;
  else if (rows.length === 0)
    content = <EmptyState py={40} variant="light" icon={<IconCreditCard size={32} stroke={1.5} />} title={texts.purchases.methodsEmpty} />;
  else
    content = (
      <Stack gap="sm">
        {rows.map((source) => (
          <Paper key={source.payment_source_id} withBorder radius="md" p="md" data-testid="payment-source">
            <Group justify="space-between" wrap="nowrap">
              <Group gap="sm" wrap="nowrap">
                <IconCreditCard size={28} stroke={1.5} />
                <div>
                  <Text fw={600}>{cardBrandLabel(source.card_type)}</Text>
                  <Text size="sm" c="dimmed">
                    •••• {source.last_digits}
                    {source.exp_month && source.exp_year ? ` · ${String(source.exp_month).padStart(2, '0')}/${source.exp_year}` : ''}
                  </Text>
                </div>
              </Group>
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`${texts.purchases.removeMethod} ${cardBrandLabel(source.card_type)} ${source.last_digits}`}
                loading={remove.isPending && remove.variables?.id === source.payment_source_id}
                onClick={() => remove.mutate({ id: source.payment_source_id })}
              >
                <IconTrash size={20} />
              </ActionIcon>
            </Group>
          </Paper>
        ))}
      </Stack>
    );

  return (
    <AccountPageFrame title={texts.purchases.methodsHeading} size="sm">
      {content}
    </AccountPageFrame>
  );
}
