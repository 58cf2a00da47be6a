import { Alert, Badge, Button, Card, Collapse, Grid, Group, Modal, NumberInput, SimpleGrid, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconBrandWhatsapp, IconChevronDown, IconChevronRight, IconMail, IconSend } from '@tabler/icons-react';
import { texts, type MessagingSettingsOutput, type MessagingSettingsUpdateInput } from '@estudio/core';
import { useState, type ReactNode } from 'react';
import { errorText } from '../../format.ts';
import { api, errorField } from '../api.ts';
import { useSchemaForm } from '../form.ts';
import { FormError } from '../form-feedback.tsx';
import { Loaded } from '../list-widgets.tsx';
import { Panel } from './Panel.tsx';
import { SecretField, secretPayload, type SecretChange } from './SecretField.tsx';
import { words } from './words.ts';

const w = words.sending;
type Channel = 'email' | 'whatsapp';
type ChannelState = MessagingSettingsOutput['email'];

/** The channel's state in words: configured here, by the server's environment, or not at all (its messages wait). */
export function ChannelStateBadge({ state, testId }: { state: ChannelState; testId: string }) {
  const [color, text] = !state.configured
    ? ['orange', w.state.none]
    : state.source === 'environment'
      ? ['blue', w.state.environment]
      : ['teal', w.state.settings];
  return (
    <Badge color={color} variant="light" size="lg" radius="sm" tt="none" fw={500} style={{ height: 'auto', whiteSpace: 'normal', textAlign: 'left' }} py={4} data-testid={testId}>
      {text}
    </Badge>
  );
}

/** A stored text as the form edits it ('' for none). */
const text = (value: string | null) => value ?? '';

/**
 * Only what changed goes to the server: a text emptied is sent as '' (the
 * server clears it and falls back to the environment), an emptied port as null.
 */
function changedTexts<K extends keyof MessagingSettingsUpdateInput & keyof MessagingSettingsOutput>(
  keys: readonly K[],
  values: Record<string, unknown>,
  stored: MessagingSettingsOutput,
): Partial<MessagingSettingsUpdateInput> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const now = String(values[key] ?? '').trim();
    if (now !== text(stored[key] as string | null)) out[key] = now;
  }
  return out as Partial<MessagingSettingsUpdateInput>;
}

/** The 'Configuración de envío' panel: SMTP and WhatsApp Business, each with its state, Guardar and Enviar prueba. */
export function SendingSettings() {
  const settings = api.messaging.settings.useQuery();
  return (
    <Panel title={w.title} intro={w.intro} testId="sending-settings">
      <Loaded query={settings}>
        {() =>
          settings.data && (
            <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
              <EmailChannel stored={settings.data} />
              <WhatsAppChannel stored={settings.data} />
            </SimpleGrid>
          )
        }
      </Loaded>
    </Panel>
  );
}

/** Saves a channel's changes; the answer (the record as stored) replaces the cached settings. */
function useSave(onSaved: (stored: MessagingSettingsOutput) => void, onError: (error: unknown) => void) {
  const utils = api.useUtils();
  return api.messaging.updateSettings.useMutation({
    onSuccess: (stored) => {
      utils.messaging.settings.setData(undefined, stored);
      onSaved(stored);
      notifications.show({ color: 'teal', message: w.saved });
    },
    onError,
  });
}

function ChannelCard({ icon, title, state, channel, children }: { icon: ReactNode; title: string; state: ChannelState; channel: Channel; children: ReactNode }) {
  return (
    <Card withBorder padding="sm" radius="md" bg="var(--mantine-color-gray-0)" data-testid={`channel-${channel}`}>
      <Stack gap="sm">
        <Group gap="xs" wrap="nowrap">
          {icon}
          <Title order={4}>{title}</Title>
        </Group>
        <ChannelStateBadge state={state} testId={`channel-${channel}-state`} />
        {children}
      </Stack>
    </Card>
  );
}

