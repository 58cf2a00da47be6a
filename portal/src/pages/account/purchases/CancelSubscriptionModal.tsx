import { useState } from 'react';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { texts, trialEnd } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { showError, showSuccess } from '../../../ui/alerts.ts';
import type { ShopPurchase } from '../../../shop/types.ts';

interface CancelSubscriptionModalProps {
  purchase: ShopPurchase | null;
  onClose: () => void;
}

/**
 * Spec: cancelling needs a reason. A trial loses access now; otherwise access
 * lasts to the end of the billing cycle. No refund; it cannot be undone.
 */
export function CancelSubscriptionModal({ purchase, onClose }: CancelSubscriptionModalProps) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const utils = trpc.useUtils();
  const cancel = trpc.purchases.cancel.useMutation();
  const trialEnds = purchase ? trialEnd(purchase) : null;
  const inTrial = trialEnds !== null && trialEnds.getTime() > Date.now();

  const close = () => {
    setReason('');
    setError(undefined);
    onClose();
  };

  const submit = async () => {
    if (!purchase) return;
    if (!reason.trim()) {
      setError(texts.purchases.cancelReasonRequired);
      return;
    }
    try {
      await cancel.mutateAsync({ id: purchase.purchase_id, reason: reason.trim() });
      showSuccess(texts.purchases.cancelled);
      void utils.purchases.invalidate();
      void utils.invoices.invalidate();
      void utils.credits.invalidate();
      close();
    } catch (failure) {
      showError(errorMessage(failure));
    }
  };

  return (
    <Modal opened={purchase !== null} onClose={close} title={texts.purchases.cancelTitle} centered closeButtonProps={{ 'aria-label': texts.shell.close }}>
      <Stack gap="md">
        {purchase && (
          <Text fw={600}>
            {purchase.title}
          </Text>
        )}
        <Alert variant="light" color={inTrial ? 'orange' : 'blue'}>
          <Stack gap={4}>
            <Text size="sm">{inTrial ? texts.purchases.cancelTrial : texts.purchases.cancelCycle}</Text>
            <Text size="sm">{texts.purchases.cancelNoRefund}</Text>
          </Stack>
        </Alert>
        <Textarea
          label={texts.purchases.cancelReason}
          name="reason"
          autosize
          minRows={3}
          value={reason}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            if (error) setError(undefined);
          }}
          error={error}
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={close}>
            {texts.purchases.cancelBack}
          </Button>
          <Button color="red" onClick={() => void submit()} loading={cancel.isPending}>
            {texts.purchases.cancelConfirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
