import { Group, Select, Stack, Text } from '@mantine/core';
import { activityKindNames, activityKinds, activityTexts as t, refusedActivityKind, refusedActivityKindName } from '@estudio/core';
import { useState } from 'react';
import { api } from '../api.ts';
import { DateField } from '../date-fields.tsx';
import { Loaded } from '../list-widgets.tsx';
import { ActivityEntries, activityRefreshMs } from './ActivityList.tsx';

/**
 * Actividad: what staff did, newest first, filtered by who, the
 * customer, the kind and the days. It asks the server again every few
 * seconds and when the window gets the focus, so what another desk just did
 * appears without reloading.
 */
export function ActivityScreen() {
  const [staffId, setStaffId] = useState<string | null>(null);
  const [customerId, setCustomerId] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [kind, setKind] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [page, setPage] = useState(1);
  const staff = api.activity.staff.useQuery({});
  const found = api.customer.query.useQuery({ query: search.trim() }, { enabled: search.trim().length >= 2 });
  const list = api.activity.list.useQuery(
    {
      page,
      ...(staffId ? { staff_id: Number(staffId) } : {}),
      ...(customerId ? { customer_id: Number(customerId) } : {}),
      ...(kind ? { kind } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
    },
    { refetchInterval: activityRefreshMs, refetchOnWindowFocus: true },
  );
  const changed =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  const customerOptions = (found.data?.customers ?? []).map((c) => ({ value: String(c.customer_id), label: `${c.name} ${c.last_name} · ${c.email}` }));
  return (
    <Stack gap="md">
      <Text c="dimmed">{t.intro}</Text>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label={t.staff}
          placeholder={t.anyStaff}
          clearable
          data={(staff.data?.staff ?? []).map((s) => ({ value: String(s.customer_id), label: `${s.name} (${s.email})` }))}
          value={staffId}
          onChange={changed(setStaffId)}
          w={{ base: '100%', sm: 240 }}
          data-testid="activity-staff"
        />
        <Select
          label={t.customer}
          placeholder={t.customerPlaceholder}
          searchable
          clearable
          searchValue={search}
          onSearchChange={setSearch}
          data={customerOptions}
          filter={({ options }) => options}
          value={customerId}
          onChange={changed(setCustomerId)}
          nothingFoundMessage={search.trim().length >= 2 ? 'Sin coincidencias' : undefined}
          w={{ base: '100%', sm: 260 }}
          data-testid="activity-customer"
        />
        <Select
          label={t.kind}
          placeholder={t.anyKind}
          clearable
          data={[...activityKinds.map((k) => ({ value: k, label: activityKindNames[k] })), { value: refusedActivityKind, label: refusedActivityKindName }]}
          value={kind}
          onChange={changed(setKind)}
          w={{ base: '100%', sm: 220 }}
          data-testid="activity-kind"
        />
        <DateField label={t.from} value={from || null} onChange={(day) => changed(setFrom)(day ?? '')} w={{ base: '100%', sm: 160 }} testId="activity-from" />
        <DateField label={t.to} value={to || null} onChange={(day) => changed(setTo)(day ?? '')} w={{ base: '100%', sm: 160 }} testId="activity-to" />
      </Group>
      <Loaded query={list}>{() => list.data && <ActivityEntries page={list.data} empty={t.empty} onPage={setPage} />}</Loaded>
    </Stack>
  );
}