function EmailChannel({ stored }: { stored: MessagingSettingsOutput }) {
  const initial = () => ({
    smtp_host: text(stored.smtp_host),
    smtp_port: (stored.smtp_port ?? '') as number | string,
    smtp_secure: stored.smtp_secure ?? false,
    smtp_user: text(stored.smtp_user),
    smtp_from: text(stored.smtp_from),
  });
  const form = useSchemaForm(initial());
  const [password, setPassword] = useState<SecretChange>({ mode: 'keep' });
  const save = useSave(
    (answer) => {
      form.reset({
        smtp_host: text(answer.smtp_host),
        smtp_port: answer.smtp_port ?? '',
        smtp_secure: answer.smtp_secure ?? false,
        smtp_user: text(answer.smtp_user),
        smtp_from: text(answer.smtp_from),
      });
      setPassword({ mode: 'keep' });
    },
    (error) => form.serverError(error),
  );
  const v = form.values;
  const port = v.smtp_port === '' ? null : Number(v.smtp_port);
  const payload: Partial<MessagingSettingsUpdateInput> = {
    ...changedTexts(['smtp_host', 'smtp_user', 'smtp_from'] as const, v, stored),
    ...(port !== stored.smtp_port ? { smtp_port: port } : {}),
    ...(v.smtp_secure !== (stored.smtp_secure ?? false) ? { smtp_secure: v.smtp_secure } : {}),
    ...(secretPayload(password) !== undefined ? { smtp_password: secretPayload(password) } : {}),
  };
  const dirty = Object.keys(payload).length > 0;
  // The server checks the values (core's messagingSettingsUpdateInput) and names the field it refuses; its message shows under that field.
  const submit = () => save.mutate(payload);
  const e = form.errors;
  return (
    <ChannelCard icon={<IconMail size={20} />} title={w.email} state={stored.email} channel="email">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <Grid gap="sm">
            <Grid.Col span={{ base: 12, xs: 7 }}>
              <TextInput label={w.smtpHost} description={w.smtpHostHint} value={v.smtp_host} onChange={(x) => form.set('smtp_host', x.currentTarget.value)} error={e.smtp_host} autoComplete="off" />
            </Grid.Col>
            <Grid.Col span={{ base: 12, xs: 5 }}>
              <NumberInput label={w.smtpPort} description={w.smtpPortHint} value={v.smtp_port} onChange={(x) => form.set('smtp_port', x)} error={e.smtp_port} allowDecimal={false} allowNegative={false} hideControls />
            </Grid.Col>
          </Grid>
          <Switch label={w.smtpSecure} description={w.smtpSecureHint} checked={v.smtp_secure} onChange={(x) => form.set('smtp_secure', x.currentTarget.checked)} error={e.smtp_secure} />
          <TextInput label={w.smtpUser} value={v.smtp_user} onChange={(x) => form.set('smtp_user', x.currentTarget.value)} error={e.smtp_user} autoComplete="off" />
          <SecretField label={w.smtpPassword} saved={stored.smtp_password_set} savedText={w.secretSaved} change={password} onChange={setPassword} error={e.smtp_password} testId="smtp-password" />
          <TextInput label={w.smtpFrom} description={w.smtpFromHint} value={v.smtp_from} onChange={(x) => form.set('smtp_from', x.currentTarget.value)} error={e.smtp_from} autoComplete="off" />
          <FormError message={form.formError} />
          <ChannelActions channel="email" dirty={dirty} saving={save.isPending} configured={stored.email.configured} />
        </Stack>
      </form>
    </ChannelCard>
  );
}

