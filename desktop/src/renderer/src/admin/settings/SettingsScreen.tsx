import { Autocomplete, Button, Card, ColorInput, Grid, Group, NumberInput, Select, SimpleGrid, Stack, Switch, Tabs, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { configMap, type AppConfigMap } from '@estudio/core';
import { useMemo, useState } from 'react';
import { api, errorField } from '../api.ts';
import { useSchemaForm } from '../form.ts';
import { AutomaticNotices } from '../outbox/AutomaticNotices.tsx';
import { SendingSettings } from '../outbox/SendingSettings.tsx';
import { BankTransferSettings } from '../packages/BankTransferSettings.tsx';
import { PacSettings } from '../invoicing/PacSettings.tsx';
import { FormError, Hint } from '../form-feedback.tsx';
import { ImageField } from '../image-fields.tsx';
import { Loaded } from '../list-widgets.tsx';
import { LandingPreview } from './LandingPreview.tsx';
import { labelOf, settingsFormKeys, settingsTabs, tabOf, type SettingField, type SettingsTabKey } from './fields.ts';

type Values = Record<string, string>;

const valuesOf = (config: AppConfigMap): Values => Object.fromEntries(settingsFormKeys.map((key) => [key, config[key]]));

/** Every IANA zone the runtime knows, offered as the owner types (a name it does not know is still sent, and the server says why not). */
const timeZones = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return ['America/Mexico_City'];
  }
})();

/**
 * Configuración: every setting of the app configuration in five
 * tabs, with a likeness of the landing that follows what the owner types.
 * Guardar sends only what changed; the server checks each value (decision
 * 013) and a refusal shows under its field, on its tab, with everything else
 * typed kept. The bank transfer and the messages keep their own panels,
 * shown here as they are on Paquetes and Mensajes.
 */
export function SettingsScreen({ initialTab = 'marca' }: { initialTab?: SettingsTabKey | undefined }) {
  const config = api.appconfig.get.useQuery();
  return <Loaded query={config}>{() => config.data && <SettingsForm stored={configMap(config.data.config)} initialTab={initialTab} />}</Loaded>;
}

