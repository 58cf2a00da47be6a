import { useState } from 'react';
import { ActionIcon, Button, CopyButton, Group, Modal, Paper, Skeleton, Stack, Switch, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconBrandGoogle, IconCalendarPlus, IconCheck, IconCopy, IconRefresh } from '@tabler/icons-react';
import { texts, type MessagePreferencesInput } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorMessage } from '../../../api/errors.ts';
import { showError, showSuccess } from '../../../ui/alerts.ts';

const t = texts.customerMessages;

/** webcal:// makes Apple Calendar (and Outlook) subscribe instead of downloading the file once. */
const webcalOf = (url: string) => url.replace(/^https?:\/\//, 'webcal://');
const googleCalendarOf = (url: string) => `https://calendar.google.com/calendar/r?cid=${encodeURIComponent(webcalOf(url))}`;

/**
 * Mi Información › Mensajes: the channels of the optional messages
 * (reminders, waitlist places, notices) and the private calendar feed of the
 * customer's bookings. Transactional messages always arrive, and it says so.
 */
export function MessagesCard() {
  const utils = trpc.useUtils();
  // PersonalCard refreshes it when a saved phone changes where WhatsApp goes.
  const prefs = trpc.messages.preferences.useQuery();

  const update = trpc.messages.updatePreferences.useMutation({
    onSuccess: (stored) => {
      utils.messages.preferences.setData(undefined, stored);
      showSuccess(t.saved);
    },
    onError: (failure) => showError(errorMessage(failure)),
  });
  const [confirming, setConfirming] = useState(false);
  const renew = trpc.messages.renewCalendarLink.useMutation({
    onSuccess: ({ calendar_url }) => {
      utils.messages.preferences.setData(undefined, (old) => (old ? { ...old, calendar_url } : old));
      setConfirming(false);
      showSuccess(t.renewed);
    },
    onError: (failure) => showError(errorMessage(failure)),
  });

  const data = prefs.data;
  const toggle = (change: MessagePreferencesInput) => update.mutate(change);

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }} component="section" aria-labelledby="mensajes-heading">
      <Title order={2} fz="xl" mb="xs" id="mensajes-heading">
        {t.heading}
      </Title>
      <Text size="sm" c="dimmed" mb="lg">
        {t.intro}
      </Text>
      {!data ? (
        <Stack gap="sm" aria-busy="true">
          <Skeleton h={44} />
          <Skeleton h={44} />
          <Skeleton h={80} />
        </Stack>
      ) : (
        <Stack gap="xl">
          <Stack gap="md">
            <Switch
              size="md"
              label={t.email}
              description={t.emailTo(data.email)}
              // A long address breaks anywhere rather than running past the card on a phone.
              styles={{ description: { overflowWrap: 'anywhere' } }}
              checked={data.email_enabled}
              disabled={update.isPending}
              onChange={(e) => toggle({ email_enabled: e.currentTarget.checked })}
            />
            <Switch
              size="md"
              label={t.whatsapp}
              description={data.phone ? t.whatsappTo(data.phone) : (data.phone_hint ?? t.noPhoneHint)}
              checked={data.phone ? data.whatsapp_enabled : false}
              disabled={update.isPending || !data.phone}
              onChange={(e) => toggle({ whatsapp_enabled: e.currentTarget.checked })}
            />
            <Text size="sm" c="dimmed">
              {t.alwaysArrive}
            </Text>
          </Stack>

          <Stack gap="sm">
            <Text fw={700}>{t.calendarHeading}</Text>
            <Text size="sm" c="dimmed">
              {t.calendarIntro}
            </Text>
            <Group gap="xs" wrap="nowrap" align="flex-end">
              <TextInput
                label={t.calendarUrlLabel}
                value={data.calendar_url}
                readOnly
                style={{ flex: 1, minWidth: 0 }}
                onFocus={(e) => e.currentTarget.select()}
              />
              <CopyButton value={data.calendar_url} timeout={2000}>
                {({ copied, copy }) => (
                  <Tooltip label={copied ? t.copied : t.copy} withArrow>
                    <ActionIcon size={36} variant="light" color={copied ? 'teal' : undefined} onClick={copy} aria-label={copied ? t.copied : t.copy}>
                      {copied ? <IconCheck size={18} /> : <IconCopy size={18} />}
                    </ActionIcon>
                  </Tooltip>
                )}
              </CopyButton>
            </Group>
            <Group gap="sm">
              <Button component="a" href={googleCalendarOf(data.calendar_url)} target="_blank" rel="noopener noreferrer" variant="light" leftSection={<IconBrandGoogle size={16} />}>
                {t.googleCalendar}
              </Button>
              <Button component="a" href={webcalOf(data.calendar_url)} variant="light" leftSection={<IconCalendarPlus size={16} />}>
                {t.appleCalendar}
              </Button>
              {/* On the left, under the buttons: the floating WhatsApp button covers a phone's bottom-right corner. */}
              <Button variant="subtle" color="gray" leftSection={<IconRefresh size={16} />} onClick={() => setConfirming(true)}>
                {t.renew}
              </Button>
            </Group>
          </Stack>
        </Stack>
      )}
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t.renewTitle} centered>
        <Stack gap="lg">
          <Text size="sm">{t.renewBody}</Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t.renewCancel}
            </Button>
            <Button color="red" loading={renew.isPending} onClick={() => renew.mutate({})}>
              {t.renewConfirm}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