function WhatsAppChannel({ stored }: { stored: MessagingSettingsOutput }) {
  const fromStored = (s: MessagingSettingsOutput) => ({
    whatsapp_phone_number_id: text(s.whatsapp_phone_number_id),
    whatsapp_template_language: text(s.whatsapp_template_language),
    whatsapp_api_base: text(s.whatsapp_api_base),
  });
  const form = useSchemaForm(fromStored(stored));
  const [token, setToken] = useState<SecretChange>({ mode: 'keep' });
  const [advanced, toggleAdvanced] = useDisclosure(Boolean(stored.whatsapp_api_base));
  const save = useSave(
    (answer) => {
      form.reset(fromStored(answer));
      setToken({ mode: 'keep' });
    },
    (error) => {
      form.serverError(error);
      // A refused address shows under its field, which is folded away by default.
      if (errorField(error) === 'whatsapp_api_base') toggleAdvanced.open();
    },
  );
  const v = form.values;
  const payload: Partial<MessagingSettingsUpdateInput> = {
    ...changedTexts(['whatsapp_phone_number_id', 'whatsapp_template_language', 'whatsapp_api_base'] as const, v, stored),
    ...(secretPayload(token) !== undefined ? { whatsapp_access_token: secretPayload(token) } : {}),
  };
  const dirty = Object.keys(payload).length > 0;
  const submit = () => save.mutate(payload);
  const e = form.errors;
  return (
    <ChannelCard icon={<IconBrandWhatsapp size={20} />} title={w.whatsapp} state={stored.whatsapp} channel="whatsapp">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={w.phoneNumberId}
            description={w.phoneNumberIdHint}
            value={v.whatsapp_phone_number_id}
            onChange={(x) => form.set('whatsapp_phone_number_id', x.currentTarget.value)}
            error={e.whatsapp_phone_number_id}
            inputMode="numeric"
            autoComplete="off"
          />
          <SecretField label={w.accessToken} saved={stored.whatsapp_access_token_set} savedText={w.secretSavedToken} change={token} onChange={setToken} error={e.whatsapp_access_token} testId="whatsapp-token" />
          <TextInput
            label={w.templateLanguage}
            description={w.templateLanguageHint}
            placeholder="es_MX"
            value={v.whatsapp_template_language}
            onChange={(x) => form.set('whatsapp_template_language', x.currentTarget.value)}
            error={e.whatsapp_template_language}
            autoComplete="off"
          />
          <div>
            <Button
              variant="subtle"
              size="compact-sm"
              px={0}
              leftSection={advanced ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
              onClick={toggleAdvanced.toggle}
              aria-expanded={advanced}
            >
              {w.advanced}
            </Button>
            <Collapse expanded={advanced}>
              <TextInput
                mt="xs"
                label={w.apiBase}
                description={w.apiBaseHint}
                placeholder="https://graph.facebook.com/v21.0"
                value={v.whatsapp_api_base}
                onChange={(x) => form.set('whatsapp_api_base', x.currentTarget.value)}
                error={e.whatsapp_api_base}
                autoComplete="off"
              />
            </Collapse>
          </div>
          <FormError message={form.formError} />
          <ChannelActions channel="whatsapp" dirty={dirty} saving={save.isPending} configured={stored.whatsapp.configured} />
        </Stack>
      </form>
    </ChannelCard>
  );
}

/** Guardar (a submit of the channel's form) and Enviar prueba, which tries what is saved (so not while changes are unsaved). */
function ChannelActions({ channel, dirty, saving, configured }: { channel: Channel; dirty: boolean; saving: boolean; configured: boolean }) {
  const [testing, setTesting] = useState(false);
  return (
    <>
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Button type="submit" loading={saving} disabled={!dirty} data-testid={`${channel}-save`}>
          {texts.adminConsole.save}
        </Button>
        <Button variant="light" leftSection={<IconSend size={16} />} disabled={dirty || !configured} onClick={() => setTesting(true)} data-testid={`${channel}-test`}>
          {w.test}
        </Button>
      </Group>
      {dirty && (
        <Text size="xs" c="dimmed">
          {w.testSaveFirst}
        </Text>
      )}
      <TestMessage channel={channel} opened={testing} onClose={() => setTesting(false)} />
    </>
  );
}

/** Asks for an e-mail or a phone, sends one test message through the saved settings, and says what happened. */
function TestMessage({ channel, opened, onClose }: { channel: Channel; opened: boolean; onClose: () => void }) {
  const [recipient, setRecipient] = useState('');
  const [missing, setMissing] = useState(false);
  const send = api.messaging.sendTest.useMutation();
  const close = () => {
    send.reset();
    setMissing(false);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={channel === 'email' ? w.testTitleEmail : w.testTitleWhatsapp} centered>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!recipient.trim()) {
            setMissing(true);
            return;
          }
          send.mutate({ channel, recipient: recipient.trim() });
        }}
      >
        <Stack data-testid={`${channel}-test-dialog`}>
          <TextInput
            label={channel === 'email' ? w.testRecipientEmail : w.testRecipientWhatsapp}
            description={channel === 'whatsapp' ? w.testRecipientWhatsappHint : undefined}
            type={channel === 'email' ? 'email' : 'tel'}
            value={recipient}
            onChange={(x) => {
              setRecipient(x.currentTarget.value);
              setMissing(false);
            }}
            error={missing ? w.testNeedsRecipient : undefined}
            data-autofocus
          />
          {send.isSuccess && (
            <Alert color="teal" data-testid="test-result">
              {w.testSent(send.data.provider_message_id || null)}
            </Alert>
          )}
          {send.isError && (
            <Alert color="red" data-testid="test-result">
              {errorText(send.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {texts.adminConsole.close}
            </Button>
            <Button type="submit" loading={send.isPending} leftSection={<IconSend size={16} />}>
              {w.testSend}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