function SettingsForm({ stored, initialTab }: { stored: AppConfigMap; initialTab: SettingsTabKey }) {
  const form = useSchemaForm<Values>(valuesOf(stored));
  // Primeros pasos opens the tab where its step is done (decision 129).
  const [tab, setTab] = useState<SettingsTabKey>(initialTab);
  const utils = api.useUtils();
  const packages = api.packages.adminAll.useQuery({ limit: 100 });
  const packageOptions = useMemo(
    () => (packages.data?.class_packages ?? []).map((p) => ({ value: String(p.class_package_id), label: p.title })),
    [packages.data],
  );
  const before = valuesOf(stored);
  const changes = settingsFormKeys.filter((key) => form.values[key] !== before[key]).map((key) => ({ key, value: form.values[key] ?? '' }));
  const save = api.appconfig.update.useMutation({
    onSuccess: (answer) => {
      utils.appconfig.get.setData(undefined, answer);
      // The values as stored: the time zone's offset kept in step (decision 030) shows at once.
      form.reset(valuesOf(configMap(answer.config)));
      notifications.show({ color: 'teal', message: 'Configuración guardada.' });
    },
    onError: (error) => {
      form.serverError(error);
      const where = tabOf(errorField(error) ?? '');
      if (where) setTab(where);
    },
  });
  // The preview draws the stored settings with the form's unsaved values over them.
  const preview = { ...stored, ...form.values } as AppConfigMap;

  const input = (field: SettingField) => {
    const value = form.values[field.key] ?? '';
    const common = { label: labelOf(field), description: field.help, error: form.errors[field.key], 'data-testid': `setting-${field.key}` };
    const set = (v: string) => form.set(field.key, v);
    switch (field.kind) {
      case 'switch':
        return (
          <Switch
            key={field.key}
            label={common.label}
            description={common.description}
            error={common.error}
            data-testid={common['data-testid']}
            checked={value === 'true' || value === '1'}
            onChange={(e) => set(e.currentTarget.checked ? 'true' : 'false')}
            mt="xs"
          />
        );
      case 'integer':
        return (
          <NumberInput
            key={field.key}
            {...common}
            value={value}
            onChange={(v) => set(String(v))}
            allowDecimal={false}
            allowNegative={field.key === 'timezone_offset'}
          />
        );
      case 'colour':
        return <ColorInput key={field.key} {...common} value={value} onChange={set} format="hex" />;
      case 'choice':
        return <Select key={field.key} {...common} data={field.options ?? []} value={value} onChange={(v) => set(v ?? '')} allowDeselect={false} />;
      case 'package':
        return (
          <Select
            key={field.key}
            {...common}
            data={value && !packageOptions.some((o) => o.value === value) ? [...packageOptions, { value, label: `Paquete ${value}` }] : packageOptions}
            value={value || null}
            onChange={(v) => set(v ?? '')}
            clearable
            searchable
            placeholder="Ninguno"
          />
        );
      case 'image':
        return <ImageField key={field.key} label={common.label} value={value || null} onChange={(src) => set(src ?? '')} error={common.error} testId={common['data-testid']} wide={false} />;
      case 'timezone':
        return <Autocomplete key={field.key} {...common} data={timeZones} limit={12} value={value} onChange={set} />;
      case 'textarea':
      case 'code':
        return (
          <Textarea
            key={field.key}
            {...common}
            value={value}
            onChange={(e) => set(e.currentTarget.value)}
            autosize
            minRows={2}
            maxRows={8}
            styles={field.kind === 'code' ? { input: { fontFamily: 'monospace', fontSize: 12 } } : undefined}
            style={{ gridColumn: '1 / -1' }}
          />
        );
      default:
        return <TextInput key={field.key} {...common} value={value} onChange={(e) => set(e.currentTarget.value)} />;
    }
  };

  const saveBar = (
    <Card withBorder padding="sm" style={{ position: 'sticky', bottom: 0, zIndex: 2 }}>
      <Stack gap="xs">
        <FormError message={form.formError} />
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" c={changes.length ? undefined : 'dimmed'} data-testid="settings-changes">
            {changes.length === 0 ? 'Sin cambios por guardar.' : changes.length === 1 ? '1 cambio sin guardar.' : `${changes.length} cambios sin guardar.`}
          </Text>
          <Group gap="xs">
            <Button variant="default" disabled={changes.length === 0} onClick={() => form.reset(before)} data-testid="settings-discard">
              Descartar
            </Button>
            <Button disabled={changes.length === 0} loading={save.isPending} onClick={() => save.mutate({ config: changes })} data-testid="settings-save">
              Guardar
            </Button>
          </Group>
        </Group>
      </Stack>
    </Card>
  );

  return (
    <Stack gap="md" data-testid="settings">
      <Hint>Lo que cambies aquí se ve en el portal de tus clientes en cuanto lo guardes.</Hint>
      <Tabs value={tab} onChange={(v) => v && setTab(v as SettingsTabKey)} keepMounted={false}>
        <Tabs.List>
          {settingsTabs.map((t) => (
            <Tabs.Tab key={t.key} value={t.key} data-testid={`settings-tab-${t.key}`}>
              {t.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {settingsTabs.map((t) => (
          <Tabs.Panel key={t.key} value={t.key} pt="md">
            {t.key === 'notificaciones' ? (
              <Stack gap="md">
                <SendingSettings />
                <AutomaticNotices />
              </Stack>
            ) : (
              <Grid gap="md">
                <Grid.Col span={{ base: 12, lg: 8 }}>
                  <Stack gap="md">
                    {t.groups.map((g) => (
                      <Card key={g.title} withBorder padding="md">
                        <Stack gap="sm">
                          <div>
                            <Title order={3}>{g.title}</Title>
                            {g.intro && (
                              <Text size="sm" c="dimmed">
                                {g.intro}
                              </Text>
                            )}
                          </div>
                          <SimpleGrid cols={{ base: 1, sm: 2 }}>{g.fields.map(input)}</SimpleGrid>
                        </Stack>
                      </Card>
                    ))}
                    {saveBar}
                    {/* Its own Guardar, as on Paquetes: after the form's bar, so the two never cover each other. */}
                    {t.key === 'pagos' && <BankTransferSettings />}
                    {t.key === 'facturacion' && <PacSettings />}
                  </Stack>
                </Grid.Col>
                <Grid.Col span={{ base: 12, lg: 4 }}>
                  <Stack gap="xs" style={{ position: 'sticky', top: 0 }}>
                    <Text fw={600} size="sm">
                      Vista previa de la portada
                    </Text>
                    <LandingPreview config={preview} />
                  </Stack>
                </Grid.Col>
              </Grid>
            )}
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
