import { Stack } from '@mantine/core';
import { api } from '../api.ts';
import { AutomaticNotices } from './AutomaticNotices.tsx';
import { MessageList } from './MessageList.tsx';
import { SendingSettings } from './SendingSettings.tsx';

/**
 * Mensajes: how the studio sends (SMTP, WhatsApp Business), what
 * the clock sends by itself (confirmations, reminders, the waitlist, the
 * owner's summary), and every message: what, to whom, sent, waiting or failed and why.
 */
export function OutboxScreen() {
  const settings = api.messaging.settings.useQuery();
  const ready = settings.data ? { email: settings.data.email.configured, whatsapp: settings.data.whatsapp.configured } : null;
  return (
    <Stack gap="md">
      <SendingSettings />
      <AutomaticNotices />
      <MessageList ready={ready} />
    </Stack>
  );
}
