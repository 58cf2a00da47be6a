import { Badge, Text } from '@mantine/core';
import { formatDate, texts } from '@estudio/core';
import { useStudioTimeZone } from '../booking/time.ts';

const colors: Record<string, string> = {
  active: 'teal',
  completed: 'blue',
  pending: 'yellow',
  failed: 'red',
  cancelled: 'gray',
  revoked: 'dark',
  refunded: 'grape',
};

const isKnown = (status: string): status is keyof typeof texts.purchases.badges => status in texts.purchases.badges;

/** Spec: active, completed, pending, failed, cancelled (with its date), revoked; any other value as raw text. */
export function PurchaseStatusBadge({ status, cancelledAt }: { status: string; cancelledAt?: string | null }) {
  const tz = useStudioTimeZone();
  if (!isKnown(status)) return <Text size="sm">{status}</Text>;
  const label = status === 'cancelled' && cancelledAt ? `${texts.purchases.badges.cancelled} ${formatDate(cancelledAt, tz)}` : texts.purchases.badges[status];
  return (
    <Badge color={colors[status]} variant="light" radius="sm" style={{ textTransform: 'none' }}>
      {label}
    </Badge>
  );
}
