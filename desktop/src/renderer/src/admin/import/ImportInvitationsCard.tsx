import { Alert, Button, Checkbox, Group, Modal, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { IconMailForward } from '@tabler/icons-react';
import { customerInvitationDefaultLimit, customerInvitationMaxLimit, texts, type CustomerInvitationsOutput } from '@estudio/core';
import { useState } from 'react';
import { errorText } from '../../format.ts';
import { api } from '../api.ts';

const t = texts.customerInvitations;
/** "Invitar otra vez": those invited at least this long ago who still have no password. */
const resendAfterDays = 14;

/**
 * Invitar a crear su contraseña (decision 128): how many customers without a password (imported, or registered at
 * the desk) have not been invited, and a run of up to N invitations, confirmed first. The result says the e-mails
 * wait in the outbox, never that they were sent; with no e-mail channel the button is off and says why.
 */
export function ImportInvitationsCard() {
  const utils = api.useUtils();
  const [limit, setLimit] = useState<number>(customerInvitationDefaultLimit);
  const [resend, setResend] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [done, setDone] = useState<CustomerInvitationsOutput | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const options = resend ? { resend_after_days: resendAfterDays } : {};
  const limitValid = Number.isInteger(limit) && limit >= 1 && limit <= customerInvitationMaxLimit;
  const preview = api.customerInvitations.preview.useQuery({ limit: limitValid ? limit : customerInvitationDefaultLimit, ...options });
  const send = api.customerInvitations.send.useMutation({
    onSuccess: (result) => {
      setDone(result);
      setConfirming(false);
      void utils.customerInvitations.preview.invalidate();
    },
    onError: (failure) => {
      setConfirming(false);
      setProblem(errorText(failure));
    },
  });
  const counts = preview.data;
  const toInvite = counts?.invited ?? 0;

  return (
    <Paper withBorder p="md" radius="md" data-testid="import-invitations">
      <Stack gap="sm">
        <Title order={4}>{t.title}</Title>
        <Text size="sm" c="dimmed">
          {t.intro}
        </Text>
        {preview.error && (
          <Alert color="red" role="alert">
            {errorText(preview.error)}
          </Alert>
        )}
        {counts && (
          <Stack gap={2} data-testid="import-invitations-counts">
            <Text fw={600}>{t.waiting(counts.waiting)}</Text>
            {counts.already_invited > 0 && (
              <Text size="sm" c="dimmed">
                {t.alreadyInvited(counts.already_invited)}
              </Text>
            )}
          </Stack>
        )}
        {counts && !counts.email_configured && (
          <Alert color="yellow" data-testid="import-invitations-no-channel">
            {t.noChannel}
          </Alert>
        )}
        {problem && (
          <Alert color="red" role="alert" withCloseButton onClose={() => setProblem(null)}>
            {problem}
          </Alert>
        )}
        {done && (
          <Alert color="blue" data-testid="import-invitations-result" withCloseButton onClose={() => setDone(null)}>
            <Text size="sm" fw={600}>
              {t.result(done.invited)}
            </Text>
            {done.waiting > 0 && <Text size="sm">{t.remaining(done.waiting)}</Text>}
          </Alert>
        )}
        <Checkbox label={t.resend} checked={resend} onChange={(e) => setResend(e.currentTarget.checked)} />
        <Group align="flex-end" gap="sm" wrap="wrap">
          <NumberInput
            label={t.limitLabel}
            description={t.limitHint}
            value={limit}
            onChange={(value) => setLimit(typeof value === 'number' ? value : Number(value) || 0)}
            min={1}
            max={customerInvitationMaxLimit}
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator=","
            w={{ base: '100%', xs: 260 }}
            error={limitValid ? null : t.limitHint}
          />
          <Button
            leftSection={<IconMailForward size={18} />}
            disabled={!counts?.email_configured || toInvite === 0 || !limitValid}
            onClick={() => {
              setProblem(null);
              setDone(null);
              setConfirming(true);
            }}
          >
            {t.invite}
          </Button>
        </Group>
      </Stack>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title={t.confirmTitle} data-testid="import-invitations-confirm">
        <Stack>
          <Text size="sm">{t.confirm(toInvite)}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              {t.cancel}
            </Button>
            <Button loading={send.isPending} onClick={() => send.mutate({ limit, ...options })}>
              {t.confirmYes(toInvite)}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
