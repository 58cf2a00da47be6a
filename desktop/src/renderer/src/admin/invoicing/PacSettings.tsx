import { Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { mxTexts } from '@estudio/core';
import { useState } from 'react';
import { errorText } from '../../format.ts';
import { api } from '../api.ts';
import { Panel } from '../outbox/Panel.tsx';
import { SecretField, secretPayload, type SecretChange } from '../outbox/SecretField.tsx';
import { Loaded } from '../list-widgets.tsx';

const t = mxTexts.fiscalSettings;
const keep: SecretChange = { mode: 'keep' };

/**
 * The studio's PAC account (decision 084): facturapi's secret key and its
 * webhook secret, written and never read back (the messaging settings' way);
 * without a key every invoice waits as pending, and the panel says how many.
 */
export function PacSettings() {
  const stored = api.cfdi.pac.useQuery();
  const utils = api.useUtils();
  const [key, setKey] = useState<SecretChange>(keep);
  const [secret, setSecret] = useState<SecretChange>(keep);
  const save = api.cfdi.updatePac.useMutation({
    onSuccess: (answer) => {
      utils.cfdi.pac.setData(undefined, answer);
      setKey(keep);
      setSecret(keep);
      notifications.show({ color: 'teal', message: t.pacSaved });
    },
    onError: (error) => notifications.show({ color: 'red', message: errorText(error) }),
  });
  const changes = { facturapi_key: secretPayload(key), webhook_secret: secretPayload(secret) };
  const dirty = changes.facturapi_key !== undefined || changes.webhook_secret !== undefined;
  return (
    <Panel title={t.pacTitle} intro={t.pacIntro} testId="pac-settings">
      <Loaded query={stored}>
        {() =>
          stored.data && (
            <Stack gap="sm">
              <Group gap="xs">
                <Badge color={stored.data.facturapi_key_set ? 'teal' : 'orange'} variant="light" tt="none" size="lg" radius="sm" data-testid="pac-state">
                  {stored.data.facturapi_key_set ? t.pacKeySet : t.pacKeyNotSet}
                </Badge>
                {stored.data.pending > 0 && <Text size="sm">{t.pacPending(stored.data.pending)}</Text>}
              </Group>
              <SecretField label={t.pacKey} saved={stored.data.facturapi_key_set} savedText={t.pacKeySet} change={key} onChange={setKey} testId="pac-key" />
              <SecretField label={t.pacWebhookSecret} saved={stored.data.webhook_secret_set} savedText={t.pacKeySet} change={secret} onChange={setSecret} testId="pac-webhook-secret" />
              <Group justify="flex-end">
                <Button disabled={!dirty} loading={save.isPending} onClick={() => save.mutate(changes)} data-testid="pac-save">
                  Guardar
                </Button>
              </Group>
            </Stack>
          )
        }
      </Loaded>
    </Panel>
  );
}
