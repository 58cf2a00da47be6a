import { useState } from 'react';
import { Button, Group, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { changePasswordInput, checkPassword, email as emailSchema, passwordPolicyFromConfig, passwordRuleTexts, requestEmailChangeInput, texts } from '@estudio/core';
import { trpc } from '../../../api/trpc.ts';
import { errorFacts } from '../../../api/errors.ts';
import { useAppConfig } from '../../../config/AppConfigContext.tsx';
import { useSession, type Customer } from '../../../session/SessionProvider.tsx';
import { showError, showSuccess } from '../../../ui/alerts.ts';
import { maxLengthsOf, useFormErrors } from '../../../ui/form-errors.ts';

const passwordLabels = { current_password: texts.profile.currentPassword, password: texts.forms.newPassword, password_confirm: texts.forms.passwordConfirm };
const passwordLimits = maxLengthsOf(changePasswordInput.shape);
const emailLabels = { email: texts.forms.email, password: texts.profile.currentPassword };
const emailLimits = maxLengthsOf(requestEmailChangeInput.shape);

/**
 * The account's e-mail and a password change through the identity provider.
 * The password change asks for the current password (a wrong one shows by its
 * field and counts as a failed sign-in), revokes every other session and
 * answers new tokens, which this session keeps. An e-mail change only mails a link to the new
 * address (EmailChangeForm); the e-mail changes when that link is opened.
 */
export function AccountCard({ customer }: { customer: Customer }) {
  const config = useAppConfig();
  const { store } = useSession();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const { errors, fail, failFromServer } = useFormErrors(passwordLabels);
  const change = trpc.auth.changePassword.useMutation({
    onSuccess: (tokens) => {
      store.start(tokens);
      setCurrent('');
      setPassword('');
      setConfirm('');
      showSuccess(texts.profile.passwordChanged);
    },
    onError: (failure) => {
      const { code, message } = errorFacts(failure);
      // The server's answers that belong to one field show by it; anything else is an alert.
      if (code === 'auth/wrong-current-password') fail({ current_password: message });
      else if (code === 'auth/weak-password') fail({ password: message });
      else failFromServer(failure);
    },
  });

  const submit = () => {
    const policy = passwordPolicyFromConfig(config);
    const broken = checkPassword(password, policy)[0];
    const found = {
      current_password: current ? undefined : texts.forms.fieldRequired,
      password: broken ? passwordRuleTexts[broken](policy) : undefined,
      password_confirm: !broken && password !== confirm ? texts.auth.passwordsMismatch : undefined,
    };
    if (fail(found)) return;
    change.mutate({ current_password: current, password, password_confirm: confirm });
  };

  return (
    <Paper withBorder radius="lg" p={{ base: 'md', sm: 'xl' }}>
      <Title order={2} fz="xl" mb="lg">
        {texts.profile.accountHeading}
      </Title>
      <Stack gap="lg">
        <EmailChangeForm key={customer.email} current={customer.email} />
        <Stack gap="sm" component="form" aria-label={texts.profile.passwordHeading} onSubmit={(e) => { e.preventDefault(); submit(); }}>
          <Text fw={700}>{texts.profile.passwordHeading}</Text>
          <PasswordInput
            label={texts.profile.currentPassword}
            name="current_password"
            autoComplete="current-password"
            value={current}
            maxLength={passwordLimits.current_password}
            error={errors.current_password}
            onChange={(e) => setCurrent(e.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <PasswordInput label={texts.forms.newPassword} autoComplete="new-password" value={password} maxLength={passwordLimits.password} error={errors.password} onChange={(e) => setPassword(e.currentTarget.value)} />
            <PasswordInput label={texts.forms.passwordConfirm} autoComplete="new-password" value={confirm} maxLength={passwordLimits.password_confirm} error={errors.password_confirm} onChange={(e) => setConfirm(e.currentTarget.value)} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" variant="light" loading={change.isPending} disabled={!password}>
              {texts.profile.passwordButton}
            </Button>
          </Group>
        </Stack>
      </Stack>
    </Paper>
  );
}

/**
 * The e-mail, editable: with the current password, asks the server to mail a
 * confirmation link to the new address (like Firebase's verifyBeforeUpdateEmail).
 */
function EmailChangeForm({ current }: { current: string }) {
  const [draft, setDraft] = useState(current);
  const [password, setPassword] = useState('');
  const { errors, fail, failFromServer } = useFormErrors(emailLabels);
  const channels = trpc.messaging.channels.useQuery(undefined, { staleTime: 60_000 });
  const request = trpc.auth.requestEmailChange.useMutation({
    onSuccess: () => {
      setDraft(current);
      setPassword('');
      // The link confirms the new address only if it can get there (decision 079).
      if (channels.data?.email === false) showError(texts.profile.emailChangeNoEmail);
      else showSuccess(texts.profile.emailChangeSent);
    },
    onError: failFromServer,
  });

  const submit = () => {
    const parsed = emailSchema.safeParse(draft);
    const found = {
      email: !parsed.success ? parsed.error.issues[0]?.message : parsed.data === current ? texts.profile.sameEmail : undefined,
      password: password ? undefined : texts.forms.fieldRequired,
    };
    if (fail(found) || !parsed.success) return;
    request.mutate({ email: parsed.data, password });
  };

  return (
    <Stack gap="sm" component="form" aria-label={texts.profile.changeEmail} onSubmit={(e) => { e.preventDefault(); submit(); }}>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label={texts.forms.email}
          type="email"
          autoComplete="email"
          value={draft}
          maxLength={emailLimits.email}
          error={errors.email}
          description={texts.profile.emailChangeIntro}
          onChange={(e) => setDraft(e.currentTarget.value)}
        />
        <PasswordInput
          label={texts.profile.currentPassword}
          autoComplete="current-password"
          value={password}
          maxLength={emailLimits.password}
          error={errors.password}
          onChange={(e) => setPassword(e.currentTarget.value)}
        />
      </SimpleGrid>
      <Group justify="flex-end">
        <Button type="submit" variant="light" loading={request.isPending} disabled={draft.trim().toLowerCase() === current}>
          {texts.profile.changeEmail}
        </Button>
      </Group>
    </Stack>
  );
}
