import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { paymentKindText, purchaseRefundInput, texts } from '@estudio/core';
import { money } from '../../format.ts';
import { api } from '../api.ts';
import { useSchemaForm } from '../form.ts';
import { FormError } from '../form-feedback.tsx';
import { Loaded } from '../list-widgets.tsx';

const t = texts.adminMoney;
const c = texts.adminConsole;

/**
 * An admin refunds a purchase (decision 034): the server says what
 * was paid, how many classes were used and how much can go back; the admin
 * writes why, and an amount only for a partial refund.
 */
export function RefundModal({ purchase, onClose }: { purchase: { purchase_id: number; title: string }; onClose: () => void }) {
  const quote = api.purchases.refundQuote.useQuery({ id: purchase.purchase_id });
  const form = useSchemaForm({ reason: '', amount: '' });
  const utils = api.useUtils();
  const refund = api.purchases.refund.useMutation({
    onSuccess: (r) => {
      notifications.show({ color: 'teal', message: t.refundDone(money(r.refund.amount)) });
      void utils.customer.invalidate();
      void utils.reports.invalidate();
      void utils.purchases.refundQuote.invalidate();
      onClose();
    },
    onError: form.serverError,
  });
  const submit = () => {
    // Left empty, the amount is everything that can still go back (the field's hint), not the whole price.
    const input = form.validate(purchaseRefundInput, { id: purchase.purchase_id, reason: form.values.reason, amount: form.values.amount.trim() || quote.data?.refundable || null });
    if (input) refund.mutate(input);
  };
  return (
    <Modal opened onClose={onClose} title={t.refundTitle(purchase.title)} size="lg" centered>
      <Loaded query={quote}>
        {() => {
          const q = quote.data;
          if (!q) return null;
          if (q.already_refunded) return <Alert color="gray">{texts.adminMoney.refunded}</Alert>;
          return (
            <Stack gap="sm" data-testid="refund-form">
              <SimpleGrid cols={{ base: 1, xs: 3 }}>
                <Fact label={t.refundPaid} value={`${money(q.paid)} · ${paymentKindText[q.method]}`} />
                <Fact label={t.refundUsed} value={String(q.used)} />
                <Fact label={t.refundable} value={money(q.refundable)} testId="refundable" />
              </SimpleGrid>
              <Text size="sm">{q.through_provider ? t.refundByProvider : t.refundByHand}</Text>
              <Text size="sm" c="dimmed">{t.refundCreditsGo}</Text>
              <TextInput
                label={t.refundAmount}
                description={t.refundAmountHint}
                placeholder={q.refundable}
                inputMode="decimal"
                value={form.values.amount}
                onChange={(e) => form.set('amount', e.currentTarget.value)}
                error={form.errors.amount}
              />
              <Textarea label={t.refundReason} required autosize minRows={2} maxLength={500} value={form.values.reason} onChange={(e) => form.set('reason', e.currentTarget.value)} error={form.errors.reason} />
              <FormError message={form.formError} />
              <Group justify="flex-end">
                <Button variant="default" onClick={onClose}>
                  {c.cancel}
                </Button>
                <Button color="red" onClick={submit} loading={refund.isPending} data-testid="refund-confirm">
                  {t.refund}
                </Button>
              </Group>
            </Stack>
          );
        }}
      </Loaded>
    </Modal>
  );
}

function Fact({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={600} data-testid={testId}>
        {value}
      </Text>
    </div>
  );
}
