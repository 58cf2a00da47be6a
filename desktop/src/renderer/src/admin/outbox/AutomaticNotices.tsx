import { Button, Group, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { appConfigRules, configMap, isOn, type AppConfigKey, type AppConfigMap } from '@estudio/core';
import type { ReactNode } from 'react';
import { api } from '../api.ts';
import { useSchemaForm } from '../form.ts';
import { FormError } from '../form-feedback.tsx';
import { Loaded } from '../list-widgets.tsx';
import { Panel } from './Panel.tsx';
import { words } from './words.ts';

const w = words.notices;

/** The studio's clock: the app-config keys of messages and automatic jobs, edited here. */
const switches = ['booking_confirmations_enabled', 'reminders_enabled', 'waitlist_auto_promote', 'owner_summary_enabled'] as const;
const numbers = ['reminder_hours_before', 'waitlist_promotion_cutoff_minutes', 'credits_expiring_notice_days', 'owner_summary_hour'] as const;
const textKeys = ['subscription_retry_days', 'owner_summary_email'] as const;
/** The settings this panel edits (the console's Configuración shows this panel under Notificaciones). */
export const noticeKeys: readonly AppConfigKey[] = [...switches, ...numbers, ...textKeys];
type SwitchKey = (typeof switches)[number];
type NumberKey = (typeof numbers)[number];
type TextKey = (typeof textKeys)[number];
type Values = Record<SwitchKey, boolean> & Record<NumberKey, number | string> & Record<TextKey, string>;

/** The setting's name as the server's message names it (core's appConfigRules). */
const label = (key: AppConfigKey) => appConfigRules[key]?.label ?? key;

function valuesOf(config: AppConfigMap): Values {
  const out: Record<string, unknown> = {};
  for (const key of switches) out[key] = isOn(config[key]);
  for (const key of numbers) out[key] = config[key] === '' ? '' : Number(config[key]);
  for (const key of textKeys) out[key] = config[key];
  return out as Values;
}

/** The values as app config stores them: 'true'/'false', digits, text. */
function storedOf(values: Values): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of switches) out[key] = values[key] ? 'true' : 'false';
  for (const key of numbers) out[key] = String(values[key]).trim();
  for (const key of textKeys) out[key] = values[key].trim();
  return out;
}

const number = (v: number | string, fallback: number) => (v === '' || Number.isNaN(Number(v)) ? fallback : Number(v));
const hour = (h: number) => `${String(h).padStart(2, '0')}:00`;
/** '1,3,5' → '1, 3 y 5'. */
const dayList = (value: string) => {
  const days = value.split(',').map((d) => d.trim()).filter(Boolean);
  return days.length <= 1 ? (days[0] ?? '') : `${days.slice(0, -1).join(', ')} y ${days.at(-1)}`;
};

/** The 'Avisos automáticos' panel: switches and numbers with the settings' Spanish names and a line saying what each does now. */
export function AutomaticNotices() {
  const config = api.appconfig.get.useQuery();
  return (
    <Panel title={w.title} intro={w.intro} testId="automatic-notices">
      <Loaded query={config}>{() => config.data && <NoticesForm stored={configMap(config.data.config)} />}</Loaded>
    </Panel>
  );
}

function Group4({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Text fw={600}>{title}</Text>
      {children}
    </Stack>
  );
}

