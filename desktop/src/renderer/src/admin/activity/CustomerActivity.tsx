import { Stack, Title } from '@mantine/core';
import { activityTexts as t } from '@estudio/core';
import { useState } from 'react';
import { api } from '../api.ts';
import { Loaded } from '../list-widgets.tsx';
import { ActivityEntries, activityRefreshMs } from './ActivityList.tsx';

/** What staff did with one customer, on her card at the desk and in the console; read from the server, refreshed like Actividad. */
export function CustomerActivity({ customerId }: { customerId: number }) {
  const [page, setPage] = useState(1);
  const list = api.activity.forCustomer.useQuery({ id: customerId, page }, { refetchInterval: activityRefreshMs, refetchOnWindowFocus: true });
  return (
    <Stack gap="sm" data-testid="customer-activity">
      <Title order={4}>{t.cardTitle}</Title>
      <Loaded query={list}>{() => list.data && <ActivityEntries page={list.data} empty={t.cardEmpty} onPage={setPage} />}</Loaded>
    </Stack>
  );
}
