import { Group, Paper, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { money } from '../format.ts';
import { api } from '../admin/api.ts';
import { Loaded } from '../admin/list-widgets.tsx';
import { PayrollClasses } from '../admin/reports/CoachPay.tsx';

/** The coach's own pay (decision 139): the classes given this month or last, what each paid under the studio's rate. */
export function CoachPay() {
  const [month, setMonth] = useState<'this' | 'last'>('this');
  const start = (month === 'this' ? dayjs() : dayjs().subtract(1, 'month')).startOf('month');
  const pay = api.coach.pay.useQuery({ start_date: start.format('YYYY-MM-DD'), end_date: start.endOf('month').format('YYYY-MM-DD') });
  return (
    <Paper withBorder p="md" radius="md" data-testid="coach-pay-own">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>Mi pago</Title>
          <SegmentedControl
            size="xs"
            value={month}
            onChange={(v) => setMonth(v as 'this' | 'last')}
            data={[
              { value: 'this', label: 'Este mes' },
              { value: 'last', label: 'Mes pasado' },
            ]}
            data-testid="coach-pay-month"
          />
        </Group>
        <Loaded query={pay}>
          {() => {
            const data = pay.data;
            if (!data?.instructor) return <Text c="dimmed">El estudio aún no vincula tu cuenta a tu perfil de coach.</Text>;
            if (data.classes.length === 0) return <Text c="dimmed">Sin clases dadas en {start.format('MMMM')}.</Text>;
            const missing = data.classes.filter((c) => c.amount === null).length;
            return (
              <>
                <PayrollClasses classes={data.classes} showCoach={false} />
                <Text fw={700} data-testid="coach-pay-own-total">
                  Total de {start.format('MMMM')}: {money(data.total)}
                </Text>
                {missing > 0 && (
                  <Text size="sm" c="orange.8">
                    {missing === 1 ? '1 clase no tiene tarifa todavía' : `${missing} clases no tienen tarifa todavía`}: el estudio la define en Reportes.
                  </Text>
                )}
              </>
            );
          }}
        </Loaded>
      </Stack>
    </Paper>
  );
}
