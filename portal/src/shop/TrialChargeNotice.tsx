import { Group, Paper, Stack, Text } from '@mantine/core';
import { formatDate, formatMXN, texts, type ChargePlan } from '@estudio/core';

/** Before paying a subscription with a free trial: 'Hoy pagas $0 MXN' and when its first charge comes (core's chargePlan). */
export function TrialChargeNotice({ plan, tz }: { plan: ChargePlan; tz: string }) {
  if (!plan.firstCharge) return null;
  return (
    <Paper radius="md" p="md" bg="var(--mantine-color-teal-light)" data-testid="trial-charge">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <Text fw={700}>{texts.checkout.todayYouPay}</Text>
          <Text fw={800} size="lg" data-testid="today-charge">
            {texts.thanks.trialPaid}
          </Text>
        </Group>
        <Text size="sm" data-testid="first-charge">
          {texts.checkout.firstChargeOn(texts.thanks.mxn(formatMXN(plan.firstCharge.cents)), formatDate(plan.firstCharge.at, tz))}
        </Text>
      </Stack>
    </Paper>
  );
}
