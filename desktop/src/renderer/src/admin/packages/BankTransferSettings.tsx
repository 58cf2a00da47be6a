import { Button, Card, Group, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { appConfigRules, configMap, isValidClabe, type AppConfigKey, type AppConfigMap } from '@estudio/core';
import { api } from '../api.ts';
import { useSchemaForm } from '../form.ts';
import { FormError } from '../form-feedback.tsx';
import { Loaded } from '../list-widgets.tsx';

/** The studio's account for transfers (decision 029): shown on the portal's order page of every 'Efectivo' purchase. */
const keys = ['bank_name', 'bank_clabe', 'bank_beneficiary'] as const;
/** The settings this panel edits (the console's Configuración shows this panel under Pagos). */
export const bankTransferKeys: readonly AppConfigKey[] = keys;
type Key = (typeof keys)[number];
type Values = Record<Key, string>;

const label = (key: Key) => appConfigRules[key]?.label ?? key;
const valuesOf = (config: AppConfigMap): Values => ({ bank_name: config.bank_name, bank_clabe: config.bank_clabe, bank_beneficiary: config.bank_beneficiary });

export function BankTransferSettings() {
  const config = api.appconfig.get.useQuery();
  return (
    <Card withBorder padding="md" data-testid="bank-transfer-settings">
      <Stack gap="sm">
        <div>
          <Title order={3}>Transferencia bancaria</Title>
          <Text size="sm" c="dimmed">
            Los clientes que eligen Efectivo ven estos datos en su orden, con su número de orden como referencia. Sin CLABE, se les pide preguntar en recepción.
          </Text>
        </div>
        <Loaded query={config}>{() => config.data && <BankForm stored={configMap(config.data.config)} />}</Loaded>
      </Stack>
    </Card>
  );
}

function BankForm({ stored }: { stored: AppConfigMap }) {
  const form = useSchemaForm<Values>(valuesOf(stored));
  const [clabeError, setClabeError] = useState<string | null>(null);
  const utils = api.useUtils();
  const before = valuesOf(stored);
  const changes = keys.filter((key) => form.values[key].trim() !== before[key]).map((key) => ({ key, value: form.values[key].trim() }));
  const save = api.appconfig.update.useMutation({
    onSuccess: (answer) => {
      utils.appconfig.get.setData(undefined, answer);
      form.reset(valuesOf(configMap(answer.config)));
      notifications.show({ color: 'teal', message: 'Datos de transferencia guardados.' });
    },
    onError: (error) => form.serverError(error),
  });

  const field = (key: Key, props: { maxLength: number; placeholder?: string; inputMode?: 'numeric' }) => (
    <TextInput
      label={label(key)}
      value={form.values[key]}
      onChange={(e) => {
        if (key === 'bank_clabe') setClabeError(null);
        form.set(key, key === 'bank_clabe' ? e.currentTarget.value.replace(/\D/g, '') : e.currentTarget.value);
      }}
      error={form.errors[key] ?? (key === 'bank_clabe' ? clabeError : null)}
      data-testid={`setting-${key}`}
      {...props}
    />
  );

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const clabe = form.values.bank_clabe.trim();
        // The same rule the server applies (core's isValidClabe), said before the round trip.
        if (clabe && !isValidClabe(clabe)) {
          setClabeError('La CLABE debe tener 18 dígitos y el último es su dígito verificador: revísala en tu estado de cuenta.');
          return;
        }
        save.mutate({ config: changes });
      }}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, md: 3 }}>
          {field('bank_name', { maxLength: 60, placeholder: 'BBVA México' })}
          {/* Room for a CLABE pasted as banks print it, with spaces; only its digits are kept. */}
          {field('bank_clabe', { maxLength: 24, placeholder: '18 dígitos', inputMode: 'numeric' })}
          {field('bank_beneficiary', { maxLength: 120, placeholder: 'Razón social o nombre del titular' })}
        </SimpleGrid>
        <FormError message={form.formError} />
        <Group justify="flex-end">
          <Button type="submit" disabled={changes.length === 0} loading={save.isPending} data-testid="bank-transfer-save">
            Guardar
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