function NoticesForm({ stored }: { stored: AppConfigMap }) {
  const form = useSchemaForm<Values>(valuesOf(stored));
  const utils = api.useUtils();
  const before = storedOf(valuesOf(stored));
  const changes = Object.entries(storedOf(form.values))
    .filter(([key, value]) => before[key] !== value)
    .map(([key, value]) => ({ key, value }));
  const save = api.appconfig.update.useMutation({
    onSuccess: (answer) => {
      utils.appconfig.get.setData(undefined, answer);
      form.reset(valuesOf(configMap(answer.config)));
      notifications.show({ color: 'teal', message: w.saved });
    },
    // 'El valor de «Horas antes de la clase…» no es válido: …' under the setting it names.
    onError: (error) => form.serverError(error),
  });
  const v = form.values;
  const e = form.errors;

  const toggle = (key: SwitchKey, help: string) => (
    <Switch label={label(key)} description={help} checked={v[key]} onChange={(x) => form.set(key, x.currentTarget.checked)} error={e[key]} data-testid={`notice-${key}`} />
  );
  const amount = (key: NumberKey, help: string, disabled: boolean, unit: string) => (
    <NumberInput
      label={label(key)}
      description={help}
      value={v[key]}
      onChange={(x) => form.set(key, x)}
      error={e[key]}
      disabled={disabled}
      allowDecimal={false}
      allowNegative={false}
      rightSection={
        <Text size="xs" c="dimmed" pr="xs">
          {unit}
        </Text>
      }
      rightSectionWidth={70}
      hideControls
      data-testid={`notice-${key}`}
    />
  );

  const hours = number(v.reminder_hours_before, 2);
  const cutoff = number(v.waitlist_promotion_cutoff_minutes, 60);
  const expiring = number(v.credits_expiring_notice_days, 7);
  const summaryHour = number(v.owner_summary_hour, 7);
  const retries = dayList(v.subscription_retry_days);

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ config: changes });
      }}
    >
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg" verticalSpacing="lg">
          <Group4 title="Reservaciones">
            {toggle(
              'booking_confirmations_enabled',
              v.booking_confirmations_enabled
                ? 'Al reservar, el cliente recibe su código de acceso, cómo cancelar y la invitación para su calendario.'
                : 'No se envía confirmación al reservar.',
            )}
            {toggle('reminders_enabled', v.reminders_enabled ? `Recordatorio ${w.hours(hours)} antes de cada clase.` : 'No se envían recordatorios.')}
            {amount('reminder_hours_before', 'De 1 a 72 horas.', !v.reminders_enabled, 'horas')}
          </Group4>
          <Group4 title="Lista de espera">
            {toggle(
              'waitlist_auto_promote',
              v.waitlist_auto_promote
                ? `Al liberarse un lugar, se reserva para el primero de la lista que tenga créditos (se le descuenta uno) y se le avisa; a menos de ${w.minutes(cutoff)} de la clase se avisa a toda la lista.`
                : 'Al liberarse un lugar, se avisa a toda la lista a la vez y el primero que reserve se lo queda.',
            )}
            {amount('waitlist_promotion_cutoff_minutes', 'De 0 a 1440 minutos antes de la clase.', !v.waitlist_auto_promote, 'min')}
          </Group4>
          <Group4 title="Créditos y suscripciones">
            {amount(
              'credits_expiring_notice_days',
              expiring > 0 ? `Aviso ${w.days(expiring)} antes de que venzan los créditos de un cliente. 0: sin aviso.` : 'No se avisa antes de que venzan los créditos.',
              false,
              'días',
            )}
            <TextInput
              label={label('subscription_retry_days')}
              description={
                retries
                  ? `Si el cobro de una suscripción falla, se intenta de nuevo ${retries} ${retries === '1' ? 'día' : 'días'} después; si el último falla, se cancela. Al cliente se le avisa cada vez.`
                  : 'Si el cobro de una suscripción falla, se cancela y se avisa al cliente.'
              }
              placeholder="1,3,5"
              value={v.subscription_retry_days}
              onChange={(x) => form.set('subscription_retry_days', x.currentTarget.value)}
              error={e.subscription_retry_days}
              data-testid="notice-subscription_retry_days"
            />
          </Group4>
          <Group4 title="Resumen diario">
            {toggle(
              'owner_summary_enabled',
              v.owner_summary_enabled
                ? `Cada día a las ${hour(summaryHour)}: asistencia, ventas e inasistencias del día anterior y la ocupación del día siguiente.`
                : 'No se envía el resumen diario.',
            )}
            {amount('owner_summary_hour', 'Hora del estudio, de 0 a 23.', !v.owner_summary_enabled, 'h')}
            <TextInput
              label={label('owner_summary_email')}
              description={v.owner_summary_email.trim() ? 'El resumen llega a este correo.' : `Vacío: llega al correo de contacto del estudio (${stored.email}).`}
              type="email"
              placeholder={stored.email}
              value={v.owner_summary_email}
              onChange={(x) => form.set('owner_summary_email', x.currentTarget.value)}
              error={e.owner_summary_email}
              disabled={!v.owner_summary_enabled}
              data-testid="notice-owner_summary_email"
            />
          </Group4>
        </SimpleGrid>
        <FormError message={form.formError} />
        <Group>
          <Button type="submit" loading={save.isPending} disabled={changes.length === 0} data-testid="notices-save">
            {w.save}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
