import { Badge, Button, Grid, Loader, NavLink, Paper, ScrollArea, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconUserPlus } from '@tabler/icons-react';
import { texts } from '@estudio/core';
import { keepPreviousData } from '@tanstack/react-query';
import { Fragment, useEffect, useState, type KeyboardEvent } from 'react';
import { trpc } from '../trpc.ts';
import { CustomerCard } from './CustomerCard.tsx';
import { NewCustomerModal } from './ReservationActions.tsx';

const t = texts.desk;

/** Search as you type (from the replica, so it answers offline too) and the chosen customer's card. */
export function CustomersScreen({ open }: { open?: { customerId: number; at: number } | null }) {
  const [q, setQ] = useState('');
  const [debounced] = useDebouncedValue(q, 80);
  const [selected, setSelected] = useState<number | null>(open?.customerId ?? null);
  // Another screen asked for a customer's card ('Ver ficha' on a notice).
  useEffect(() => {
    if (open) setSelected(open.customerId);
  }, [open]);
  const [cursor, setCursor] = useState(0);
  const [creating, setCreating] = useState(false);
  const search = trpc.customers.search.useQuery({ q: debounced }, { enabled: debounced.trim().length > 0, placeholderData: keepPreviousData });
  const hits = debounced.trim() ? (search.data ?? []) : [];

  // Arrow keys and Enter pick from the list without leaving the search field.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') setCursor((c) => Math.min(c + 1, hits.length - 1));
    else if (event.key === 'ArrowUp') setCursor((c) => Math.max(c - 1, 0));
    else if (event.key === 'Enter' && hits[cursor]) setSelected(hits[cursor].customer_id);
    else return;
    event.preventDefault();
  };

  return (
    <Grid gap="md">
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Paper withBorder p="sm">
          <Stack gap="xs">
            <TextInput
              label={t.searchLabel}
              placeholder={t.searchPlaceholder}
              leftSection={<IconSearch size={16} />}
              rightSection={search.isFetching ? <Loader size="xs" /> : null}
              value={q}
              onChange={(e) => {
                setQ(e.currentTarget.value);
                setCursor(0);
              }}
              onKeyDown={onKeyDown}
              autoFocus
              data-testid="customer-search"
            />
            {/* A first-time walk-in; their card opens to book or sell. */}
            <Button variant="light" leftSection={<IconUserPlus size={16} />} onClick={() => setCreating(true)} data-testid="new-customer">
              {texts.deskActions.newCustomer}
            </Button>
            <NewCustomerModal opened={creating} onClose={() => setCreating(false)} onCreated={setSelected} />
            <ScrollArea.Autosize mah="60vh">
              {debounced.trim() && !search.isPending && hits.length === 0 && (
                <Text size="sm" c="dimmed" p="xs">
                  {t.noResults}
                </Text>
              )}
              {hits.map((c, i) => (
                <Fragment key={c.customer_id}>
                {/* Where the exact matches end and the names a slip away begin ('Ramires' for Ramírez). */}
                {c.spelled_like && !hits[i - 1]?.spelled_like && (
                  <Text size="xs" c="dimmed" px="xs" pt="xs" data-testid="spelled-like">
                    {t.spelledLike}
                  </Text>
                )}
                <NavLink
                  active={selected === c.customer_id || i === cursor}
                  variant={selected === c.customer_id ? 'filled' : 'light'}
                  onClick={() => setSelected(c.customer_id)}
                  label={`${c.name} ${c.last_name}`}
                  description={[c.email, c.phone].filter(Boolean).join(' · ')}
                  rightSection={c.role !== 'customer' ? <Badge size="xs">{c.role}</Badge> : null}
                  data-testid="customer-hit"
                />
                </Fragment>
              ))}
            </ScrollArea.Autosize>
          </Stack>
        </Paper>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }}>
        {selected ? (
          <CustomerCard customerId={selected} onFollow={setSelected} />
        ) : (
          <Text c="dimmed" p="md">
            {t.pickCustomer}
          </Text>
        )}
      </Grid.Col>
    </Grid>
  );
}
