import { Alert } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/**
 * Why a payment failed, beside the card and above the button that retries it: on a phone a toast at the bottom sat
 * over 'Pagar Ahora' for seconds. role=alert: a screen reader hears it when it appears (it appears after the tap).
 */
export function DeclinedNotice({ message }: { message: string }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert" data-testid="payment-declined" p="sm">
      {message}
    </Alert>
  );
}
