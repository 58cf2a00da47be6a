import { useState } from 'react';
import { Button, Group, Paper, SimpleGrid, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconMapPin, IconPencil } from '@tabler/icons-react';
import { addressFields, fieldLabel, fieldLabels, texts, validateAddress, type AddressOutput } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import type { Customer } from '../../../session/SessionProvider.tsx';
import { showSuccess } from '../../../ui/alerts.ts';
import { maxLengthsOf, useFormErrors } from '../../../ui/form-errors.ts';

const addressKeys = ['street', 'number', 'interior_number', 'neighborhood', 'city', 'state', 'country', 'zip_code'] as const;
type AddressKey = (typeof addressKeys)[number];
type AddressDraft = Record<AddressKey, string>;

const labels = fieldLabels(addressKeys);
const required = new Set<AddressKey>(['city', 'state', 'country']);
const maxLengths = maxLengthsOf(addressFields);

const draftOf = (address: AddressOutput | undefined): AddressDraft =>
  Object.fromEntries(addressKeys.map((key) => [key, address?.[key] ?? ''])) as AddressDraft;

/** One line per address as the customer reads it. */
function addressLines(address: AddressOutput): string[] {
  const street = [address.street, address.number].filter(Boolean).join(' ');
  const first = [street, address.interior_number ? `Int. ${address.interior_number}` : null].filter(Boolean).join(', ');
  return [first, address.neighborhood, [address.zip_code, address.city].filter(Boolean).join(' '), [address.state, address.country].filter(Boolean).join(', ')].filter(
    (line): line is string => Boolean(line),
  );
}

/**
 * The billing address (spec: city, state and country required with their
 * alerts; 'No has cargado esta información' when there is none). Save uses
 * POST without an id and PUT with one.
 */
export function AddressCard({ customer }: { customer: Customer }) {
  const utils = trpc.useUtils();
  const list = trpc.addresses.list.useQuery(undefined, { staleTime: 60_000 });
  // The customer's billing address is address_id when the customer output carries it, else the first one.
  const addressId = 'address_id' in customer ? customer.address_id : undefined;
  const current = list.data?.addresses.find((a) => a.address_id === addressId) ?? list.data?.addresses[0];
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState<AddressDraft>(() => draftOf(undefined));
  const { errors, fail, failFromServer, clear, reset } = useFormErrors(labels);

  const done = async () => {
    await Promise.all([utils.addresses.list.invalidate(), utils.customer.me.invalidate()]);
    showSuccess(texts.profile.addressSaved);
    setEditing(false);
  };
  const create = trpc.addresses.create.useMutation({ onSuccess: done, onError: failFromServer });
  const update = trpc.addresses.update.useMutation({ onSuccess: done, onError: failFromServer });
  const saving = create.isPending || update.isPending;

  const submit = () => {
    const result = validateAddress(draft);
    const found: Partial<Record<AddressKey, string>> = {};
    for (const [key, message] of Object.entries(result.errors)) found[key.replace(/^address\./, '') as AddressKey] = message;
    // Spec: each missing part has its own alert — under its field; one summary alert says where to look.
    if (fail(found)) return;
    const body = Object.fromEntries(addressKeys.map((key) => [key, draft[key].trim() || null])) as Record<AddressKey, string | null>;
    const input = { ...body, city: draft.city.trim(), state: draft.state.trim(), country: draft.country.trim() };
    if (current) update.mutate({ address_id: current.address_id, ...input });
    else create.mutate(input);
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Group justify="space-between" mb="lg">
        <Title order={2} fz="xl">
          {texts.profile.addressHeading}
        </Title>
        {!editing && list.data && (
          <Button
            variant="light"
            leftSection={<IconPencil size={16} />}
            onClick={() => {
              setDraft(draftOf(current));
              reset();
              setEditing(true);
            }}
          >
            {current ? texts.profile.edit : texts.profile.addAddress}
          </Button>
        )}
      </Group>
      {!list.data ? (
        <Skeleton h={60} />
      ) : editing ? (
        <Stack gap="sm" component="form" aria-label={texts.profile.addressHeading} onSubmit={(e) => { e.preventDefault(); submit(); }}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            {addressKeys.map((key) => (
              <TextInput
                key={key}
                name={key}
                label={fieldLabel({ key, label: labels[key], type: 'text', required: required.has(key) })}
                value={draft[key]}
                maxLength={maxLengths[key]}
                error={errors[key]}
                onChange={(e) => {
                  const value = e.currentTarget.value;
                  setDraft((d) => ({ ...d, [key]: value }));
                  clear(key);
                }}
              />
            ))}
          </SimpleGrid>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={() => setEditing(false)} disabled={saving}>
              {texts.profile.cancel}
            </Button>
            <Button type="submit" loading={saving}>
              {texts.profile.save}
            </Button>
          </Group>
        </Stack>
      ) : current ? (
        <Group gap="sm" align="flex-start" wrap="nowrap">
          <IconMapPin size={20} stroke={1.6} style={{ flexShrink: 0, marginTop: 2 }} />
          <Stack gap={2}>
            {addressLines(current).map((line) => (
              <Text key={line}>{line}</Text>
            ))}
          </Stack>
        </Group>
      ) : (
        <Text c="dimmed">{texts.profile.noAddress}</Text>
      )}
    </Paper>
  );
}
